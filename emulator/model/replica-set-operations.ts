/**
 * Read replica set operations: create `creating` → `active`; resize `active` →
 * `resizing` → `active`; delete `deleting` → gone; pooler and environment at once in
 * `active`. While the parent service is `UNSTABLE` or `DELETING`, only delete is allowed.
 */
import { NOMINAL_MS } from "./catalog";
import { ConflictError } from "./errors";
import { newShortId } from "./ids";
import type { ModelStore } from "./model-store";
import { GONE } from "./phase";
import type { ReplicaSetRecord, ReplicaSetStatus, ServiceRecord } from "./records";
import { parseBody } from "./request-schemas";
import { requireServiceStatus } from "./service-operations";
import { replicaSetView, type MessageBody, type ReplicaSetBody } from "./views";

/** Service statuses in which a replica set cannot be changed, only deleted. */
const PARENT_BLOCKING: readonly string[] = ["UNSTABLE", "DELETING"];

/** Replica sets under a service. */
export class ReplicaSetOperations {
  /** @param store - the shared model state. */
  constructor(private readonly store: ModelStore) {}

  private requireStatus(service: ServiceRecord, set: ReplicaSetRecord, allowed: readonly ReplicaSetStatus[], action: string): void {
    const parent = this.store.serviceStatus(service);
    if (PARENT_BLOCKING.includes(parent)) {
      throw new ConflictError(`Cannot ${action} while the service is ${parent}`, `service ${service.id} is ${parent}`);
    }
    const status = this.store.replicaSetStatus(set);
    if (status === GONE || !allowed.includes(status)) {
      throw new ConflictError(
        `Cannot ${action} while the replica set is ${status}`,
        `replica set ${set.id} is ${status}; ${action} is allowed in ${allowed.join(", ")}`,
      );
    }
  }

  /** Replica sets of a service. @throws NotFoundError */
  list(projectId: string, serviceId: string): ReplicaSetBody[] {
    const service = this.store.service(projectId, serviceId);
    return this.store.replicaSets(service).map((set) => replicaSetView(this.store, set));
  }

  /** Creates a replica set (status `creating`) under a `READY` service. @throws NotFoundError, InvalidRequestError, ConflictError */
  create(projectId: string, serviceId: string, body: unknown): ReplicaSetBody {
    const service = this.store.service(projectId, serviceId);
    const input = parseBody("createReplicaSet", body);
    requireServiceStatus(this.store, service, ["READY"], "create a replica set");
    const set: ReplicaSetRecord = {
      id: this.uniqueId(),
      projectId,
      serviceId: service.id,
      name: input.name,
      nodes: input.nodes,
      cpuMillis: input.cpu_millis,
      memoryGbs: input.memory_gbs,
      environment: "DEV",
      poolerEnabled: false,
      createdAt: this.store.now(),
      phase: this.store.phase([["creating", NOMINAL_MS.replicaSet]], "active"),
    };
    this.store.state.replicaSets.push(set);
    return replicaSetView(this.store, set);
  }

  /** Starts deleting a replica set: `deleting`, then gone. @throws NotFoundError, ConflictError while `deleting` */
  delete(projectId: string, serviceId: string, replicaSetId: string): void {
    const service = this.store.service(projectId, serviceId);
    const set = this.store.replicaSet(service, replicaSetId);
    if (this.store.replicaSetStatus(set) === "deleting") {
      throw new ConflictError("The replica set is already being deleted", `replica set ${set.id} is deleting`);
    }
    set.phase = this.store.phase([["deleting", NOMINAL_MS.replicaSet]], GONE);
  }

  /** Resizes an `active` replica set (`resizing`, then `active`). @throws NotFoundError, InvalidRequestError, ConflictError */
  resize(projectId: string, serviceId: string, replicaSetId: string, body: unknown): MessageBody {
    const service = this.store.service(projectId, serviceId);
    const set = this.store.replicaSet(service, replicaSetId);
    const input = parseBody("resizeReplicaSet", body);
    this.requireStatus(service, set, ["active"], "resize");
    set.cpuMillis = Number(input.cpu_millis);
    set.memoryGbs = Number(input.memory_gbs);
    if (input.nodes !== undefined) set.nodes = input.nodes;
    set.phase = this.store.phase([["resizing", NOMINAL_MS.replicaSet]], "active");
    return { message: `Resizing replica set ${set.id}` };
  }

  /** Turns the pooler of an `active` replica set on or off (idempotent). @throws NotFoundError, ConflictError */
  setPooler(projectId: string, serviceId: string, replicaSetId: string, enabled: boolean): MessageBody {
    const service = this.store.service(projectId, serviceId);
    const set = this.store.replicaSet(service, replicaSetId);
    this.requireStatus(service, set, ["active"], enabled ? "enable the pooler" : "disable the pooler");
    set.poolerEnabled = enabled;
    return { message: `Connection pooler ${enabled ? "enabled" : "disabled"} for replica set ${set.id}` };
  }

  /** Sets the environment of an `active` replica set. @throws NotFoundError, InvalidRequestError, ConflictError */
  setEnvironment(projectId: string, serviceId: string, replicaSetId: string, body: unknown): MessageBody {
    const service = this.store.service(projectId, serviceId);
    const set = this.store.replicaSet(service, replicaSetId);
    const input = parseBody("setEnvironment", body);
    this.requireStatus(service, set, ["active"], "set the environment");
    set.environment = input.environment;
    return { message: `Environment of replica set ${set.id} set to ${input.environment}` };
  }

  private uniqueId(): string {
    for (;;) {
      const id = newShortId();
      if (!this.store.state.replicaSets.some((r) => r.id === id) && !this.store.state.services.some((s) => s.id === id)) return id;
    }
  }
}
