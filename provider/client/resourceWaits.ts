/**
 * The waits of one client: which shared request observes each resource, how it is found
 * in the answer, and how it is read alone. Services and replica sets are observed in their
 * project's service list (which shows each service's replica sets), peerings in their VPC's
 * peering list; pollHub.ts shares each list among all the waits it serves, and when the
 * list costs more than the waits' own reads (few waits on a long list) each wait reads its
 * own resource: a service or a peering by its GET, a replica set by its service's GET (and,
 * when the service does not show it, the service's replica set list).
 *
 * Absence is confirmed before a wait that needs the resource fails: a service missing from
 * the list by its own GET, a peering by its own GET, a replica set missing from its
 * service by the service's replica set list (which also serves an API that does not embed
 * them). Each confirmation is one request, made only then.
 */
import { NotFoundError } from "./errors";
import { lookUpById } from "./listIndex";
import type { ListReading } from "./listReading";
import type { Pacer } from "./shaping/pacer";
import type { Operation, ParamsOf, Peering, ReadReplicaSet, Service, WatchedKind } from "../../contract";
import { statusesIn } from "../../contract/statuses";
import type { Operations, ReplyOf } from "./operations";
import { boundedByScope } from "./deadline";
import { type Fetched, PollHub, type Source } from "./pollHub";
import { LIST_COST, type SharedLists } from "./shaping/sharedLists";
import { sleep } from "./timers";
import type { ProjectOptions } from "./callArgs";
import type { TransitionDurations } from "./transitionDurations";
import type { WatchedBodies } from "./waitErrors";
import type { Observation, WaitGoal } from "./waiters";

/** Options shared by the waiters. */
export interface WaitOptions extends ProjectOptions {
  /** Total time to wait, in ms. */
  timeoutMs: number;
  /** Overrides the client's polling for this wait. */
  poll?: { initialMs?: number; maxMs?: number };
  /**
   * When the awaited state is likely, in ms from now: the schedule polls densely around it
   * (see pollSchedule.ts). @default what this client measured for the same transition, if anything
   */
  expectedMs?: number;
}

/** Options of `ClouddbClient.waitForService`. */
export interface WaitForServiceOptions extends WaitOptions {
  /** States that end the wait, e.g. `["READY"]`. */
  until: Service["status"][];
}

/** Options of `ClouddbClient.waitForReplicaSet`. */
export interface WaitForReplicaSetOptions extends WaitOptions {
  /** States that end the wait. @default ["active"] */
  until?: NonNullable<ReadReplicaSet["status"]>[];
}

/** Options of `ClouddbClient.waitForPeering`. */
export interface WaitForPeeringOptions extends WaitOptions {
  /** States that end the wait. @default ["active"] */
  until?: NonNullable<Peering["status"]>[];
}

const present = <T>(value: T): Observation<T> => ({ present: true, value });

/** An answer read for the machine longer ago than this is not shown to a poll. */
const SHARED_ANSWER_MAX_AGE_MS = 60_000;

/** Items in a list answer, those it could not read included: what the answer costs. */
const listSize = (reading: ListReading<unknown>): number => reading.items.length + reading.rejected.length;

/** The key of the source that a project's service list is (pollHub.ts), the one place it is spelled. */
const servicesKey = (project: unknown): string => `services ${String(project)}`;

/** The key of the source that a VPC's peering list is. */
const peeringsKey = (project: unknown, vpc: unknown): string => `peerings ${String(project)} ${String(vpc)}`;

/** What one wait watches, and for what. */
interface Watch<K extends WatchedKind> {
  readonly kind: K;
  /** The resource's id (for nested resources, `<parent id>/<id>`). */
  readonly id: string;
  /** The waiting method, for messages and requests. */
  readonly operation: string;
  readonly goal: WaitGoal;
}

/**
 * The resource a wait for a status found.
 *
 * @throws NotFoundError when it was absent
 */
function found<T>(resource: T | undefined, what: string, operation: string): T {
  if (resource !== undefined) return resource;
  throw new NotFoundError({ status: 404, code: "NOT_FOUND", apiMessage: `${what} not found`, operation });
}
const absent = { present: false } as const;

/** Reads once, turning a 404 into "absent". */
async function observe<T>(read: () => Promise<T>): Promise<Observation<T>> {
  try {
    return present(await read());
  } catch (err) {
    if (NotFoundError.isInstance(err)) return absent;
    throw err;
  }
}

/** The waits of one client (see the module comment). */
export class ResourceWaits {
  private readonly ops: Operations;
  private readonly hub: PollHub;

  /** Waits under way on each source, by its key: what this client tells the machine (sharedLists.ts). */
  private readonly waiting = new Map<string, number>();
  /** The newest answer read for the machine that this client used, by source key (when its request was sent). */
  private readonly usedShared = new Map<string, number>();

  /**
   * @param ops - the client's operation runner.
   * @param durations - transitions' durations, shared with the poll hub.
   * @param pacer - the client's pacer: once the API limits the rate, waits share lists rather than make requests of their own.
   * @param lists - lists read once for the machine's clients of the key, while it is limited.
   */
  constructor(
    ops: Operations,
    durations: TransitionDurations,
    private readonly pacer?: Pick<Pacer, "price" | "queuedWrites">,
    private readonly lists?: SharedLists,
  ) {
    this.ops = ops;
    const writing = (): boolean => (pacer?.queuedWrites ?? 0) > 0;
    this.hub = new PollHub(durations, () => pacer?.price ?? "free", lists && ((key) => lists.machineWaits(key)), writing);
  }

  /** Ends every wait under way, and any started later, with a WaitCancelledError naming `why` (the client is stopping). */
  close(why?: Error): void {
    this.hub.close(why);
  }

  /**
   * Tells the waits what a list answer read for another purpose showed of a source they poll
   * (a project's services, a VPC's peerings): its length, so that no wait reads a long list
   * again only to learn it (one read of a project's 2,000 services is enough).
   */
  sawList(operation: Operation, params: Readonly<Record<string, unknown>>, reading: ListReading<unknown>): void {
    const { project, vpc } = params;
    if (operation === "listServices") this.hub.learnLength(servicesKey(project), listSize(reading));
    if (operation === "listPeerings") this.hub.learnLength(peeringsKey(project, vpc), listSize(reading));
  }

  /** One poll: a single attempt at the lowest priority, named after the waiting method. */
  private poll<O extends Operation>(operation: O, params: ParamsOf<O>, caller: string): Promise<ReplyOf<O>> {
    return this.ops.call(operation, params, undefined, { caller, deadline: Date.now(), priority: "poll" });
  }

  /** One poll, and when its request was sent. */
  private async fetched<O extends Operation>(operation: O, params: ParamsOf<O>, caller: string): Promise<Fetched<ReplyOf<O>>> {
    const sent = { at: Date.now() };
    return { answer: await this.sent(operation, params, caller, sent), sentAt: sent.at };
  }

  /** One poll of a single resource, a 404 read as its absence, and when its request was sent. */
  private async ownRead<O extends "getService" | "getPeering">(
    operation: O,
    params: ParamsOf<O>,
    caller: string,
  ): Promise<Fetched<Observation<ReplyOf<O>>>> {
    const sent = { at: Date.now() };
    return { answer: await observe(() => this.sent(operation, params, caller, sent)), sentAt: sent.at };
  }

  /** One poll, telling `sent` when its request left. */
  private sent<O extends Operation>(operation: O, params: ParamsOf<O>, caller: string, sent: { at: number }): Promise<ReplyOf<O>> {
    return this.ops.call(operation, params, undefined, {
      caller,
      deadline: Date.now(),
      priority: "poll",
      onAttempt: (a) => (sent.at = a.trace.sentAt ?? sent.at),
    });
  }

  private services(project: string): Source<ListReading<Service>> {
    const key = servicesKey(project);
    return { key, fetch: (caller) => this.machineList(key, project, caller), size: listSize };
  }

  /**
   * One poll of a project's service list: while the API limits the key and its clients on this
   * machine share what they read (sharedLists.ts), the answer read for the machine since this
   * client's last, or this client's own read for the machine when it is its turn; otherwise, or
   * after waiting longer than a read for the machine can take, its own request.
   */
  private async machineList(key: string, project: string, caller: string): Promise<Fetched<ListReading<Service>>> {
    const { lists, pacer } = this;
    const plain = (): Promise<Fetched<ListReading<Service>>> => this.fetched("listServices", { project }, caller);
    if (lists === undefined || pacer === undefined || pacer.price === "free") return plain();
    let since = Date.now();
    let after = Math.max(this.usedShared.get(key) ?? 0, since - SHARED_ANSWER_MAX_AGE_MS);
    for (;;) {
      const shared = await lists.newer(key, after);
      if (shared !== undefined) {
        after = shared.sentAt;
        this.usedShared.set(key, shared.sentAt);
        try {
          return { answer: this.ops.answerOf("listServices", shared.body, shared.sentAt, caller, project), sentAt: shared.sentAt };
        } catch {
          continue; // not readable as a list: as if there were none
        }
      }
      // A client whose writes wait for their turns does not read for the machine (its read would wait behind them), nor gives up on it.
      if (pacer.queuedWrites > 0) since = Date.now();
      else if (Date.now() - since > LIST_COST.writingGapMs + LIST_COST.holdMs) return plain();
      const turn = pacer.queuedWrites > 0 ? Date.now() + 250 : await lists.take(key);
      if (turn === undefined) return plain();
      if (turn === true) {
        let body: unknown = undefined;
        const sent = { at: Date.now() };
        try {
          const answer = await this.ops.call("listServices", { project }, undefined, {
            caller,
            deadline: Date.now(),
            priority: "poll",
            onAttempt: (a) => {
              sent.at = a.trace.sentAt ?? sent.at;
              body = a.body;
            },
          });
          await lists.done(key, { sentAt: sent.at, body });
          this.usedShared.set(key, sent.at);
          return { answer, sentAt: sent.at };
        } catch (e) {
          await lists.done(key, undefined);
          throw e;
        }
      }
      await sleep(Math.max(20, Math.min(turn - Date.now(), 250)), this.ops.stopped);
    }
  }

  private run<K extends WatchedKind, A>(
    { kind, id, operation, goal }: Watch<K>,
    opts: WaitOptions,
    source: (project: string) => Source<A>,
    locate: (project: string, answer: A) => Observation<WatchedBodies[K]> | Promise<Observation<WatchedBodies[K]>>,
    own: (project: string, caller: string) => Promise<Fetched<Observation<WatchedBodies[K]>>>,
  ): Promise<WatchedBodies[K] | undefined> {
    const project = this.ops.project(opts);
    const initialMs = opts.poll?.initialMs ?? this.ops.config.poll.initialMs;
    const maxMs = Math.max(initialMs, opts.poll?.maxMs ?? this.ops.config.poll.maxMs);
    const on = source(project);
    this.count(on.key, 1);
    return this.hub
      .watch<K, A>({
        resource: { kind, id, projectId: project },
        operation,
        goal,
        // No wait outlives the operation it serves (deadline.ts).
        timeoutMs: Math.max(0, Math.min(opts.timeoutMs, boundedByScope(Infinity) - Date.now())),
        schedule: opts.expectedMs === undefined ? { initialMs, maxMs } : { initialMs, maxMs, expectedMs: opts.expectedMs },
        source: on,
        locate: (answer) => locate(project, answer),
        own: (caller) => own(project, caller),
      })
      .finally(() => this.count(on.key, -1));
  }

  /** One more (or one fewer) wait on the source `key`, told to the machine. */
  private count(key: string, by: 1 | -1): void {
    const n = (this.waiting.get(key) ?? 0) + by;
    if (n > 0) this.waiting.set(key, n);
    else this.waiting.delete(key);
    this.lists?.setWaits(this.waiting);
  }

  /**
   * The service as a list answer shows it (absent when it does not).
   * @throws the validation error of an item of that id the list shows unreadable
   */
  private listed(reading: ListReading<Service>, id: string): Observation<Service> {
    const hit = lookUpById(reading, "service_id", id);
    if ("rejected" in hit) throw hit.rejected;
    return "found" in hit ? present(hit.found) : absent;
  }

  /** The service in a list answer, at once; absence confirmed by its GET when `confirm` (a promise then). */
  private serviceIn(
    project: string,
    reading: ListReading<Service>,
    id: string,
    confirm: boolean,
    caller: string,
  ): Observation<Service> | Promise<Observation<Service>> {
    const seen = this.listed(reading, id);
    return seen.present || !confirm ? seen : observe(() => this.poll("getService", { project, service: id }, caller));
  }

  /** The service until `goal`; a wait for a status confirms its absence by its GET. */
  private serviceWait(serviceId: string, goal: WaitGoal, opts: WaitOptions, operation: string) {
    const confirm = !("deleted" in goal);
    return this.run(
      { kind: "service", id: serviceId, operation, goal },
      opts,
      (p) => this.services(p),
      (p, a) => this.serviceIn(p, a, serviceId, confirm, operation),
      (p, caller) => this.ownRead("getService", { project: p, service: serviceId }, caller),
    );
  }

  /** The service until its status is one of `opts.until`; see `ClouddbClient.waitForService`. */
  async service(serviceId: string, opts: WaitForServiceOptions): Promise<Service> {
    return found(
      await this.serviceWait(serviceId, { status: opts.until }, opts, "waitForService"),
      `Service ${serviceId}`,
      "waitForService",
    );
  }

  /** The service until it is gone; see `ClouddbClient.waitForServiceDeleted`. */
  async serviceDeleted(serviceId: string, opts: WaitOptions): Promise<void> {
    await this.serviceWait(serviceId, { deleted: true }, opts, "waitForServiceDeleted");
  }

  /** The replica set in a service list answer; when the service does not show it, its own list decides (a promise then). */
  private replicaSetIn(project: string, reading: ListReading<Service>, serviceId: string, id: string, caller: string) {
    return this.replicaSetOf(project, this.listed(reading, serviceId), id, caller);
  }

  /** The replica set as its service shows it, at once; when it does not, its own list decides (a promise then). */
  private replicaSetOf(
    project: string,
    service: Observation<Service>,
    id: string,
    caller: string,
  ): Observation<ReadReplicaSet> | Promise<Observation<ReadReplicaSet>> {
    if (!service.present) return absent;
    const embedded = service.value.read_replica_sets?.find((r) => r.id === id);
    if (embedded !== undefined) return present(embedded);
    return observe(() => this.poll("listReplicaSets", { project, service: service.value.service_id }, caller)).then((sets) => {
      if (!sets.present) return absent;
      const hit = lookUpById(sets.value, "id", id);
      if ("rejected" in hit) throw hit.rejected;
      return "found" in hit ? present(hit.found) : absent;
    });
  }

  /** The replica set until `goal`. */
  private replicaSetWait(serviceId: string, replicaSetId: string, goal: WaitGoal, opts: WaitOptions, operation: string) {
    return this.run(
      { kind: "replica set", id: `${serviceId}/${replicaSetId}`, operation, goal },
      opts,
      (p) => this.services(p),
      (p, a) => this.replicaSetIn(p, a, serviceId, replicaSetId, operation),
      async (p, caller) => {
        const service = await this.ownRead("getService", { project: p, service: serviceId }, caller);
        return { answer: await this.replicaSetOf(p, service.answer, replicaSetId, caller), sentAt: service.sentAt };
      },
    );
  }

  /** The replica set until its status is one of `opts.until`; see `ClouddbClient.waitForReplicaSet`. */
  async replicaSet(serviceId: string, replicaSetId: string, opts: WaitForReplicaSetOptions): Promise<ReadReplicaSet> {
    const set = await this.replicaSetWait(
      serviceId,
      replicaSetId,
      { status: opts.until ?? statusesIn("replica set", "ready") },
      opts,
      "waitForReplicaSet",
    );
    return found(set, `Replica set ${serviceId}/${replicaSetId}`, "waitForReplicaSet");
  }

  /** The replica set until it is gone; see `ClouddbClient.waitForReplicaSetDeleted`. */
  async replicaSetDeleted(serviceId: string, replicaSetId: string, opts: WaitOptions): Promise<void> {
    await this.replicaSetWait(serviceId, replicaSetId, { deleted: true }, opts, "waitForReplicaSetDeleted");
  }

  /** The peering until its status is one of `opts.until`; see `ClouddbClient.waitForPeering`. */
  async peering(vpcId: string, peeringId: string, opts: WaitForPeeringOptions): Promise<Peering> {
    const caller = "waitForPeering";
    const source = (project: string): Source<ListReading<Peering>> => ({
      key: peeringsKey(project, vpcId),
      fetch: (c) => this.fetched("listPeerings", { project, vpc: vpcId }, c),
      size: listSize,
    });
    const peering = await this.run(
      { kind: "peering", id: `${vpcId}/${peeringId}`, operation: caller, goal: { status: opts.until ?? statusesIn("peering", "ready") } },
      opts,
      source,
      (project, reading) => {
        const hit = lookUpById(reading, "id", peeringId);
        if ("found" in hit) return present(hit.found);
        if ("rejected" in hit) throw hit.rejected;
        return observe(() => this.poll("getPeering", { project, vpc: vpcId, peering: peeringId }, caller));
      },
      (project, c) => this.ownRead("getPeering", { project, vpc: vpcId, peering: peeringId }, c),
    );
    return found(peering, `Peering ${peeringId}`, caller);
  }
}
