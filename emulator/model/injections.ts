/** State the emulator's control path injects: unstable services, failed replica sets and peerings. */
import { PEERING_STATUS, REPLICA_SET_STATUS, SERVICE_STATUS } from "../../contract";
import { ConflictError, NotFoundError } from "./errors";
import type { ModelStore } from "./model-store";
import { GONE, steady } from "./phase";

/** Default `error_message` of a peering failed through the control path. */
export const INJECTED_PEERING_ERROR = "The peer VPC could not be reached (injected failure)";

/** Failures injected into resources of any project, by id. */
export class Injections {
  /** @param store - the shared model state. */
  constructor(private readonly store: ModelStore) {}

  /** Puts a service into `UNSTABLE`. @throws NotFoundError; ConflictError while `DELETING` */
  makeServiceUnstable(serviceId: string): void {
    const service = this.store.state.services.find((s) => s.id === serviceId);
    const status = service ? this.store.serviceStatus(service) : GONE;
    if (!service || status === GONE) throw new NotFoundError("service", serviceId);
    if (status === SERVICE_STATUS.DELETING) throw new ConflictError("The service is being deleted", `service ${serviceId} is DELETING`);
    service.phase = steady(SERVICE_STATUS.UNSTABLE, this.store.now());
  }

  /**
   * Brings an `UNSTABLE` service back to `READY` (its settings unchanged), so a test can
   * show that the next `pulumi up` resumes it.
   * @throws NotFoundError; ConflictError unless the service is `UNSTABLE`
   */
  recoverService(serviceId: string): void {
    const service = this.store.state.services.find((s) => s.id === serviceId);
    const status = service ? this.store.serviceStatus(service) : GONE;
    if (!service || status === GONE) throw new NotFoundError("service", serviceId);
    if (status !== SERVICE_STATUS.UNSTABLE) {
      throw new ConflictError("Only an UNSTABLE service can be recovered", `service ${serviceId} is ${status}`);
    }
    service.phase = steady(SERVICE_STATUS.READY, this.store.now());
  }

  /** Puts a replica set into `error`. @throws NotFoundError; ConflictError while `deleting` */
  failReplicaSet(replicaSetId: string): void {
    const set = this.store.state.replicaSets.find((r) => r.id === replicaSetId);
    const status = set ? this.store.replicaSetStatus(set) : GONE;
    if (!set || status === GONE) throw new NotFoundError("replica set", replicaSetId);
    if (status === REPLICA_SET_STATUS.deleting)
      throw new ConflictError("The replica set is being deleted", `replica set ${replicaSetId} is deleting`);
    set.phase = steady(REPLICA_SET_STATUS.error, this.store.now());
  }

  /** Fails a peering: status `failed` with `error_message`. @throws NotFoundError */
  failPeering(peeringId: string, errorMessage: string = INJECTED_PEERING_ERROR): void {
    const peering = this.store.state.peerings.find((p) => p.id === peeringId);
    if (!peering) throw new NotFoundError("peering", peeringId);
    peering.phase = steady(PEERING_STATUS.failed, this.store.now());
    peering.errorMessage = errorMessage;
  }
}
