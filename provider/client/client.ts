/**
 * {@link ClouddbClient}: one typed method per API operation (SPEC.md section 4, bodies per
 * CONTRACT.md), waiters, and an optional read cache. Every call goes through one path:
 * transport (HTTP) → retry policy → response validation.
 */
import type { z } from "zod";
import { type ClouddbClientOptions, type ResolvedConfig, requireProjectId, resolveConfig } from "./config";
import {
  findCreatedPeering,
  findCreatedReplicaSet,
  findCreatedService,
  findCreatedVpc,
  findForkedService,
} from "./createGuard";
import { NotFoundError } from "./errors";
import { ListCache } from "./readCache";
import { registerSecret } from "./redact";
import type {
  CreatePeeringRequest,
  CreateReplicaSetRequest,
  CreateServiceRequest,
  CreateVpcRequest,
  ForkServiceRequest,
  ProjectOptions,
  ReadOptions,
  ResizeReplicaSetRequest,
  ResizeServiceRequest,
  SetHARequest,
} from "./requests";
import { type CallKind, withRetry } from "./retry";
import {
  AuthInfoSchema,
  MessageResponseSchema,
  PeeringListSchema,
  PeeringSchema,
  ReadReplicaSetListSchema,
  ReadReplicaSetSchema,
  ServiceListSchema,
  ServiceSchema,
  VpcListSchema,
  VpcSchema,
  type AuthInfo,
  type Environment,
  type MessageResponse,
  type Peering,
  type ReadReplicaSet,
  type ReplicaSetStatus,
  type Service,
  type ServiceStatus,
  type Vpc,
} from "./schemas";
import { HttpTransport, type HttpMethod } from "./transport";
import { validateResponse } from "./validation";
import { type Observation, waitUntil } from "./waiters";

/** Options shared by the waiters. */
export interface WaitOptions extends ProjectOptions {
  /** Total time to wait, in ms. */
  timeoutMs: number;
  /** Overrides the client's polling for this wait. */
  poll?: { initialMs?: number; maxMs?: number };
}

/** Options of {@link ClouddbClient.waitForService}. */
export interface WaitForServiceOptions extends WaitOptions {
  /** States that end the wait, e.g. `["READY"]`. */
  until: ServiceStatus[];
}

/** Options of {@link ClouddbClient.waitForReplicaSet}. */
export interface WaitForReplicaSetOptions extends WaitOptions {
  /** States that end the wait. @default ["active"] */
  until?: ReplicaSetStatus[];
}

/** Options of {@link ClouddbClient.waitForPeering}. */
export interface WaitForPeeringOptions extends WaitOptions {
  /** States that end the wait. @default ["active"] */
  until?: string[];
}

interface CallSpec<S extends z.ZodType | undefined> {
  operation: string;
  method: HttpMethod;
  path: string;
  body?: unknown;
  projectId?: string;
  kind: CallKind;
  schema: S;
  deadline?: number;
  recover?: () => Promise<Result<S> | undefined>;
}

type Result<S> = S extends z.ZodType ? z.output<S> : void;

const seg = encodeURIComponent;

/**
 * Typed client of the CloudDB API.
 *
 * Every method raises a {@link ClouddbError} subclass on failure: an {@link ApiError}
 * subclass for an error answer (after retries for 429/5xx), `NetworkError` when no answer
 * came, `ResponseValidationError` when a 2xx body does not match SPEC.md, and
 * `ConfigurationError` when the project is not configured. Messages never contain the API
 * key or a known password. Retries: 429 always (after `Retry-After`), 5xx/network for
 * everything but creates, which first look for what the failed attempt made (see
 * createGuard.ts); all within `retryDeadlineMs`.
 *
 * Call {@link ClouddbClient.close} when done, to release the connection pool.
 */
export class ClouddbClient {
  /** The resolved configuration (the API key included: do not log it). */
  readonly config: ResolvedConfig;
  private readonly transport: HttpTransport;
  private readonly serviceCache: ListCache<Service>;

  /**
   * @throws ConfigurationError when the API URL or key is missing or invalid (options
   * first, then CLOUDDB_API_URL / CLOUDDB_API_KEY / CLOUDDB_PROJECT_ID).
   */
  constructor(options: ClouddbClientOptions = {}) {
    this.config = resolveConfig(options);
    this.transport = new HttpTransport(this.config);
    this.serviceCache = new ListCache<Service>(this.config.listCacheMs);
  }

  /** Releases the connection pool. Calls made afterwards fail with NetworkError. */
  async close(): Promise<void> {
    await this.transport.close();
  }

  // ---------------------------------------------------------------- core

  private project(opts: ProjectOptions | undefined): string {
    return requireProjectId(this.config, opts?.projectId);
  }

  private async call<S extends z.ZodType | undefined>(spec: CallSpec<S>): Promise<Result<S>> {
    const deadline = spec.deadline ?? Date.now() + this.config.retryDeadlineMs;
    const isWrite = spec.method !== "GET";
    if (isWrite) this.serviceCache.invalidate();
    try {
      const retryCall: Parameters<typeof withRetry<Result<S>>>[0] = {
        operation: spec.operation,
        kind: spec.kind,
        deadline,
        attempt: async () => {
          const req: Parameters<HttpTransport["send"]>[0] = {
            operation: spec.operation,
            method: spec.method,
            path: spec.path,
          };
          if (spec.body !== undefined) req.body = spec.body;
          if (spec.projectId !== undefined) req.projectId = spec.projectId;
          const res = await this.transport.send(req);
          if (spec.schema === undefined) return undefined as Result<S>;
          return validateResponse(spec.schema, res.body, spec.operation) as Result<S>;
        },
      };
      if (spec.recover !== undefined) retryCall.recover = spec.recover;
      if (spec.kind === "delete") retryCall.goneValue = undefined as Result<S>;
      return await withRetry(retryCall);
    } finally {
      if (isWrite) this.serviceCache.invalidate();
    }
  }

  private listVpcsIn(projectId: string, deadline?: number): Promise<Vpc[]> {
    return this.call({
      operation: "listVpcs",
      method: "GET",
      path: `/projects/${seg(projectId)}/vpcs`,
      projectId,
      kind: "read",
      schema: VpcListSchema,
      ...(deadline === undefined ? {} : { deadline }),
    });
  }

  private listPeeringsIn(projectId: string, vpcId: string, deadline?: number): Promise<Peering[]> {
    return this.call({
      operation: "listPeerings",
      method: "GET",
      path: `/projects/${seg(projectId)}/vpcs/${seg(vpcId)}/peerings`,
      projectId,
      kind: "read",
      schema: PeeringListSchema,
      ...(deadline === undefined ? {} : { deadline }),
    });
  }

  private getPeeringIn(projectId: string, vpcId: string, peeringId: string, deadline?: number): Promise<Peering> {
    return this.call({
      operation: "getPeering",
      method: "GET",
      path: `/projects/${seg(projectId)}/vpcs/${seg(vpcId)}/peerings/${seg(peeringId)}`,
      projectId,
      kind: "read",
      schema: PeeringSchema,
      ...(deadline === undefined ? {} : { deadline }),
    });
  }

  private listServicesIn(projectId: string, deadline?: number): Promise<Service[]> {
    return this.call({
      operation: "listServices",
      method: "GET",
      path: `/projects/${seg(projectId)}/services`,
      projectId,
      kind: "read",
      schema: ServiceListSchema,
      ...(deadline === undefined ? {} : { deadline }),
    });
  }

  private getServiceIn(projectId: string, serviceId: string, deadline?: number): Promise<Service> {
    return this.call({
      operation: "getService",
      method: "GET",
      path: `/projects/${seg(projectId)}/services/${seg(serviceId)}`,
      projectId,
      kind: "read",
      schema: ServiceSchema,
      ...(deadline === undefined ? {} : { deadline }),
    });
  }

  private listReplicaSetsIn(projectId: string, serviceId: string, deadline?: number): Promise<ReadReplicaSet[]> {
    return this.call({
      operation: "listReplicaSets",
      method: "GET",
      path: `/projects/${seg(projectId)}/services/${seg(serviceId)}/replicaSets`,
      projectId,
      kind: "read",
      schema: ReadReplicaSetListSchema,
      ...(deadline === undefined ? {} : { deadline }),
    });
  }

  /** A POST action on a service (or a replica set when `rsId` is given) answering `schema`. */
  private async serviceAction<S extends z.ZodType | undefined>(
    operation: string,
    serviceId: string,
    action: string,
    body: unknown,
    schema: S,
    opts: ProjectOptions | undefined,
    rsId?: string,
  ): Promise<Result<S>> {
    const projectId = this.project(opts);
    const rsPath = rsId === undefined ? "" : `/replicaSets/${seg(rsId)}`;
    return this.call({
      operation,
      method: "POST",
      path: `/projects/${seg(projectId)}/services/${seg(serviceId)}${rsPath}/${action}`,
      body,
      projectId,
      kind: "idempotent",
      schema,
    });
  }

  // ---------------------------------------------------------------- auth

  /**
   * `GET /auth/info`: who the credential is (`type` `apiKey` with `apiKey`, or `oauth` with
   * `oauth`). Fails with AuthenticationError (401) for an unknown key.
   */
  async getAuthInfo(): Promise<AuthInfo> {
    return this.call({ operation: "getAuthInfo", method: "GET", path: "/auth/info", kind: "read", schema: AuthInfoSchema });
  }

  // ---------------------------------------------------------------- VPCs

  /** `GET /projects/{p}/vpcs`: every VPC of the project. */
  async listVpcs(opts?: ProjectOptions): Promise<Vpc[]> {
    return this.listVpcsIn(this.project(opts));
  }

  /**
   * `POST /projects/{p}/vpcs` (201): creates a VPC. Never blindly repeated: after a 5xx or
   * network failure the VPCs are listed and one with the same name, CIDR and region is
   * returned instead of creating again. Fails with InvalidRequestError for a bad CIDR or region.
   * When it fails with a 5xx/NetworkError, no matching VPC was found by the last check.
   */
  async createVpc(req: CreateVpcRequest, opts?: ProjectOptions): Promise<Vpc> {
    const projectId = this.project(opts);
    const deadline = Date.now() + this.config.retryDeadlineMs;
    return this.call({
      operation: "createVpc",
      method: "POST",
      path: `/projects/${seg(projectId)}/vpcs`,
      body: { name: req.name, cidr: req.cidr, region_code: req.region_code },
      projectId,
      kind: "create",
      schema: VpcSchema,
      deadline,
      recover: async () => findCreatedVpc(await this.listVpcsIn(projectId, deadline), req),
    });
  }

  /** `GET /projects/{p}/vpcs/{id}`. Fails with NotFoundError when it does not exist. */
  async getVpc(vpcId: string, opts?: ProjectOptions): Promise<Vpc> {
    const projectId = this.project(opts);
    return this.call({
      operation: "getVpc",
      method: "GET",
      path: `/projects/${seg(projectId)}/vpcs/${seg(vpcId)}`,
      projectId,
      kind: "read",
      schema: VpcSchema,
    });
  }

  /**
   * `DELETE /projects/{p}/vpcs/{id}` (204). Fails with ConflictError while services are
   * attached or peerings exist, NotFoundError when it does not exist (but a 404 on a retry
   * after an ambiguous failure counts as success).
   */
  async deleteVpc(vpcId: string, opts?: ProjectOptions): Promise<void> {
    const projectId = this.project(opts);
    return this.call({
      operation: "deleteVpc",
      method: "DELETE",
      path: `/projects/${seg(projectId)}/vpcs/${seg(vpcId)}`,
      projectId,
      kind: "delete",
      schema: undefined,
    });
  }

  /** `POST /projects/{p}/vpcs/{id}/rename` `{name}` (200, `{message}`). Retried freely. */
  async renameVpc(vpcId: string, name: string, opts?: ProjectOptions): Promise<MessageResponse> {
    const projectId = this.project(opts);
    return this.call({
      operation: "renameVpc",
      method: "POST",
      path: `/projects/${seg(projectId)}/vpcs/${seg(vpcId)}/rename`,
      body: { name },
      projectId,
      kind: "idempotent",
      schema: MessageResponseSchema,
    });
  }

  // ---------------------------------------------------------------- peerings

  /** `GET .../vpcs/{vpc}/peerings`. Fails with NotFoundError when the VPC does not exist. */
  async listPeerings(vpcId: string, opts?: ProjectOptions): Promise<Peering[]> {
    return this.listPeeringsIn(this.project(opts), vpcId);
  }

  /**
   * `POST .../vpcs/{vpc}/peerings` (201, status `pending`). Never blindly repeated: after a
   * 5xx or network failure, a peering with the same peer account, region and VPC is
   * returned instead of creating again.
   */
  async createPeering(vpcId: string, req: CreatePeeringRequest, opts?: ProjectOptions): Promise<Peering> {
    const projectId = this.project(opts);
    const deadline = Date.now() + this.config.retryDeadlineMs;
    return this.call({
      operation: "createPeering",
      method: "POST",
      path: `/projects/${seg(projectId)}/vpcs/${seg(vpcId)}/peerings`,
      body: { peer_account_id: req.peer_account_id, peer_region_code: req.peer_region_code, peer_vpc_id: req.peer_vpc_id },
      projectId,
      kind: "create",
      schema: PeeringSchema,
      deadline,
      recover: async () => findCreatedPeering(await this.listPeeringsIn(projectId, vpcId, deadline), req),
    });
  }

  /** `GET .../peerings/{id}`. Fails with NotFoundError when the VPC or peering does not exist. */
  async getPeering(vpcId: string, peeringId: string, opts?: ProjectOptions): Promise<Peering> {
    return this.getPeeringIn(this.project(opts), vpcId, peeringId);
  }

  /** `DELETE .../peerings/{id}` (204), allowed in every state. NotFoundError when absent (except on a retry). */
  async deletePeering(vpcId: string, peeringId: string, opts?: ProjectOptions): Promise<void> {
    const projectId = this.project(opts);
    return this.call({
      operation: "deletePeering",
      method: "DELETE",
      path: `/projects/${seg(projectId)}/vpcs/${seg(vpcId)}/peerings/${seg(peeringId)}`,
      projectId,
      kind: "delete",
      schema: undefined,
    });
  }

  // ---------------------------------------------------------------- services

  /** `GET /projects/{p}/services`: every service (never with `initial_password`). */
  async listServices(opts?: ProjectOptions): Promise<Service[]> {
    return this.listServicesIn(this.project(opts));
  }

  /**
   * `POST /projects/{p}/services` (202, status `QUEUED`, with `initial_password`).
   *
   * Never blindly repeated: after a 5xx or network failure the services are listed, and one
   * with the same name, type and region, created since the request began (minus a small
   * clock skew), is returned instead of creating again. Such a recovered service has NO
   * `initial_password`: treat the password as unknown. The password, when present, is
   * registered for redaction. Fails with InvalidRequestError for bad values.
   */
  async createService(req: CreateServiceRequest, opts?: ProjectOptions): Promise<Service> {
    const projectId = this.project(opts);
    const startedAt = Date.now();
    const deadline = startedAt + this.config.retryDeadlineMs;
    return this.call({
      operation: "createService",
      method: "POST",
      path: `/projects/${seg(projectId)}/services`,
      body: req,
      projectId,
      kind: "create",
      schema: ServiceSchema,
      deadline,
      recover: async () => findCreatedService(await this.listServicesIn(projectId, deadline), req, startedAt),
    }).then((s) => {
      registerSecret(s.initial_password);
      return s;
    });
  }

  /**
   * `GET /projects/{p}/services/{id}` (never with `initial_password`). With `listCacheMs`
   * > 0, served from one shared `listServices` answer at most that old; a service missing
   * from it is fetched for real (to confirm the 404); `opts.fresh` skips the cache. Fails
   * with NotFoundError once deleted.
   */
  async getService(serviceId: string, opts?: ReadOptions): Promise<Service> {
    const projectId = this.project(opts);
    if (this.serviceCache.enabled && opts?.fresh !== true) {
      const list = await this.serviceCache.get(projectId, () => this.listServicesIn(projectId));
      const hit = list.find((s) => s.service_id === serviceId);
      if (hit !== undefined) return structuredClone(hit);
    }
    return this.getServiceIn(projectId, serviceId);
  }

  /**
   * `DELETE /projects/{p}/services/{id}` (202): the service goes `DELETING`, then 404.
   * Fails with ConflictError when already `DELETING`, NotFoundError when absent (except on
   * a retry after an ambiguous failure, which counts as success).
   */
  async deleteService(serviceId: string, opts?: ProjectOptions): Promise<void> {
    const projectId = this.project(opts);
    return this.call({
      operation: "deleteService",
      method: "DELETE",
      path: `/projects/${seg(projectId)}/services/${seg(serviceId)}`,
      projectId,
      kind: "delete",
      schema: undefined,
    });
  }

  /** `POST .../start` (202, the Service; `RESUMING`, then `READY`). A no-op on `READY`; ConflictError in other states. */
  async startService(serviceId: string, opts?: ProjectOptions): Promise<Service> {
    return this.serviceAction("startService", serviceId, "start", undefined, ServiceSchema, opts);
  }

  /** `POST .../stop` (202, the Service; `PAUSING`, then `PAUSED`). A no-op on `PAUSED`; ConflictError unless `READY`. */
  async stopService(serviceId: string, opts?: ProjectOptions): Promise<Service> {
    return this.serviceAction("stopService", serviceId, "stop", undefined, ServiceSchema, opts);
  }

  /**
   * `POST .../attachToVPC` `{vpc_id}` (202, `{message}`). InvalidRequestError when the VPC
   * is not in the same project and region; ConflictError when attached elsewhere or not `READY`.
   */
  async attachServiceToVpc(serviceId: string, vpcId: string, opts?: ProjectOptions): Promise<MessageResponse> {
    return this.serviceAction("attachServiceToVpc", serviceId, "attachToVPC", { vpc_id: vpcId }, MessageResponseSchema, opts);
  }

  /** `POST .../detachFromVPC` `{vpc_id}` (202, `{message}`). ConflictError when not attached to that VPC. */
  async detachServiceFromVpc(serviceId: string, vpcId: string, opts?: ProjectOptions): Promise<MessageResponse> {
    return this.serviceAction("detachServiceFromVpc", serviceId, "detachFromVPC", { vpc_id: vpcId }, MessageResponseSchema, opts);
  }

  /**
   * `POST .../resize` `{cpu_millis, memory_gbs}` strings (202, the Service; `CONFIGURING`,
   * then `READY`). InvalidRequestError for a pair not allowed; ConflictError unless `READY`.
   */
  async resizeService(serviceId: string, req: ResizeServiceRequest, opts?: ProjectOptions): Promise<Service> {
    return this.serviceAction(
      "resizeService",
      serviceId,
      "resize",
      { cpu_millis: String(req.cpu_millis), memory_gbs: String(req.memory_gbs) },
      ServiceSchema,
      opts,
    );
  }

  /** `POST .../enablePooler` (200, `{message}`); a no-op when enabled. ConflictError unless `READY`. */
  async enableServicePooler(serviceId: string, opts?: ProjectOptions): Promise<MessageResponse> {
    return this.serviceAction("enableServicePooler", serviceId, "enablePooler", undefined, MessageResponseSchema, opts);
  }

  /** `POST .../disablePooler` (200, `{message}`); a no-op when disabled. ConflictError unless `READY`. */
  async disableServicePooler(serviceId: string, opts?: ProjectOptions): Promise<MessageResponse> {
    return this.serviceAction("disableServicePooler", serviceId, "disablePooler", undefined, MessageResponseSchema, opts);
  }

  /**
   * `POST .../forkService` (202, the new Service, `QUEUED`, with `initial_password`). Never
   * blindly repeated: after a 5xx or network failure, a service forked from this one
   * (same name when given) created since the request began is returned instead; it has no
   * `initial_password`. ConflictError unless the source is `READY`.
   */
  async forkService(serviceId: string, req: ForkServiceRequest, opts?: ProjectOptions): Promise<Service> {
    const projectId = this.project(opts);
    const startedAt = Date.now();
    const deadline = startedAt + this.config.retryDeadlineMs;
    return this.call({
      operation: "forkService",
      method: "POST",
      path: `/projects/${seg(projectId)}/services/${seg(serviceId)}/forkService`,
      body: req,
      projectId,
      kind: "create",
      schema: ServiceSchema,
      deadline,
      recover: async () =>
        findForkedService(await this.listServicesIn(projectId, deadline), serviceId, req.name, startedAt),
    }).then((s) => {
      registerSecret(s.initial_password);
      return s;
    });
  }

  /**
   * `POST .../updatePassword` `{password}` (204). The password is registered for redaction
   * before the request. InvalidRequestError for a length outside 8..128; ConflictError unless `READY`.
   */
  async updateServicePassword(serviceId: string, password: string, opts?: ProjectOptions): Promise<void> {
    registerSecret(password);
    return this.serviceAction("updateServicePassword", serviceId, "updatePassword", { password }, undefined, opts);
  }

  /** `POST .../setEnvironment` `{environment}` (200, `{message}`). ConflictError unless `READY`. */
  async setServiceEnvironment(serviceId: string, environment: Environment, opts?: ProjectOptions): Promise<MessageResponse> {
    return this.serviceAction("setServiceEnvironment", serviceId, "setEnvironment", { environment }, MessageResponseSchema, opts);
  }

  /**
   * `POST .../setHA` `{replica_count?, sync_replica_count?}` (202, the Service;
   * `CONFIGURING`, then `READY`). InvalidRequestError for counts out of range.
   */
  async setServiceHA(serviceId: string, req: SetHARequest, opts?: ProjectOptions): Promise<Service> {
    return this.serviceAction("setServiceHA", serviceId, "setHA", req, ServiceSchema, opts);
  }

  // ---------------------------------------------------------------- replica sets

  /** `GET .../services/{id}/replicaSets`. NotFoundError when the service does not exist. */
  async listReplicaSets(serviceId: string, opts?: ProjectOptions): Promise<ReadReplicaSet[]> {
    return this.listReplicaSetsIn(this.project(opts), serviceId);
  }

  /**
   * `POST .../replicaSets` `{name, nodes, cpu_millis, memory_gbs}` (202, status `creating`).
   * Never blindly repeated: after a 5xx or network failure, a set with the same name in the
   * service is returned instead. ConflictError unless the service is `READY`.
   */
  async createReplicaSet(serviceId: string, req: CreateReplicaSetRequest, opts?: ProjectOptions): Promise<ReadReplicaSet> {
    const projectId = this.project(opts);
    const deadline = Date.now() + this.config.retryDeadlineMs;
    return this.call({
      operation: "createReplicaSet",
      method: "POST",
      path: `/projects/${seg(projectId)}/services/${seg(serviceId)}/replicaSets`,
      body: req,
      projectId,
      kind: "create",
      schema: ReadReplicaSetSchema,
      deadline,
      recover: async () => findCreatedReplicaSet(await this.listReplicaSetsIn(projectId, serviceId, deadline), req),
    });
  }

  /** `DELETE .../replicaSets/{rs}` (202): `deleting`, then gone from the list. */
  async deleteReplicaSet(serviceId: string, replicaSetId: string, opts?: ProjectOptions): Promise<void> {
    const projectId = this.project(opts);
    return this.call({
      operation: "deleteReplicaSet",
      method: "DELETE",
      path: `/projects/${seg(projectId)}/services/${seg(serviceId)}/replicaSets/${seg(replicaSetId)}`,
      projectId,
      kind: "delete",
      schema: undefined,
    });
  }

  /** `POST .../replicaSets/{rs}/resize` (202, `{message}`; `resizing`, then `active`). ConflictError unless `active`. */
  async resizeReplicaSet(
    serviceId: string,
    replicaSetId: string,
    req: ResizeReplicaSetRequest,
    opts?: ProjectOptions,
  ): Promise<MessageResponse> {
    return this.serviceAction("resizeReplicaSet", serviceId, "resize", req, MessageResponseSchema, opts, replicaSetId);
  }

  /** `POST .../replicaSets/{rs}/enablePooler` (200, `{message}`). ConflictError unless `active`. */
  async enableReplicaSetPooler(serviceId: string, replicaSetId: string, opts?: ProjectOptions): Promise<MessageResponse> {
    return this.serviceAction("enableReplicaSetPooler", serviceId, "enablePooler", undefined, MessageResponseSchema, opts, replicaSetId);
  }

  /** `POST .../replicaSets/{rs}/disablePooler` (200, `{message}`). ConflictError unless `active`. */
  async disableReplicaSetPooler(serviceId: string, replicaSetId: string, opts?: ProjectOptions): Promise<MessageResponse> {
    return this.serviceAction("disableReplicaSetPooler", serviceId, "disablePooler", undefined, MessageResponseSchema, opts, replicaSetId);
  }

  /** `POST .../replicaSets/{rs}/setEnvironment` `{environment}` (200, `{message}`). ConflictError unless `active`. */
  async setReplicaSetEnvironment(
    serviceId: string,
    replicaSetId: string,
    environment: Environment,
    opts?: ProjectOptions,
  ): Promise<MessageResponse> {
    return this.serviceAction(
      "setReplicaSetEnvironment",
      serviceId,
      "setEnvironment",
      { environment },
      MessageResponseSchema,
      opts,
      replicaSetId,
    );
  }

  // ---------------------------------------------------------------- waiters

  private pollFor(opts: WaitOptions): { initialMs: number; maxMs: number } {
    const initialMs = opts.poll?.initialMs ?? this.config.poll.initialMs;
    return { initialMs, maxMs: Math.max(initialMs, opts.poll?.maxMs ?? this.config.poll.maxMs) };
  }

  private readDeadline(waitDeadline: number): number {
    return Math.min(waitDeadline, Date.now() + this.config.retryDeadlineMs);
  }

  private async observe<T>(read: () => Promise<T>): Promise<Observation<T>> {
    try {
      return { present: true, value: await read() };
    } catch (err) {
      if (NotFoundError.isInstance(err)) return { present: false };
      throw err;
    }
  }

  /**
   * Polls `getService` (bypassing the read cache) until the status is one of `until`.
   * @throws ResourceFailedError at once on `UNSTABLE` (unless awaited) or 404, with the last
   * service seen; TimeoutError after `timeoutMs` (naming the last status). 429/5xx/network
   * failures of single polls are tolerated until the timeout.
   */
  async waitForService(serviceId: string, opts: WaitForServiceOptions): Promise<Service> {
    const projectId = this.project(opts);
    const until = new Set<string>(opts.until);
    return waitUntil<Service, Service>({
      resource: { kind: "service", id: serviceId, projectId },
      awaited: opts.until,
      timeoutMs: opts.timeoutMs,
      ...this.pollFor(opts),
      observe: (deadline) => this.observe(() => this.getServiceIn(projectId, serviceId, this.readDeadline(deadline))),
      judge: (obs) => {
        if (!obs.present) return { kind: "fail", state: "NOT_FOUND" };
        if (until.has(obs.value.status)) return { kind: "done", result: obs.value };
        if (obs.value.status === "UNSTABLE") return { kind: "fail", state: "UNSTABLE" };
        return { kind: "continue" };
      },
      statusOf: (s) => s.status,
    });
  }

  /**
   * Polls `getService` until it answers 404 (or status `DELETED`).
   * @throws TimeoutError after `timeoutMs`, naming the last status seen.
   */
  async waitForServiceDeleted(serviceId: string, opts: WaitOptions): Promise<void> {
    const projectId = this.project(opts);
    return waitUntil<Service, void>({
      resource: { kind: "service", id: serviceId, projectId },
      awaited: ["deleted"],
      timeoutMs: opts.timeoutMs,
      ...this.pollFor(opts),
      observe: (deadline) => this.observe(() => this.getServiceIn(projectId, serviceId, this.readDeadline(deadline))),
      judge: (obs) =>
        !obs.present || obs.value.status === "DELETED" ? { kind: "done", result: undefined } : { kind: "continue" },
      statusOf: (s) => s.status,
    });
  }

  /**
   * Polls `listReplicaSets` (there is no single-set GET) until the set's status is one of
   * `until` (default `["active"]`).
   * @throws ResourceFailedError at once on `error` (unless awaited) or when the set or its
   * service is gone; TimeoutError after `timeoutMs`.
   */
  async waitForReplicaSet(serviceId: string, replicaSetId: string, opts: WaitForReplicaSetOptions): Promise<ReadReplicaSet> {
    const projectId = this.project(opts);
    const awaited = opts.until ?? ["active"];
    const until = new Set<string>(awaited);
    return waitUntil<ReadReplicaSet, ReadReplicaSet>({
      resource: { kind: "replica set", id: `${serviceId}/${replicaSetId}`, projectId },
      awaited,
      timeoutMs: opts.timeoutMs,
      ...this.pollFor(opts),
      observe: (deadline) => this.observeReplicaSet(projectId, serviceId, replicaSetId, deadline),
      judge: (obs) => {
        if (!obs.present) return { kind: "fail", state: "NOT_FOUND" };
        if (obs.value.status !== undefined && until.has(obs.value.status)) return { kind: "done", result: obs.value };
        if (obs.value.status === "error") return { kind: "fail", state: "error" };
        return { kind: "continue" };
      },
      statusOf: (r) => r.status,
    });
  }

  private async observeReplicaSet(
    projectId: string,
    serviceId: string,
    replicaSetId: string,
    deadline: number,
  ): Promise<Observation<ReadReplicaSet>> {
    const sets = await this.observe(() => this.listReplicaSetsIn(projectId, serviceId, this.readDeadline(deadline)));
    if (!sets.present) return { present: false };
    const found = sets.value.find((r) => r.id === replicaSetId);
    return found === undefined ? { present: false } : { present: true, value: found };
  }

  /**
   * Polls `listReplicaSets` until the set is gone (or its service is).
   * @throws TimeoutError after `timeoutMs`, naming the last status seen.
   */
  async waitForReplicaSetDeleted(serviceId: string, replicaSetId: string, opts: WaitOptions): Promise<void> {
    const projectId = this.project(opts);
    return waitUntil<ReadReplicaSet, void>({
      resource: { kind: "replica set", id: `${serviceId}/${replicaSetId}`, projectId },
      awaited: ["deleted"],
      timeoutMs: opts.timeoutMs,
      ...this.pollFor(opts),
      observe: (deadline) => this.observeReplicaSet(projectId, serviceId, replicaSetId, deadline),
      judge: (obs) => (obs.present ? { kind: "continue" } : { kind: "done", result: undefined }),
      statusOf: (r) => r.status,
    });
  }

  /**
   * Polls `getPeering` until its status is one of `until` (default `["active"]`).
   * @throws ResourceFailedError at once on `failed` (quoting `error_message`) or 404;
   * TimeoutError after `timeoutMs`.
   */
  async waitForPeering(vpcId: string, peeringId: string, opts: WaitForPeeringOptions): Promise<Peering> {
    const projectId = this.project(opts);
    const awaited = opts.until ?? ["active"];
    const until = new Set<string>(awaited);
    return waitUntil<Peering, Peering>({
      resource: { kind: "peering", id: `${vpcId}/${peeringId}`, projectId },
      awaited,
      timeoutMs: opts.timeoutMs,
      ...this.pollFor(opts),
      observe: (deadline) => this.observe(() => this.getPeeringIn(projectId, vpcId, peeringId, this.readDeadline(deadline))),
      judge: (obs) => {
        if (!obs.present) return { kind: "fail", state: "NOT_FOUND" };
        if (obs.value.status !== undefined && until.has(obs.value.status)) return { kind: "done", result: obs.value };
        if (obs.value.status === "failed") {
          const reason = obs.value.error_message ?? undefined;
          return reason === undefined ? { kind: "fail", state: "failed" } : { kind: "fail", state: "failed", reason };
        }
        return { kind: "continue" };
      },
      statusOf: (p) => p.status,
    });
  }
}
