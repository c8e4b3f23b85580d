/**
 * The emulated API's domain model, usable without HTTP. Every method is synchronous,
 * validates fully before it changes anything, and throws {@link EmulatorApiError}s.
 */
import type { Clock, ReportedClock } from "./clock";
import { databaseWishes, type DatabaseHosting, type DatabaseWish } from "./databases";
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
  /** Real databases behind new services (`--postgres`). @default none: endpoints are names only */
  databases?: DatabaseHosting;
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
    this.store = new ModelStore(options.state ?? emptyState(), options.clock, options.clockScale ?? 1, options.databases);
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
