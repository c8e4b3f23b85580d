/**
 * The emulated API's domain model, usable without HTTP. Every method is synchronous,
 * validates fully before it changes anything, and throws {@link EmulatorApiError}s.
 */
import type { ParamsOf } from "../../contract";
import type { Clock, ReportedClock } from "./clock";
import { databaseWishes, type DatabaseHosting, type DatabaseWish } from "./databases";
import { Injections } from "./injections";
import { ModelStore } from "./model-store";
import { operationCall, type OperationHandler } from "./operation-handlers";
import { peeringOperations } from "./peering-operations";
import { emptyState, type ModelState } from "./records";
import { replicaSetOperations } from "./replica-set-operations";
import { serviceOperations } from "./service-operations";
import { vpcOperations } from "./vpc-operations";

/** The handlers of every resource's operations, over one store: the list a new resource type joins. */
function modelOperations(store: ModelStore) {
  return { ...vpcOperations(store), ...peeringOperations(store), ...serviceOperations(store), ...replicaSetOperations(store) };
}

/** The operations the model carries out, by name (all but `getAuthInfo`, which is the credentials'). */
export type ModelOperations = ReturnType<typeof modelOperations>;

/** Options of {@link ClouddbModel}. */
export interface ClouddbModelOptions {
  /** Time source for every transition. */
  clock: Clock;
  /** Factor applied to nominal durations. @default 1 */
  clockScale?: number;
  /** State to start from (e.g. loaded from disk). @default empty */
  state?: ModelState;
  /** Real databases behind new services (`--postgres`). @default none: endpoints are names only */
  databases?: DatabaseHosting;
}

/** VPCs, peerings, services and replica sets of every project, plus injected failures. */
export class ClouddbModel {
  private readonly store: ModelStore;
  /** The handlers of the API's operations, by operation name. */
  readonly operations: ModelOperations;
  /** Failures injected by the control path. */
  readonly injections: Injections;

  /** @param options - clock, clock scale and initial state. */
  constructor(options: ClouddbModelOptions) {
    this.store = new ModelStore(options.state ?? emptyState(), options.clock, options.clockScale ?? 1, options.databases);
    this.operations = modelOperations(this.store);
    this.injections = new Injections(this.store);
  }

  /**
   * Carries out an operation of the API description without HTTP: `body` is validated
   * with the operation's request schema, as the server does.
   * @returns the answer's body (undefined for operations that answer none).
   * @throws EmulatorApiError as the server would answer it (NotFoundError, ConflictError, InvalidRequestError).
   */
  perform<O extends keyof ModelOperations>(operation: O, params: ParamsOf<O>, body?: unknown): ReturnType<ModelOperations[O]> {
    const handler = this.operations[operation] as OperationHandler<O>;
    return handler(operationCall(operation, params, () => body)) as ReturnType<ModelOperations[O]>;
  }

  /** The clock the server reports in `created` and `Date`; its offset is control state. */
  get reportedClock(): ReportedClock {
    return this.store.reported;
  }

  /** A deep copy of the current records, with finished deletions dropped, for persistence. */
  snapshot(): ModelState {
    this.store.purgeGone();
    return structuredClone(this.store.state);
  }

  /** What every service with a real database asks of it now (deleted services included until purged). */
  databaseWishes(): DatabaseWish[] {
    return databaseWishes(this.store.state.services, this.store.now());
  }

  /**
   * Moves a service's database to another endpoint (its port was taken when the server
   * had to start). @returns false when the service has no database record.
   */
  relocateDatabase(serviceId: string, endpoint: { host: string; port: number }): boolean {
    const service = this.store.state.services.find((s) => s.id === serviceId);
    if (service?.database === undefined) return false;
    service.database = { ...endpoint };
    return true;
  }

  /** Removes every resource. */
  reset(): void {
    this.store.clear();
  }
}
