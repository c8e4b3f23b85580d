/**
 * The emulated API's domain model, usable without HTTP. Every method is synchronous,
 * validates fully before it changes anything, and throws {@link EmulatorApiError}s.
 */
import type { Clock, ReportedClock } from "./clock";
import { Injections } from "./injections";
import { ModelStore } from "./model-store";
import { NetworkOperations } from "./network-operations";
import { emptyState, type ModelState } from "./records";
import { ReplicaSetOperations } from "./replica-set-operations";
import { ServiceOperations } from "./service-operations";

/** Options of {@link ClouddbModel}. */
export interface ClouddbModelOptions {
  /** Time source for every transition. */
  clock: Clock;
  /** Factor applied to nominal durations. @default 1 */
  clockScale?: number;
  /** State to start from (e.g. loaded from disk). @default empty */
  state?: ModelState;
}

/** VPCs, peerings, services and replica sets of every project, plus injected failures. */
export class ClouddbModel {
  private readonly store: ModelStore;
  /** VPC and peering operations. */
  readonly network: NetworkOperations;
  /** Service operations. */
  readonly services: ServiceOperations;
  /** Read replica set operations. */
  readonly replicaSets: ReplicaSetOperations;
  /** Failures injected by the control path. */
  readonly injections: Injections;

  /** @param options - clock, clock scale and initial state. */
  constructor(options: ClouddbModelOptions) {
    this.store = new ModelStore(options.state ?? emptyState(), options.clock, options.clockScale ?? 1);
    this.network = new NetworkOperations(this.store);
    this.services = new ServiceOperations(this.store);
    this.replicaSets = new ReplicaSetOperations(this.store);
    this.injections = new Injections(this.store);
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

  /** Removes every resource. */
  reset(): void {
    this.store.clear();
  }
}
