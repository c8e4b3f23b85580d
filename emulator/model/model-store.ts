/**
 * The model's state with its clock: lookups that hide finished deletions, computed
 * statuses, and phase construction with the clock scale applied.
 */
import { ReportedClock, type Clock } from "./clock";
import { gateStatus, type DatabaseHosting } from "./databases";
import { NotFoundError } from "./errors";
import { GONE, statusAt, timedPhase, type Phase } from "./phase";
import {
  emptyState,
  type ModelState,
  type PeeringRecord,
  type PeeringStatus,
  type ReplicaSetRecord,
  type ReplicaSetStatus,
  type ServiceRecord,
  type ServiceStatus,
  type VpcRecord,
} from "./records";

/**
 * The record found by a lookup.
 * @throws NotFoundError naming `kind` and `id` when there is none.
 */
export function found<R>(kind: string, id: string, record: R | undefined): R {
  if (record === undefined) throw new NotFoundError(kind, id);
  return record;
}

/** Matches the record whose `id` is `id`. */
export function byId(id: string): (record: { id: string }) => boolean {
  return (record) => record.id === id;
}

/** State, clock and scale shared by the operations modules. */
export class ModelStore {
  /** The clock the server reports (`created`), the emulator clock shifted by the control path. */
  readonly reported: ReportedClock;

  /**
   * @param state - the records (mutated in place by operations).
   * @param clock - the emulator clock.
   * @param clockScale - factor applied to every nominal duration (0 makes transitions instant).
   * @param databases - real databases behind services, whose state statuses wait for.
   */
  constructor(
    public state: ModelState,
    readonly clock: Clock,
    readonly clockScale: number,
    readonly databases?: DatabaseHosting,
  ) {
    this.reported = new ReportedClock(clock);
  }

  /** Current emulator time, epoch milliseconds. */
  now(): number {
    return this.clock.now();
  }

  /** A phase beginning now, with nominal durations scaled. */
  phase<S extends string>(steps: ReadonlyArray<readonly [S, number]>, then: S | typeof GONE): Phase<S> {
    return timedPhase(this.now(), this.clockScale, steps, then);
  }

  /**
   * Status of a service now (or {@link GONE}). A service with a real database shows
   * `READY`, `PAUSED` and gone only once its database has caught up.
   */
  serviceStatus(service: ServiceRecord): ServiceStatus | typeof GONE {
    const status = statusAt(service.phase, this.now());
    if (service.database === undefined || this.databases === undefined) return status;
    return gateStatus(status, service.phase, this.databases.stateOf(service.id));
  }

  /** Status of a replica set now (or {@link GONE}, also when its service is gone). */
  replicaSetStatus(set: ReplicaSetRecord): ReplicaSetStatus | typeof GONE {
    const service = this.state.services.find((s) => s.id === set.serviceId);
    if (!service || this.serviceStatus(service) === GONE) return GONE;
    return statusAt(set.phase, this.now());
  }

  /** Status of a peering now (or {@link GONE}). */
  peeringStatus(peering: PeeringRecord): PeeringStatus | typeof GONE {
    return statusAt(peering.phase, this.now());
  }

  /** Services of a project that still exist, oldest first. */
  services(projectId: string): ServiceRecord[] {
    return this.state.services.filter((s) => s.projectId === projectId && this.serviceStatus(s) !== GONE);
  }

  /** VPCs of a project. */
  vpcs(projectId: string): VpcRecord[] {
    return this.state.vpcs.filter((v) => v.projectId === projectId);
  }

  /** Peerings of a VPC. */
  peerings(vpc: VpcRecord): PeeringRecord[] {
    return this.state.peerings.filter((p) => p.vpcId === vpc.id && p.projectId === vpc.projectId);
  }

  /** Replica sets of a service that still exist, oldest first. */
  replicaSets(service: ServiceRecord): ReplicaSetRecord[] {
    return this.state.replicaSets.filter((r) => r.serviceId === service.id && this.replicaSetStatus(r) !== GONE);
  }

  /** @throws NotFoundError when the VPC is not in the project. */
  vpc(projectId: string, vpcId: string): VpcRecord {
    return found("VPC", vpcId, this.vpcs(projectId).find(byId(vpcId)));
  }

  /** @throws NotFoundError when the peering is not under the VPC. */
  peering(vpc: VpcRecord, peeringId: string): PeeringRecord {
    return found("peering", peeringId, this.peerings(vpc).find(byId(peeringId)));
  }

  /** @throws NotFoundError when the service is not in the project or its deletion finished. */
  service(projectId: string, serviceId: string): ServiceRecord {
    return found("service", serviceId, this.services(projectId).find(byId(serviceId)));
  }

  /** @throws NotFoundError when the replica set is not under the service or is gone. */
  replicaSet(service: ServiceRecord, replicaSetId: string): ReplicaSetRecord {
    return found("replica set", replicaSetId, this.replicaSets(service).find(byId(replicaSetId)));
  }

  /**
   * The records of a resource type that keeps them in a collection of its own (the four
   * original types have typed fields of {@link ModelState}); persisted with the rest.
   */
  collection<R extends object>(name: string): R[] {
    this.state[name] ??= [];
    return this.state[name] as R[];
  }

  /** Drops records whose deletion has finished (they are hidden already; this frees them). */
  purgeGone(): void {
    this.state.services = this.state.services.filter((s) => this.serviceStatus(s) !== GONE);
    this.state.replicaSets = this.state.replicaSets.filter((r) => this.replicaSetStatus(r) !== GONE);
  }

  /** Empties every record. */
  clear(): void {
    this.state = emptyState();
  }
}
