/**
 * Create recovery: creates are never blindly repeated. After a 5xx or a network failure on
 * a create, the client lists the resources and looks for one that matches the request
 * before it tries again, so a retry can never make a second resource. {@link Creates}
 * runs the five creates (VPC, peering, service, fork, replica set) that way; the matchers
 * are pure.
 *
 * A resource recovered this way is what the list shows: a recovered service has no
 * `initial_password` (only the create answer carries it), so the caller must treat the
 * password as unknown (e.g. set one with `updateServicePassword`).
 */
import type { Operations } from "./operations";
import { registerSecret } from "./redact";
import type {
  CreatePeeringRequest,
  CreateReplicaSetRequest,
  CreateServiceRequest,
  CreateVpcRequest,
  ForkServiceRequest,
} from "./requests";
import type { Peering, ReadReplicaSet, Service, Vpc } from "./schemas";

/** Tolerated difference between the client's and the server's clocks when comparing `created`. */
export const CREATED_SKEW_MS = 10_000;

/** Server defaults of createService (CONTRACT.md). */
const DEFAULT_SERVICE_TYPE = "TIMESERIES";
const DEFAULT_REGION = "us-east-1";

const GONE_SERVICE = new Set(["DELETING", "DELETED"]);

function createdAtOrAfter(s: Service, startedAt: number, skewMs: number): boolean {
  const created = Date.parse(s.created);
  return !Number.isNaN(created) && created >= startedAt - skewMs;
}

function newest(services: Service[]): Service | undefined {
  return [...services].sort((a, b) => Date.parse(b.created) - Date.parse(a.created))[0];
}

function highestId<T extends { id: string }>(items: T[]): T | undefined {
  return [...items].sort((a, b) => {
    const na = Number(a.id);
    const nb = Number(b.id);
    return Number.isFinite(na) && Number.isFinite(nb) ? nb - na : b.id.localeCompare(a.id);
  })[0];
}

/**
 * The service a `createService(req)` begun at `startedAt` (epoch ms) may have made: same
 * name, type and region (server defaults applied), created no earlier than `startedAt`
 * minus `skewMs`, not being deleted; the newest if several. Undefined when none.
 */
export function findCreatedService(
  services: Service[],
  req: CreateServiceRequest,
  startedAt: number,
  skewMs = CREATED_SKEW_MS,
): Service | undefined {
  return newest(
    services.filter(
      (s) =>
        s.name === req.name &&
        s.service_type === (req.service_type ?? DEFAULT_SERVICE_TYPE) &&
        s.region_code === (req.region_code ?? DEFAULT_REGION) &&
        !GONE_SERVICE.has(s.status) &&
        createdAtOrAfter(s, startedAt, skewMs),
    ),
  );
}

/**
 * The service a `forkService(sourceId, {name?})` begun at `startedAt` may have made:
 * `forked_from.service_id` is the source, the name matches when one was given, created no
 * earlier than `startedAt - skewMs`; the newest if several. Undefined when none.
 */
export function findForkedService(
  services: Service[],
  sourceId: string,
  name: string | undefined,
  startedAt: number,
  skewMs = CREATED_SKEW_MS,
): Service | undefined {
  return newest(
    services.filter(
      (s) =>
        s.forked_from?.service_id === sourceId &&
        (name === undefined || s.name === name) &&
        !GONE_SERVICE.has(s.status) &&
        createdAtOrAfter(s, startedAt, skewMs),
    ),
  );
}

/**
 * The VPC a `createVpc(req)` may have made: same name, CIDR and region (VPCs have no
 * `created`, so an identical VPC made earlier is indistinguishable); the highest id if
 * several. Undefined when none.
 */
export function findCreatedVpc(vpcs: Vpc[], req: CreateVpcRequest): Vpc | undefined {
  return highestId(vpcs.filter((v) => v.name === req.name && v.cidr === req.cidr && v.region_code === req.region_code));
}

/**
 * The peering a `createPeering(vpcId, req)` may have made: same peer account, region and
 * VPC; the highest id if several. Undefined when none.
 */
export function findCreatedPeering(peerings: Peering[], req: CreatePeeringRequest): Peering | undefined {
  return highestId(
    peerings.filter(
      (p) =>
        p.peer_account_id === req.peer_account_id &&
        p.peer_region_code === req.peer_region_code &&
        p.peer_vpc_id === req.peer_vpc_id,
    ),
  );
}

/**
 * The replica set a `createReplicaSet(serviceId, req)` may have made: same name within the
 * service, not being deleted. Undefined when none.
 */
export function findCreatedReplicaSet(sets: ReadReplicaSet[], req: CreateReplicaSetRequest): ReadReplicaSet | undefined {
  return sets.find((r) => r.name === req.name && r.status !== "deleting");
}

/**
 * The creates of one client, each sent once and, after an ambiguous failure, recovered
 * from a list before any retry (see the module comment).
 */
export class Creates {
  /** @param ops - the client's operation runner. */
  constructor(private readonly ops: Operations) {}

  /**
   * `POST .../vpcs`. After a 5xx or network failure, a VPC with the same name, CIDR and
   * region is returned instead of creating again.
   * @throws the create's error when it is not ambiguous, or when no matching VPC was found.
   */
  async vpc(req: CreateVpcRequest, projectId: string): Promise<Vpc> {
    const deadline = this.ops.deadlineFromNow();
    return this.ops.call(
      "createVpc",
      { project: projectId },
      { name: req.name, cidr: req.cidr, region_code: req.region_code },
      {
        deadline,
        recover: async () =>
          findCreatedVpc((await this.ops.call("listVpcs", { project: projectId }, undefined, { caller: "createVpc", deadline })).items, req),
      },
    );
  }

  /** `POST .../vpcs/{vpc}/peerings`, recovered by peer account, region and VPC. */
  async peering(vpcId: string, req: CreatePeeringRequest, projectId: string): Promise<Peering> {
    const deadline = this.ops.deadlineFromNow();
    const params = { project: projectId, vpc: vpcId };
    return this.ops.call(
      "createPeering",
      params,
      { peer_account_id: req.peer_account_id, peer_region_code: req.peer_region_code, peer_vpc_id: req.peer_vpc_id },
      {
        deadline,
        recover: async () =>
          findCreatedPeering((await this.ops.call("listPeerings", params, undefined, { caller: "createPeering", deadline })).items, req),
      },
    );
  }

  /** `POST .../services`, recovered by name, type and region among services created since the request began. */
  async service(req: CreateServiceRequest, projectId: string): Promise<Service> {
    const startedAt = Date.now();
    const deadline = startedAt + this.ops.config.retryDeadlineMs;
    const made = await this.ops.call("createService", { project: projectId }, req, {
      deadline,
      recover: async () =>
        findCreatedService(
          (await this.ops.call("listServices", { project: projectId }, undefined, { caller: "createService", deadline })).items,
          req,
          startedAt,
        ),
    });
    registerSecret(made.initial_password);
    return made;
  }

  /** `POST .../forkService`, recovered by origin (and name, when given) among services created since the request began. */
  async fork(sourceId: string, req: ForkServiceRequest, projectId: string): Promise<Service> {
    const startedAt = Date.now();
    const deadline = startedAt + this.ops.config.retryDeadlineMs;
    const made = await this.ops.call("forkService", { project: projectId, service: sourceId }, req, {
      deadline,
      recover: async () =>
        findForkedService(
          (await this.ops.call("listServices", { project: projectId }, undefined, { caller: "forkService", deadline })).items,
          sourceId,
          req.name,
          startedAt,
        ),
    });
    registerSecret(made.initial_password);
    return made;
  }

  /** `POST .../replicaSets`, recovered by name within the service. */
  async replicaSet(serviceId: string, req: CreateReplicaSetRequest, projectId: string): Promise<ReadReplicaSet> {
    const deadline = this.ops.deadlineFromNow();
    const params = { project: projectId, service: serviceId };
    return this.ops.call("createReplicaSet", params, req, {
      deadline,
      recover: async () =>
        findCreatedReplicaSet(
          (await this.ops.call("listReplicaSets", params, undefined, { caller: "createReplicaSet", deadline })).items,
          req,
        ),
    });
  }
}
