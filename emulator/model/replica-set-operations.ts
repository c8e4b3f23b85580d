/**
 * The read replica set operations of the API description
 * (contract/api/replicaSet.ts): create `creating` → `active`; resize `active` →
 * `resizing` → `active`; delete `deleting` → gone; pooler and environment at once in
 * `active`. While the parent service is `UNSTABLE` or `DELETING`, only delete is allowed.
 */
import { hasStatusClass, REPLICA_SET_STATUS, SERVICE_STATUS } from "../../contract";
import { NOMINAL_MS } from "./catalog";
import { ConflictError } from "./errors";
import { newShortId } from "./ids";
import type { ModelStore } from "./model-store";
import type { OperationHandlers } from "./operation-handlers";
import { GONE } from "./phase";
import type { ReplicaSetRecord, ReplicaSetStatus } from "./records";
import { requireServiceStatus } from "./service-operations";
import { replicaSetView, type MessageBody } from "./views";

/** Whether a service in `status` allows its replica sets nothing but delete: it failed (`UNSTABLE`) or is being deleted. */
const blocksItsSets = (status: unknown): boolean => hasStatusClass("service", status, "failed", "ending");

/** The path parameters naming one replica set. */
interface SetParams {
  readonly project: string;
  readonly service: string;
  readonly replicaSet: string;
}

/** The handlers of the replica set operations, over `store`. */
export function replicaSetOperations(store: ModelStore) {
  /** The set `params` name. @throws NotFoundError */
  const setOf = (params: SetParams): ReplicaSetRecord => store.replicaSet(store.service(params.project, params.service), params.replicaSet);

  /** @throws ConflictError while the parent service blocks changes, or unless the set is in one of `allowed`. */
  const requireStatus = (set: ReplicaSetRecord, allowed: readonly ReplicaSetStatus[], action: string): void => {
    const parent = store.serviceStatus(store.service(set.projectId, set.serviceId));
    if (blocksItsSets(parent)) {
      throw new ConflictError(`Cannot ${action} while the service is ${parent}`, `service ${set.serviceId} is ${parent}`);
    }
    const status = store.replicaSetStatus(set);
    if (status === GONE || !allowed.includes(status)) {
      throw new ConflictError(
        `Cannot ${action} while the replica set is ${status}`,
        `replica set ${set.id} is ${status}; ${action} is allowed in ${allowed.join(", ")}`,
      );
    }
  };

  /** Sets the pooler of an `active` replica set (idempotent). @throws NotFoundError, ConflictError */
  const setPooler = (params: SetParams, enabled: boolean): MessageBody => {
    const set = setOf(params);
    requireStatus(set, [REPLICA_SET_STATUS.active], enabled ? "enable the pooler" : "disable the pooler");
    set.poolerEnabled = enabled;
    return { message: `Connection pooler ${enabled ? "enabled" : "disabled"} for replica set ${set.id}` };
  };

  const uniqueId = (): string => {
    for (;;) {
      const id = newShortId();
      if (!store.state.replicaSets.some((r) => r.id === id) && !store.state.services.some((s) => s.id === id)) return id;
    }
  };

  return {
    /** Replica sets of a service. @throws NotFoundError */
    listReplicaSets: ({ params }) =>
      store.replicaSets(store.service(params.project, params.service)).map((set) => replicaSetView(store, set)),

    /** Creates a replica set (status `creating`) under a `READY` service. @throws NotFoundError, InvalidRequestError, ConflictError */
    createReplicaSet: ({ params, body }) => {
      const service = store.service(params.project, params.service);
      const input = body();
      requireServiceStatus(store, service, [SERVICE_STATUS.READY], "create a replica set");
      const set: ReplicaSetRecord = {
        id: uniqueId(),
        projectId: params.project,
        serviceId: service.id,
        name: input.name,
        nodes: input.nodes,
        cpuMillis: input.cpu_millis,
        memoryGbs: input.memory_gbs,
        environment: "DEV",
        poolerEnabled: false,
        createdAt: store.now(),
        phase: store.phase([[REPLICA_SET_STATUS.creating, NOMINAL_MS.replicaSet]], REPLICA_SET_STATUS.active),
      };
      store.state.replicaSets.push(set);
      return replicaSetView(store, set);
    },

    /** Starts deleting a replica set: `deleting`, then gone. @throws NotFoundError, ConflictError while `deleting` */
    deleteReplicaSet: ({ params }) => {
      const set = setOf(params);
      if (store.replicaSetStatus(set) === REPLICA_SET_STATUS.deleting) {
        throw new ConflictError("The replica set is already being deleted", `replica set ${set.id} is deleting`);
      }
      set.phase = store.phase([[REPLICA_SET_STATUS.deleting, NOMINAL_MS.replicaSet]], GONE);
    },

    /** Resizes an `active` replica set (`resizing`, then `active`). @throws NotFoundError, InvalidRequestError, ConflictError */
    resizeReplicaSet: ({ params, body }): MessageBody => {
      const set = setOf(params);
      const input = body();
      requireStatus(set, [REPLICA_SET_STATUS.active], "resize");
      set.cpuMillis = Number(input.cpu_millis);
      set.memoryGbs = Number(input.memory_gbs);
      if (input.nodes !== undefined) set.nodes = input.nodes;
      set.phase = store.phase([[REPLICA_SET_STATUS.resizing, NOMINAL_MS.replicaSet]], REPLICA_SET_STATUS.active);
      return { message: `Resizing replica set ${set.id}` };
    },

    /** Turns the pooler of an `active` replica set on. @throws NotFoundError, ConflictError */
    enableReplicaSetPooler: ({ params }) => setPooler(params, true),

    /** Turns the pooler of an `active` replica set off. @throws NotFoundError, ConflictError */
    disableReplicaSetPooler: ({ params }) => setPooler(params, false),

    /** Sets the environment of an `active` replica set. @throws NotFoundError, InvalidRequestError, ConflictError */
    setReplicaSetEnvironment: ({ params, body }): MessageBody => {
      const set = setOf(params);
      const input = body();
      requireStatus(set, [REPLICA_SET_STATUS.active], "set the environment");
      set.environment = input.environment;
      return { message: `Environment of replica set ${set.id} set to ${input.environment}` };
    },
  } satisfies OperationHandlers;
}
