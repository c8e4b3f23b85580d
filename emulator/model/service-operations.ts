/**
 * The service operations of the API description (contract/api/service.ts) and
 * their state machine (CONTRACT.md, "States"): create/fork `QUEUED` → `CONFIGURING` →
 * `READY`; changes `READY` → `CONFIGURING` → `READY`; stop `PAUSING` → `PAUSED`; start
 * `RESUMING` → `READY`; delete `DELETING` → gone.
 */
import {
  FORK_DEFAULTS,
  haCountsAllowed,
  LIMITS,
  SERVICE_DEFAULTS,
  SERVICE_STATUS,
  serviceSizeFromStrings,
  type SizePair,
} from "../../contract";
import { NOMINAL_MS } from "./catalog";
import { ConflictError, InvalidRequestError } from "./errors";
import { newPassword, newShortId } from "./ids";
import type { ModelStore } from "./model-store";
import type { OperationHandlers } from "./operation-handlers";
import { GONE } from "./phase";
import type { ServiceRecord, ServiceStatus } from "./records";
import { serviceView, type MessageBody, type ServiceBody } from "./views";

/** @throws ConflictError unless the service is in one of `allowed`. */
export function requireServiceStatus(
  store: ModelStore,
  service: ServiceRecord,
  allowed: readonly ServiceStatus[],
  action: string,
): ServiceStatus {
  const status = store.serviceStatus(service);
  if (status === GONE || !allowed.includes(status)) {
    throw new ConflictError(
      `Cannot ${action} while the service is ${status}`,
      `service ${service.id} is ${status}; ${action} is allowed in ${allowed.join(", ")}`,
    );
  }
  return status;
}

function sizeOr(cpu: string | undefined, memory: string | undefined, fallback: SizePair): SizePair {
  if (cpu === undefined || memory === undefined) return fallback;
  return serviceSizeFromStrings(cpu, memory) ?? fallback;
}

/** What a create or a fork chooses of its new service; the rest is the same for both. */
type NewService = Pick<ServiceRecord, "name" | "serviceType" | "regionCode" | "environment" | "replicaCount" | "forkedFrom"> & {
  size: SizePair;
};

/** The handlers of the service operations, over `store`. */
export function serviceOperations(store: ModelStore) {
  /** A `READY` service starts configuring a change. */
  const configuring = (service: ServiceRecord): void => {
    service.phase = store.phase([[SERVICE_STATUS.CONFIGURING, NOMINAL_MS.configuringOnChange]], SERVICE_STATUS.READY);
  };

  /** Turns the pooler of a `READY` service on or off at once. @throws NotFoundError, ConflictError */
  const setPooler = (params: { readonly project: string; readonly service: string }, enabled: boolean): MessageBody => {
    const service = store.service(params.project, params.service);
    requireServiceStatus(store, service, [SERVICE_STATUS.READY], enabled ? "enable the pooler" : "disable the pooler");
    service.poolerEnabled = enabled;
    return { message: `Connection pooler ${enabled ? "enabled" : "disabled"} for service ${service.id}` };
  };

  const uniqueServiceId = (): string => {
    for (;;) {
      const id = newShortId();
      if (!store.state.services.some((s) => s.id === id) && !store.state.replicaSets.some((r) => r.id === id)) return id;
    }
  };

  /** Stores a new service (status `QUEUED`); the answer alone carries `initial_password`. */
  const provision = (projectId: string, { size, forkedFrom, ...chosen }: NewService): ServiceBody => {
    const service: ServiceRecord = {
      ...chosen,
      id: uniqueServiceId(),
      projectId,
      createdAt: store.now(),
      resourceId: newShortId(),
      cpuMillis: size.cpuMillis,
      memoryGbs: size.memoryGbs,
      syncReplicaCount: SERVICE_DEFAULTS.syncReplicaCount,
      poolerEnabled: false,
      password: newPassword(),
      phase: store.phase<ServiceStatus>(
        [
          [SERVICE_STATUS.QUEUED, NOMINAL_MS.queued],
          [SERVICE_STATUS.CONFIGURING, NOMINAL_MS.configuringOnCreate],
        ],
        SERVICE_STATUS.READY,
      ),
    };
    if (forkedFrom !== undefined) service.forkedFrom = forkedFrom;
    if (store.databases !== undefined) service.database = store.databases.allocate(service.id);
    store.state.services.push(service);
    return { ...serviceView(store, service), initial_password: service.password };
  };

  return {
    /** All services of the project that exist. */
    listServices: ({ params }) => store.services(params.project).map((s) => serviceView(store, s)),

    /** One service (never with `initial_password`). @throws NotFoundError */
    getService: ({ params }) => serviceView(store, store.service(params.project, params.service)),

    /** Creates a service (status `QUEUED`); the answer alone carries `initial_password`. @throws InvalidRequestError */
    createService: ({ params, body }) => {
      const input = body();
      return provision(params.project, {
        name: input.name,
        serviceType: input.service_type ?? SERVICE_DEFAULTS.serviceType,
        regionCode: input.region_code ?? SERVICE_DEFAULTS.regionCode,
        size: sizeOr(input.cpu_millis, input.memory_gbs, SERVICE_DEFAULTS),
        environment: input.environment_tag ?? SERVICE_DEFAULTS.environment,
        replicaCount: input.replica_count ?? SERVICE_DEFAULTS.replicaCount,
      });
    },

    /** Starts deleting a service: `DELETING`, then gone. @throws NotFoundError, ConflictError while `DELETING` */
    deleteService: ({ params }) => {
      const service = store.service(params.project, params.service);
      if (store.serviceStatus(service) === SERVICE_STATUS.DELETING) {
        throw new ConflictError("The service is already being deleted", `service ${service.id} is DELETING`);
      }
      service.phase = store.phase([[SERVICE_STATUS.DELETING, NOMINAL_MS.deleting]], GONE);
    },

    /** Resumes a `PAUSED` service; a no-op on a `READY` one. @throws NotFoundError, ConflictError */
    startService: ({ params }) => {
      const service = store.service(params.project, params.service);
      const status = requireServiceStatus(store, service, [SERVICE_STATUS.PAUSED, SERVICE_STATUS.READY], "start");
      if (status === SERVICE_STATUS.PAUSED)
        service.phase = store.phase([[SERVICE_STATUS.RESUMING, NOMINAL_MS.resuming]], SERVICE_STATUS.READY);
      return serviceView(store, service);
    },

    /** Pauses a `READY` service; a no-op on a `PAUSED` one. @throws NotFoundError, ConflictError */
    stopService: ({ params }) => {
      const service = store.service(params.project, params.service);
      const status = requireServiceStatus(store, service, [SERVICE_STATUS.READY, SERVICE_STATUS.PAUSED], "stop");
      if (status === SERVICE_STATUS.READY)
        service.phase = store.phase([[SERVICE_STATUS.PAUSING, NOMINAL_MS.pausing]], SERVICE_STATUS.PAUSED);
      return serviceView(store, service);
    },

    /**
     * Attaches a `READY` service to a VPC of the same project and region. Attaching to the
     * VPC it is already attached to is a no-op.
     * @throws NotFoundError; InvalidRequestError (bad body, VPC missing or in another region);
     *   ConflictError (state, or attached to another VPC)
     */
    attachServiceToVpc: ({ params, body }): MessageBody => {
      const service = store.service(params.project, params.service);
      const input = body();
      requireServiceStatus(store, service, [SERVICE_STATUS.READY], "attach to a VPC");
      const vpc = store.vpcs(params.project).find((v) => v.id === input.vpc_id);
      if (!vpc) throw new InvalidRequestError("The VPC does not exist in this project", `vpc_id: ${input.vpc_id} not found`);
      if (vpc.regionCode !== service.regionCode) {
        throw new InvalidRequestError(
          "The VPC is in another region",
          `vpc_id: VPC ${vpc.id} is in ${vpc.regionCode}, the service in ${service.regionCode}`,
        );
      }
      if (service.vpcId === vpc.id) return { message: `Service ${service.id} is already attached to VPC ${vpc.id}` };
      if (service.vpcId !== undefined) {
        throw new ConflictError("The service is attached to another VPC", `service ${service.id} is attached to VPC ${service.vpcId}`);
      }
      service.vpcId = vpc.id;
      configuring(service);
      return { message: `Attaching service ${service.id} to VPC ${vpc.id}` };
    },

    /** Detaches a `READY` service from the VPC it is attached to. @throws NotFoundError, InvalidRequestError, ConflictError */
    detachServiceFromVpc: ({ params, body }): MessageBody => {
      const service = store.service(params.project, params.service);
      const input = body();
      requireServiceStatus(store, service, [SERVICE_STATUS.READY], "detach from a VPC");
      if (service.vpcId !== input.vpc_id) {
        throw new ConflictError(
          "The service is not attached to that VPC",
          `service ${service.id} is ${service.vpcId === undefined ? "not attached to any VPC" : `attached to VPC ${service.vpcId}`}`,
        );
      }
      delete service.vpcId;
      configuring(service);
      return { message: `Detaching service ${service.id} from VPC ${input.vpc_id}` };
    },

    /** Resizes a `READY` service to an allowed pair. @throws NotFoundError, InvalidRequestError, ConflictError */
    resizeService: ({ params, body }) => {
      const service = store.service(params.project, params.service);
      const input = body();
      requireServiceStatus(store, service, [SERVICE_STATUS.READY], "resize");
      const size = sizeOr(input.cpu_millis, input.memory_gbs, service);
      service.cpuMillis = size.cpuMillis;
      service.memoryGbs = size.memoryGbs;
      configuring(service);
      return serviceView(store, service);
    },

    /** Turns the pooler on at once (idempotent). @throws NotFoundError, ConflictError unless `READY` */
    enableServicePooler: ({ params }) => setPooler(params, true),

    /** Turns the pooler off at once (idempotent). @throws NotFoundError, ConflictError unless `READY` */
    disableServicePooler: ({ params }) => setPooler(params, false),

    /**
     * Forks a `READY` service into a new one (status `QUEUED`, `forked_from` set, no HA
     * replicas, same type and region). PITR needs `target_time` between the source's
     * creation and now.
     * @throws NotFoundError, InvalidRequestError, ConflictError
     */
    forkService: ({ params, body }) => {
      const source = store.service(params.project, params.service);
      const input = body();
      if (input.fork_strategy === "PITR" && input.target_time !== undefined) {
        const target = store.reported.unreport(Date.parse(input.target_time));
        const now = store.now();
        if (target < source.createdAt || target > now) {
          const shown = (t: number) => new Date(store.reported.report(t)).toISOString();
          throw new InvalidRequestError(
            "target_time is out of range",
            `target_time: ${input.target_time} must lie between ${shown(source.createdAt)} (source created) and ${shown(now)} (now)`,
          );
        }
      }
      requireServiceStatus(store, source, [SERVICE_STATUS.READY], "fork");
      return provision(params.project, {
        name: input.name ?? `${source.name.slice(0, LIMITS.nameMaxLength - FORK_DEFAULTS.nameSuffix.length)}${FORK_DEFAULTS.nameSuffix}`,
        serviceType: source.serviceType,
        regionCode: source.regionCode,
        size: sizeOr(input.cpu_millis, input.memory_gbs, source),
        environment: input.environment_tag ?? FORK_DEFAULTS.environment,
        replicaCount: 0,
        forkedFrom: { projectId: source.projectId, serviceId: source.id, isStandby: false },
      });
    },

    /** Sets the password of a `READY` service at once. @throws NotFoundError, InvalidRequestError, ConflictError */
    updateServicePassword: ({ params, body }) => {
      const service = store.service(params.project, params.service);
      const input = body();
      requireServiceStatus(store, service, [SERVICE_STATUS.READY], "update the password");
      service.password = input.password;
    },

    /** Sets the environment tag of a `READY` service at once. @throws NotFoundError, InvalidRequestError, ConflictError */
    setServiceEnvironment: ({ params, body }): MessageBody => {
      const service = store.service(params.project, params.service);
      const input = body();
      requireServiceStatus(store, service, [SERVICE_STATUS.READY], "set the environment");
      service.environment = input.environment;
      return { message: `Environment of service ${service.id} set to ${input.environment}` };
    },

    /**
     * Changes the HA replicas of a `READY` service; omitted counts keep their value and the
     * result must satisfy `sync_replica_count <= replica_count`.
     * @throws NotFoundError, InvalidRequestError, ConflictError
     */
    setServiceHA: ({ params, body }) => {
      const service = store.service(params.project, params.service);
      const input = body();
      const replicaCount = input.replica_count ?? service.replicaCount;
      const syncCount = input.sync_replica_count ?? service.syncReplicaCount;
      if (!haCountsAllowed(replicaCount, syncCount)) {
        throw new InvalidRequestError(
          "sync_replica_count cannot exceed replica_count",
          `sync_replica_count: ${syncCount} is more than replica_count ${replicaCount}`,
        );
      }
      requireServiceStatus(store, service, [SERVICE_STATUS.READY], "change HA replicas");
      service.replicaCount = replicaCount;
      service.syncReplicaCount = syncCount;
      configuring(service);
      return serviceView(store, service);
    },
  } satisfies OperationHandlers;
}
