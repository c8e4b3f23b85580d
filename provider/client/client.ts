/**
 * {@link ClouddbClient}: one typed method per API operation (SPEC.md section 4, bodies per
 * CONTRACT.md), waiters, and an optional read cache. {@link ClouddbClient.perform} runs any
 * operation of the API description (api/index.ts); the named methods only name an
 * operation and fill in its parameters. operations.ts runs it, createRecovery.ts
 * runs the creates, resourceWaits.ts the waits, readCache.ts serves `getService`.
 */
import { type ClouddbClientOptions, type ResolvedConfig, resolveConfig } from "./config";
import { CreatedIds } from "./createdIds";
import { Creates, recoveryOf } from "./createRecovery";
import { Operations, type ReplyOf } from "./operations";
import { CachedReads } from "./readCache";
import { registerSecret } from "./redact";
import type {
  CreateOptions,
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
import {
  ResourceWaits,
  type WaitForPeeringOptions,
  type WaitForReplicaSetOptions,
  type WaitForServiceOptions,
  type WaitOptions,
} from "./resourceWaits";
import type {
  AuthInfo,
  BodyOf,
  Environment,
  MessageResponse,
  Operation,
  ParamsOf,
  Peering,
  ReadReplicaSet,
  Service,
  Vpc,
} from "../../contract";
import { type PerformParams, ROUTES } from "./routes";
import { Pacer } from "./pacer";
import { type MsInterval, ServerClock } from "./serverClock";
import { TransitionDurations } from "./transitionDurations";
import { HttpTransport } from "./transport";

/**
 * Typed client of the CloudDB API.
 *
 * Every method raises a `ClouddbError` subclass on failure: an `ApiError` subclass for an
 * error answer (after retries for 429/5xx), `NetworkError` when no answer came,
 * `ResponseValidationError` when a 2xx body is not what the client relies on, and
 * `ConfigurationError` when the project is not configured. Messages never contain the API
 * key or a known password. Retries: 429 always (after `Retry-After`), 5xx/network for
 * everything but creates, which first look for what the failed attempt made (see
 * createRecovery.ts); all within `retryDeadlineMs`.
 *
 * Call {@link ClouddbClient.close} when done, to release the connection pool.
 */
export class ClouddbClient {
  /** The resolved configuration (the API key included: do not log it). */
  readonly config: ResolvedConfig;
  private readonly transport: HttpTransport;
  private readonly reads: CachedReads;
  private readonly ops: Operations;
  private readonly creates: Creates;
  private readonly waits: ResourceWaits;
  private readonly durations: TransitionDurations;
  /** The client's pacer: every request waits there for its turn (see pacer.ts). */
  readonly pacer: Pacer;
  private readonly clock: ServerClock;

  /**
   * @throws ConfigurationError when the API URL or key is missing or invalid (options
   * first, then CLOUDDB_API_URL / CLOUDDB_API_KEY / CLOUDDB_PROJECT_ID).
   */
  constructor(options: ClouddbClientOptions = {}) {
    this.config = resolveConfig(options);
    const [clock, ids] = [new ServerClock(), new CreatedIds()];
    this.clock = clock;
    this.pacer = new Pacer();
    this.transport = new HttpTransport(this.config, clock, this.pacer);
    this.ops = new Operations(this.config, this.transport, ids, () => this.reads.invalidate());
    this.reads = new CachedReads(this.ops, this.config.listCacheMs);
    this.creates = new Creates(this.ops, clock, ids);
    this.durations = new TransitionDurations(this.config.expectedDurations);
    this.waits = new ResourceWaits(this.ops, this.durations);
  }

  /**
   * How long transitions took as this client measured them (and as `expectedDurations`
   * seeded them), by name, e.g. `{"service:QUEUED->READY": 10450}`: save them and pass them
   * as `expectedDurations` to a later client so its waits poll where readiness is likely.
   */
  learnedDurations(): Record<string, number> {
    return this.durations.snapshot();
  }

  /**
   * The last measurements of each transition (oldest first), by name, as this client keeps
   * them (those `expectedDurations` seeded included): save them and pass them as
   * `expectedDurations` to a later client, whose waits then expect their median, so one slow
   * run does not decide a later run's prior.
   */
  learnedSamples(): Record<string, number[]> {
    return this.durations.samples();
  }

  /**
   * The offset of the API's clock from this machine's (`server - client`, ms) as measured
   * from the `Date` headers of the answers so far, as an interval; undefined before any
   * answer. Compare the API's timestamps (`created`) with `Date.now() + offset`, never
   * with `Date.now()` alone.
   */
  serverClockOffset(): MsInterval | undefined {
    return this.clock.offsetMs;
  }

  /** Releases the connection pool: waits under way end with WaitCancelledError, unsent requests and later calls with NetworkError. */
  async close(): Promise<void> {
    const closing = this.transport.close();
    this.waits.close();
    this.pacer.close();
    await closing;
  }

  /**
   * Runs any operation of the API description, as the named methods do: a new operation
   * needs no method. `params`: the path parameters but the project (`opts.projectId`, else
   * the client's); `body`: `undefined` when it takes none. A list answers its `ListReading`;
   * a create whose description declares `recover` runs with create recovery (see
   * createRecovery.ts; `opts.uniqueName` when its name is its own), another create without
   * (an ambiguous failure is raised, never repeated).
   * @throws what the named methods throw.
   */
  async perform<O extends Operation>(op: O, params: PerformParams<O>, body: BodyOf<O>, opts?: CreateOptions): Promise<ReplyOf<O>> {
    return this.run(op, params, body, opts);
  }

  /** {@link ClouddbClient.perform} with a body the server validates (the named methods' request types are wider). */
  private async run<O extends Operation>(op: O, params: PerformParams<O>, body: unknown, opts?: CreateOptions): Promise<ReplyOf<O>> {
    const full = (ROUTES[op].path.includes("{project}") ? { ...params, project: this.ops.project(opts) } : params) as ParamsOf<O>;
    const recovery = recoveryOf(op);
    return recovery === undefined
      ? this.ops.call(op, full, body)
      : this.creates.run(op, recovery, full, body, { uniqueName: opts?.uniqueName });
  }

  /** Enables or disables the pooler of a service, or of one of its replica sets. */
  private async pooler(on: boolean, target: { service: string; replicaSet?: string }, opts?: ProjectOptions): Promise<MessageResponse> {
    const { service, replicaSet } = target;
    if (replicaSet === undefined) return this.perform(on ? "enableServicePooler" : "disableServicePooler", { service }, undefined, opts);
    return this.perform(on ? "enableReplicaSetPooler" : "disableReplicaSetPooler", { service, replicaSet }, undefined, opts);
  }

  /**
   * `GET /auth/info`: who the credential is (`type` `apiKey` with `apiKey`, or `oauth` with
   * `oauth`). Fails with AuthenticationError (401) for an unknown key.
   */
  async getAuthInfo(): Promise<AuthInfo> {
    return this.perform("getAuthInfo", {}, undefined);
  }

  /** `GET /projects/{p}/vpcs`: every VPC of the project. */
  async listVpcs(opts?: ProjectOptions): Promise<Vpc[]> {
    return (await this.perform("listVpcs", {}, undefined, opts)).items;
  }

  /**
   * `POST /projects/{p}/vpcs` (201): creates a VPC. Never blindly repeated (see
   * createRecovery.ts): a lost answer is recovered by the name when `opts.uniqueName`
   * says it is this create's own, and otherwise fails with AmbiguousCreateError when a VPC
   * that fits may be new. Fails with InvalidRequestError for a bad CIDR or region. When it
   * fails with a 5xx/NetworkError, no matching VPC was found by the last check.
   */
  async createVpc(req: CreateVpcRequest, opts?: CreateOptions): Promise<Vpc> {
    return this.run("createVpc", {}, { name: req.name, cidr: req.cidr, region_code: req.region_code }, opts);
  }

  /** `GET /projects/{p}/vpcs/{id}`. Fails with NotFoundError when it does not exist. */
  async getVpc(vpcId: string, opts?: ProjectOptions): Promise<Vpc> {
    return this.perform("getVpc", { vpc: vpcId }, undefined, opts);
  }

  /**
   * `DELETE /projects/{p}/vpcs/{id}` (204). Fails with ConflictError while services are
   * attached or peerings exist, NotFoundError when it does not exist (but a 404 on a retry
   * after an ambiguous failure counts as success).
   */
  async deleteVpc(vpcId: string, opts?: ProjectOptions): Promise<void> {
    return this.perform("deleteVpc", { vpc: vpcId }, undefined, opts);
  }

  /** `POST /projects/{p}/vpcs/{id}/rename` `{name}` (200, `{message}`). Retried freely. */
  async renameVpc(vpcId: string, name: string, opts?: ProjectOptions): Promise<MessageResponse> {
    return this.perform("renameVpc", { vpc: vpcId }, { name }, opts);
  }

  /** `GET .../vpcs/{vpc}/peerings`. Fails with NotFoundError when the VPC does not exist. */
  async listPeerings(vpcId: string, opts?: ProjectOptions): Promise<Peering[]> {
    return (await this.perform("listPeerings", { vpc: vpcId }, undefined, opts)).items;
  }

  /**
   * `POST .../vpcs/{vpc}/peerings` (201, status `pending`). Never blindly repeated (see
   * createRecovery.ts): the VPC's peerings are listed just before it is sent, and a lost
   * answer is recovered as the one fitting peering that appeared meanwhile.
   */
  async createPeering(vpcId: string, req: CreatePeeringRequest, opts?: ProjectOptions): Promise<Peering> {
    const { peer_account_id, peer_region_code, peer_vpc_id } = req;
    return this.run("createPeering", { vpc: vpcId }, { peer_account_id, peer_region_code, peer_vpc_id }, opts);
  }

  /** `GET .../peerings/{id}`. Fails with NotFoundError when the VPC or peering does not exist. */
  async getPeering(vpcId: string, peeringId: string, opts?: ProjectOptions): Promise<Peering> {
    return this.perform("getPeering", { vpc: vpcId, peering: peeringId }, undefined, opts);
  }

  /** `DELETE .../peerings/{id}` (204), allowed in every state. NotFoundError when absent (except on a retry). */
  async deletePeering(vpcId: string, peeringId: string, opts?: ProjectOptions): Promise<void> {
    return this.perform("deletePeering", { vpc: vpcId, peering: peeringId }, undefined, opts);
  }

  /** `GET /projects/{p}/services`: every service (never with `initial_password`). */
  async listServices(opts?: ProjectOptions): Promise<Service[]> {
    return (await this.perform("listServices", {}, undefined, opts)).items;
  }

  /**
   * `POST /projects/{p}/services` (202, status `QUEUED`, with `initial_password`). Never
   * blindly repeated (see createRecovery.ts): a service recovered after an ambiguous failure
   * has NO `initial_password`; treat the password as unknown. A lost answer is recovered by
   * the name only when `opts.uniqueName` says it is this create's own. The password, when
   * present, is registered for redaction. Fails with InvalidRequestError for bad values.
   */
  async createService(req: CreateServiceRequest, opts?: CreateOptions): Promise<Service> {
    return this.run("createService", {}, req, opts);
  }

  /**
   * `GET /projects/{p}/services/{id}` (never with `initial_password`). With `listCacheMs`
   * > 0, served from one shared `listServices` answer at most that old; a service missing
   * from it is fetched for real (to confirm the 404); `opts.fresh` skips the cache. Fails
   * with NotFoundError once deleted.
   */
  async getService(serviceId: string, opts?: ReadOptions): Promise<Service> {
    return this.reads.service(this.ops.project(opts), serviceId, opts?.fresh === true);
  }

  /**
   * `DELETE /projects/{p}/services/{id}` (202): the service goes `DELETING`, then 404.
   * Fails with ConflictError when already `DELETING`, NotFoundError when absent (except on
   * a retry after an ambiguous failure, which counts as success).
   */
  async deleteService(serviceId: string, opts?: ProjectOptions): Promise<void> {
    return this.perform("deleteService", { service: serviceId }, undefined, opts);
  }

  /** `POST .../start` (202, the Service; `RESUMING`, then `READY`). A no-op on `READY`; ConflictError in other states. */
  async startService(serviceId: string, opts?: ProjectOptions): Promise<Service> {
    return this.perform("startService", { service: serviceId }, undefined, opts);
  }

  /** `POST .../stop` (202, the Service; `PAUSING`, then `PAUSED`). A no-op on `PAUSED`; ConflictError unless `READY`. */
  async stopService(serviceId: string, opts?: ProjectOptions): Promise<Service> {
    return this.perform("stopService", { service: serviceId }, undefined, opts);
  }

  /**
   * `POST .../attachToVPC` `{vpc_id}` (202, `{message}`). InvalidRequestError when the VPC
   * is not in the same project and region; ConflictError when attached elsewhere or not `READY`.
   */
  async attachServiceToVpc(serviceId: string, vpcId: string, opts?: ProjectOptions): Promise<MessageResponse> {
    return this.perform("attachServiceToVpc", { service: serviceId }, { vpc_id: vpcId }, opts);
  }

  /** `POST .../detachFromVPC` `{vpc_id}` (202, `{message}`). ConflictError when not attached to that VPC. */
  async detachServiceFromVpc(serviceId: string, vpcId: string, opts?: ProjectOptions): Promise<MessageResponse> {
    return this.perform("detachServiceFromVpc", { service: serviceId }, { vpc_id: vpcId }, opts);
  }

  /**
   * `POST .../resize` `{cpu_millis, memory_gbs}` strings (202, the Service; `CONFIGURING`,
   * then `READY`). InvalidRequestError for a pair not allowed; ConflictError unless `READY`.
   */
  async resizeService(serviceId: string, req: ResizeServiceRequest, opts?: ProjectOptions): Promise<Service> {
    const body = { cpu_millis: String(req.cpu_millis), memory_gbs: String(req.memory_gbs) };
    return this.perform("resizeService", { service: serviceId }, body, opts);
  }

  /** `POST .../enablePooler` (200, `{message}`); a no-op when enabled. ConflictError unless `READY`. */
  async enableServicePooler(serviceId: string, opts?: ProjectOptions): Promise<MessageResponse> {
    return this.pooler(true, { service: serviceId }, opts);
  }

  /** `POST .../disablePooler` (200, `{message}`); a no-op when disabled. ConflictError unless `READY`. */
  async disableServicePooler(serviceId: string, opts?: ProjectOptions): Promise<MessageResponse> {
    return this.pooler(false, { service: serviceId }, opts);
  }

  /**
   * `POST .../forkService` (202, the new Service, `QUEUED`, with `initial_password`). Never
   * blindly repeated (see createRecovery.ts): a recovered fork has no `initial_password`.
   * ConflictError unless the source is `READY`.
   */
  async forkService(serviceId: string, req: ForkServiceRequest, opts?: CreateOptions): Promise<Service> {
    return this.run("forkService", { service: serviceId }, req, opts);
  }

  /**
   * `POST .../updatePassword` `{password}` (204). The password is registered for redaction
   * before the request. InvalidRequestError for a length outside 8..128; ConflictError unless `READY`.
   */
  async updateServicePassword(serviceId: string, password: string, opts?: ProjectOptions): Promise<void> {
    registerSecret(password);
    return this.perform("updateServicePassword", { service: serviceId }, { password }, opts);
  }

  /** `POST .../setEnvironment` `{environment}` (200, `{message}`). ConflictError unless `READY`. */
  async setServiceEnvironment(serviceId: string, environment: Environment, opts?: ProjectOptions): Promise<MessageResponse> {
    return this.perform("setServiceEnvironment", { service: serviceId }, { environment }, opts);
  }

  /**
   * `POST .../setHA` `{replica_count?, sync_replica_count?}` (202, the Service;
   * `CONFIGURING`, then `READY`). InvalidRequestError for counts out of range.
   */
  async setServiceHA(serviceId: string, req: SetHARequest, opts?: ProjectOptions): Promise<Service> {
    return this.perform("setServiceHA", { service: serviceId }, req, opts);
  }

  /** `GET .../services/{id}/replicaSets`. NotFoundError when the service does not exist. */
  async listReplicaSets(serviceId: string, opts?: ProjectOptions): Promise<ReadReplicaSet[]> {
    return (await this.perform("listReplicaSets", { service: serviceId }, undefined, opts)).items;
  }

  /**
   * One replica set of a service. There is no single-set GET: with `listCacheMs` > 0 it is
   * served from the service as the shared `listServices` answer shows it (like
   * `getService`), else, or when that answer does not show it, from
   * `GET .../replicaSets`. `opts.fresh` skips the cache.
   * @throws NotFoundError when the service or the set does not exist; ResponseValidationError
   * (naming the field and value) when the API lists the set in a shape the client cannot rely on.
   */
  async getReplicaSet(serviceId: string, replicaSetId: string, opts?: ReadOptions): Promise<ReadReplicaSet> {
    return this.reads.replicaSet(this.ops.project(opts), serviceId, replicaSetId, opts?.fresh === true);
  }

  /**
   * `POST .../replicaSets` `{name, nodes, cpu_millis, memory_gbs}` (202, status `creating`).
   * Never blindly repeated (see createRecovery.ts). ConflictError unless the service is `READY`.
   */
  async createReplicaSet(serviceId: string, req: CreateReplicaSetRequest, opts?: CreateOptions): Promise<ReadReplicaSet> {
    return this.run("createReplicaSet", { service: serviceId }, req, opts);
  }

  /** `DELETE .../replicaSets/{rs}` (202): `deleting`, then gone from the list. */
  async deleteReplicaSet(serviceId: string, replicaSetId: string, opts?: ProjectOptions): Promise<void> {
    return this.perform("deleteReplicaSet", { service: serviceId, replicaSet: replicaSetId }, undefined, opts);
  }

  /** `POST .../replicaSets/{rs}/resize` (202, `{message}`; `resizing`, then `active`). ConflictError unless `active`. */
  async resizeReplicaSet(serviceId: string, setId: string, req: ResizeReplicaSetRequest, opts?: ProjectOptions): Promise<MessageResponse> {
    return this.perform("resizeReplicaSet", { service: serviceId, replicaSet: setId }, req, opts);
  }

  /** `POST .../replicaSets/{rs}/enablePooler` (200, `{message}`). ConflictError unless `active`. */
  async enableReplicaSetPooler(serviceId: string, replicaSetId: string, opts?: ProjectOptions): Promise<MessageResponse> {
    return this.pooler(true, { service: serviceId, replicaSet: replicaSetId }, opts);
  }

  /** `POST .../replicaSets/{rs}/disablePooler` (200, `{message}`). ConflictError unless `active`. */
  async disableReplicaSetPooler(serviceId: string, replicaSetId: string, opts?: ProjectOptions): Promise<MessageResponse> {
    return this.pooler(false, { service: serviceId, replicaSet: replicaSetId }, opts);
  }

  /** `POST .../replicaSets/{rs}/setEnvironment` `{environment}` (200, `{message}`). ConflictError unless `active`. */
  async setReplicaSetEnvironment(serviceId: string, setId: string, env: Environment, opts?: ProjectOptions): Promise<MessageResponse> {
    return this.perform("setReplicaSetEnvironment", { service: serviceId, replicaSet: setId }, { environment: env }, opts);
  }

  /**
   * Polls the service until its status is one of `until`.
   * @throws ResourceFailedError at once on a failure status (`UNSTABLE`) that is not
   * awaited, or on 404, with the last service seen; TimeoutError after `timeoutMs` (naming
   * the last status). 429/5xx/network failures of single polls are tolerated until the
   * timeout; any other error ends the wait at once.
   */
  async waitForService(serviceId: string, opts: WaitForServiceOptions): Promise<Service> {
    return this.waits.service(serviceId, opts);
  }

  /**
   * Polls the service until it answers 404 (or status `DELETED`).
   * @throws TimeoutError after `timeoutMs`, naming the last status seen.
   */
  async waitForServiceDeleted(serviceId: string, opts: WaitOptions): Promise<void> {
    return this.waits.serviceDeleted(serviceId, opts);
  }

  /**
   * Polls the service's replica sets (there is no single-set GET) until the set's status is
   * one of `until` (default `["active"]`).
   * @throws ResourceFailedError at once on `error` (unless awaited) or when the set or its
   * service is gone; TimeoutError after `timeoutMs`.
   */
  async waitForReplicaSet(serviceId: string, replicaSetId: string, opts: WaitForReplicaSetOptions): Promise<ReadReplicaSet> {
    return this.waits.replicaSet(serviceId, replicaSetId, opts);
  }

  /**
   * Polls the service's replica sets until the set is gone (or its service is).
   * @throws TimeoutError after `timeoutMs`, naming the last status seen.
   */
  async waitForReplicaSetDeleted(serviceId: string, replicaSetId: string, opts: WaitOptions): Promise<void> {
    return this.waits.replicaSetDeleted(serviceId, replicaSetId, opts);
  }

  /**
   * Polls the peering until its status is one of `until` (default `["active"]`).
   * @throws ResourceFailedError at once on `failed` (quoting `error_message`) or 404;
   * TimeoutError after `timeoutMs`.
   */
  async waitForPeering(vpcId: string, peeringId: string, opts: WaitForPeeringOptions): Promise<Peering> {
    return this.waits.peering(vpcId, peeringId, opts);
  }
}
