/**
 * Service operations and their state machine (CONTRACT.md, "States"):
 * create/fork `QUEUED` → `CONFIGURING` → `READY`; changes `READY` → `CONFIGURING` →
 * `READY`; stop `PAUSING` → `PAUSED`; start `RESUMING` → `READY`; delete `DELETING` → gone.
 */
import { LIMITS, NOMINAL_MS, type RegionCode, type SizePair } from "./catalog";
import { ConflictError, InvalidRequestError } from "./errors";
import { newPassword, newShortId } from "./ids";
import type { ModelStore } from "./model-store";
import { GONE } from "./phase";
import type { ServiceRecord, ServiceStatus } from "./records";
import { parseBody, serviceSizeFromStrings } from "./request-schemas";
import { serviceView, type MessageBody, type ServiceBody } from "./views";

/** Size of a service created without `cpu_millis`/`memory_gbs`: 500 millicores, 2 GB. */
const DEFAULT_SIZE: SizePair = { cpuMillis: 500, memoryGbs: 2 };

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

/** Services of a project. */
export class ServiceOperations {
  /** @param store - the shared model state. */
  constructor(private readonly store: ModelStore) {}

  private configuring(service: ServiceRecord): void {
    service.phase = this.store.phase([["CONFIGURING", NOMINAL_MS.configuringOnChange]], "READY");
  }

  private provisioningPhase() {
    return this.store.phase<ServiceStatus>(
      [
        ["QUEUED", NOMINAL_MS.queued],
        ["CONFIGURING", NOMINAL_MS.configuringOnCreate],
      ],
      "READY",
    );
  }

  /** All services of the project that exist. */
  listServices(projectId: string): ServiceBody[] {
    return this.store.services(projectId).map((s) => serviceView(this.store, s));
  }

  /** One service (never with `initial_password`). @throws NotFoundError */
  getService(projectId: string, serviceId: string): ServiceBody {
    return serviceView(this.store, this.store.service(projectId, serviceId));
  }

  /** Creates a service (status `QUEUED`); the answer alone carries `initial_password`. @throws InvalidRequestError */
  createService(projectId: string, body: unknown): ServiceBody {
    const input = parseBody("createService", body);
    const size = sizeOr(input.cpu_millis, input.memory_gbs, DEFAULT_SIZE);
    const service: ServiceRecord = {
      id: this.uniqueServiceId(),
      projectId,
      name: input.name,
      serviceType: input.service_type ?? "TIMESERIES",
      regionCode: (input.region_code ?? "us-east-1") as RegionCode,
      createdAt: this.store.now(),
      resourceId: newShortId(),
      cpuMillis: size.cpuMillis,
      memoryGbs: size.memoryGbs,
      environment: input.environment_tag ?? "DEV",
      replicaCount: input.replica_count ?? 0,
      syncReplicaCount: 0,
      poolerEnabled: false,
      password: newPassword(),
      phase: this.provisioningPhase(),
    };
    this.withDatabase(service);
    this.store.state.services.push(service);
    return { ...serviceView(this.store, service), initial_password: service.password };
  }

  /** Starts deleting a service: `DELETING`, then gone. @throws NotFoundError, ConflictError while `DELETING` */
  deleteService(projectId: string, serviceId: string): void {
    const service = this.store.service(projectId, serviceId);
    if (this.store.serviceStatus(service) === "DELETING") {
      throw new ConflictError("The service is already being deleted", `service ${service.id} is DELETING`);
    }
    service.phase = this.store.phase([["DELETING", NOMINAL_MS.deleting]], GONE);
  }

  /** Resumes a `PAUSED` service; a no-op on a `READY` one. @throws NotFoundError, ConflictError */
  startService(projectId: string, serviceId: string): ServiceBody {
    const service = this.store.service(projectId, serviceId);
    const status = requireServiceStatus(this.store, service, ["PAUSED", "READY"], "start");
    if (status === "PAUSED") service.phase = this.store.phase([["RESUMING", NOMINAL_MS.resuming]], "READY");
    return serviceView(this.store, service);
  }

  /** Pauses a `READY` service; a no-op on a `PAUSED` one. @throws NotFoundError, ConflictError */
  stopService(projectId: string, serviceId: string): ServiceBody {
    const service = this.store.service(projectId, serviceId);
    const status = requireServiceStatus(this.store, service, ["READY", "PAUSED"], "stop");
    if (status === "READY") service.phase = this.store.phase([["PAUSING", NOMINAL_MS.pausing]], "PAUSED");
    return serviceView(this.store, service);
  }

  /**
   * Attaches a `READY` service to a VPC of the same project and region. Attaching to the
   * VPC it is already attached to is a no-op.
   * @throws NotFoundError; InvalidRequestError (bad body, VPC missing or in another region);
   *   ConflictError (state, or attached to another VPC)
   */
  attachToVpc(projectId: string, serviceId: string, body: unknown): MessageBody {
    const service = this.store.service(projectId, serviceId);
    const input = parseBody("vpcReference", body);
    requireServiceStatus(this.store, service, ["READY"], "attach to a VPC");
    const vpc = this.store.vpcs(projectId).find((v) => v.id === input.vpc_id);
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
    this.configuring(service);
    return { message: `Attaching service ${service.id} to VPC ${vpc.id}` };
  }

  /** Detaches a `READY` service from the VPC it is attached to. @throws NotFoundError, InvalidRequestError, ConflictError */
  detachFromVpc(projectId: string, serviceId: string, body: unknown): MessageBody {
    const service = this.store.service(projectId, serviceId);
    const input = parseBody("vpcReference", body);
    requireServiceStatus(this.store, service, ["READY"], "detach from a VPC");
    if (service.vpcId !== input.vpc_id) {
      throw new ConflictError(
        "The service is not attached to that VPC",
        `service ${service.id} is ${service.vpcId === undefined ? "not attached to any VPC" : `attached to VPC ${service.vpcId}`}`,
      );
    }
    delete service.vpcId;
    this.configuring(service);
    return { message: `Detaching service ${service.id} from VPC ${input.vpc_id}` };
  }

  /** Resizes a `READY` service to an allowed pair. @throws NotFoundError, InvalidRequestError, ConflictError */
  resizeService(projectId: string, serviceId: string, body: unknown): ServiceBody {
    const service = this.store.service(projectId, serviceId);
    const input = parseBody("resizeService", body);
    requireServiceStatus(this.store, service, ["READY"], "resize");
    const size = sizeOr(input.cpu_millis, input.memory_gbs, service);
    service.cpuMillis = size.cpuMillis;
    service.memoryGbs = size.memoryGbs;
    this.configuring(service);
    return serviceView(this.store, service);
  }

  /** Turns the pooler on or off at once (idempotent). @throws NotFoundError, ConflictError unless `READY` */
  setPooler(projectId: string, serviceId: string, enabled: boolean): MessageBody {
    const service = this.store.service(projectId, serviceId);
    requireServiceStatus(this.store, service, ["READY"], enabled ? "enable the pooler" : "disable the pooler");
    service.poolerEnabled = enabled;
    return { message: `Connection pooler ${enabled ? "enabled" : "disabled"} for service ${service.id}` };
  }

  /**
   * Forks a `READY` service into a new one (status `QUEUED`, `forked_from` set, no HA
   * replicas, same type and region). PITR needs `target_time` between the source's
   * creation and now.
   * @throws NotFoundError, InvalidRequestError, ConflictError
   */
  forkService(projectId: string, serviceId: string, body: unknown): ServiceBody {
    const source = this.store.service(projectId, serviceId);
    const input = parseBody("forkService", body);
    if (input.fork_strategy === "PITR" && input.target_time !== undefined) {
      const target = this.store.reported.unreport(Date.parse(input.target_time));
      const now = this.store.now();
      if (target < source.createdAt || target > now) {
        const shown = (t: number) => new Date(this.store.reported.report(t)).toISOString();
        throw new InvalidRequestError(
          "target_time is out of range",
          `target_time: ${input.target_time} must lie between ${shown(source.createdAt)} (source created) and ${shown(now)} (now)`,
        );
      }
    }
    requireServiceStatus(this.store, source, ["READY"], "fork");
    const size = sizeOr(input.cpu_millis, input.memory_gbs, source);
    const fork: ServiceRecord = {
      id: this.uniqueServiceId(),
      projectId,
      name: input.name ?? `${source.name.slice(0, LIMITS.nameMaxLength - 5)}-fork`,
      serviceType: source.serviceType,
      regionCode: source.regionCode,
      createdAt: this.store.now(),
      resourceId: newShortId(),
      cpuMillis: size.cpuMillis,
      memoryGbs: size.memoryGbs,
      environment: input.environment_tag ?? "DEV",
      replicaCount: 0,
      syncReplicaCount: 0,
      poolerEnabled: false,
      password: newPassword(),
      forkedFrom: { projectId: source.projectId, serviceId: source.id, isStandby: false },
      phase: this.provisioningPhase(),
    };
    this.withDatabase(fork);
    this.store.state.services.push(fork);
    return { ...serviceView(this.store, fork), initial_password: fork.password };
  }

  /** Sets the password of a `READY` service at once. @throws NotFoundError, InvalidRequestError, ConflictError */
  updatePassword(projectId: string, serviceId: string, body: unknown): void {
    const service = this.store.service(projectId, serviceId);
    const input = parseBody("updatePassword", body);
    requireServiceStatus(this.store, service, ["READY"], "update the password");
    service.password = input.password;
  }

  /** Sets the environment tag of a `READY` service at once. @throws NotFoundError, InvalidRequestError, ConflictError */
  setEnvironment(projectId: string, serviceId: string, body: unknown): MessageBody {
    const service = this.store.service(projectId, serviceId);
    const input = parseBody("setEnvironment", body);
    requireServiceStatus(this.store, service, ["READY"], "set the environment");
    service.environment = input.environment;
    return { message: `Environment of service ${service.id} set to ${input.environment}` };
  }

  /**
   * Changes the HA replicas of a `READY` service; omitted counts keep their value and the
   * result must satisfy `sync_replica_count <= replica_count`.
   * @throws NotFoundError, InvalidRequestError, ConflictError
   */
  setHA(projectId: string, serviceId: string, body: unknown): ServiceBody {
    const service = this.store.service(projectId, serviceId);
    const input = parseBody("setHA", body);
    const replicaCount = input.replica_count ?? service.replicaCount;
    const syncCount = input.sync_replica_count ?? service.syncReplicaCount;
    if (syncCount > replicaCount) {
      throw new InvalidRequestError(
        "sync_replica_count cannot exceed replica_count",
        `sync_replica_count: ${syncCount} is more than replica_count ${replicaCount}`,
      );
    }
    requireServiceStatus(this.store, service, ["READY"], "change HA replicas");
    service.replicaCount = replicaCount;
    service.syncReplicaCount = syncCount;
    this.configuring(service);
    return serviceView(this.store, service);
  }

  /** Gives a new service its real database's endpoint, when databases are hosted. */
  private withDatabase(service: ServiceRecord): void {
    if (this.store.databases !== undefined) service.database = this.store.databases.allocate(service.id);
  }

  private uniqueServiceId(): string {
    for (;;) {
      const id = newShortId();
      if (!this.store.state.services.some((s) => s.id === id) && !this.store.state.replicaSets.some((r) => r.id === id)) {
        return id;
      }
    }
  }
}
