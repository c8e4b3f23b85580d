/**
 * Shared waiting: all waits of one client that one request can serve share its polls. A
 * source is such a request (the service list of a project serves every service and
 * replica set waited for in it; the peering list of a VPC every peering); each answer is
 * delivered to every wait on the source, so N waits cost about the polls of one.
 *
 * Each tick chooses its reads by cost (readCost.ts `listPays`): the source's list when it
 * costs less than a read of each waited-for resource alone, else each due wait reads its own.
 *
 * Each wait keeps its own poll schedule (pollSchedule.ts); a source polls when its
 * earliest wait is due, one request (or one round of reads of single resources) at a time,
 * as low-priority single attempts through the client's pacer (a failed poll is retried by
 * the next one). An answer to a request sent before a wait began is not shown to that
 * wait. A wait ends on its own verdict (waiters.ts), or with `TimeoutError` when its time
 * is up. The work of a tick is linear in its waits and in the list's length, never their
 * product: a wait's resource is found in the answer by an index (listIndex.ts), and
 * starting or ending a wait looks at no other wait.
 *
 * When a wait ends as awaited, the hub records how long the transition took
 * (transitionDurations.ts), so that later waits on the same transition poll where
 * readiness is likely.
 */
import { CancelledError, NotFoundError } from "./errors";
import type { Source, WatchSpec } from "./pollSources";
import { listPays, POLL_COST } from "./readCost";
import type { RequestPrice } from "./shaping/pacerTypes";
import { pollDelayMs, type PollScheduleOptions } from "./pollSchedule";
import type { WatchedKind } from "../../contract";
import { type TransitionDurations, transitionKey } from "./transitionDurations";
import { ResourceFailedError, TimeoutError, WaitCancelledError, type WatchedBodies } from "./waitErrors";
import { type LongTimer, setLongTimeout } from "./timers";
import { outsideDeadline } from "./deadline";
import { type Observation, awaitedOf, isTransient, judge } from "./waiters";

export type { Fetched, Source, WatchSpec } from "./pollSources";

interface Wait<K extends WatchedKind, A> {
  spec: WatchSpec<K, A>;
  startedAt: number;
  nextDueAt: number;
  /** Its schedule, with the expected time once known. */
  schedule: PollScheduleOptions;
  firstStatus: string | undefined;
  pendingSentAt: number | undefined;
  lastSeen: WatchedBodies[K] | undefined;
  lastError: unknown;
  settled: boolean;
  timer: LongTimer;
  resolve: (value: WatchedBodies[K] | undefined) => void;
  reject: (err: unknown) => void;
}

interface SourceState<A> {
  source: Source<A>;
  waits: Set<Wait<WatchedKind, A>>;
  inFlight: boolean;
  timer: LongTimer | undefined;
  timerAt: number;
  /** True when a wait ended outside a tick: the timer may be set for a wait that is gone. */
  early: boolean;
}

/** What one poll gave a wait: its source's answer, its own resource, or the error. */
type Polled<A, T> =
  | { kind: "answer"; answer: A; sentAt: number }
  | { kind: "own"; observation: Observation<T>; sentAt: number }
  | { kind: "thrown"; error: unknown };

/** The shared waiting of one client (see the module comment). */
export class PollHub {
  private readonly sources = new Map<string, SourceState<unknown>>();
  /** Items in the last answer of each source (by key), and when it was learned, kept when its waits are over: what its list costs. */
  private readonly listItems = new Map<string, { readonly items: number; readonly at: number }>();
  private closed = false;
  /** What stopped the waits, once closed (a clause), when it was said. */
  private why: string | undefined;

  /**
   * @param durations - where transitions' durations are recorded and looked up.
   * @param price - what a request costs the client now (its pacer's {@link RequestPrice}).
   * @param machineWaits - the waits on a source of every client of the key on this machine
   *   (sharedLists.ts): while limited, what a list is worth when it is read once for them all.
   * @param writesQueued - whether the client's writes wait for their turns now: while limited, a
   *   poll decided then is sent after them, to a list that others' writes and these have grown.
   */
  constructor(
    private readonly durations: TransitionDurations,
    private readonly price: () => RequestPrice = () => "free",
    private readonly machineWaits?: (key: string) => number,
    private readonly writesQueued: () => boolean = () => false,
  ) {}

  /** Waits in progress (for tests and diagnostics). */
  get waiting(): number {
    let n = 0;
    for (const s of this.sources.values()) n += s.waits.size;
    return n;
  }

  /**
   * Waits until the spec's goal is met.
   *
   * @returns the resource in an awaited state, or undefined for a deletion.
   * @throws ResourceFailedError when it reaches a failure status not awaited, or is absent
   * while it must exist (with the last body seen); TimeoutError when `timeoutMs` passes
   * first (with the last status seen and the last transient polling error); a
   * non-transient polling error (401, 403) at once.
   */
  watch<K extends WatchedKind, A>(spec: WatchSpec<K, A>): Promise<WatchedBodies[K] | undefined> {
    return new Promise((resolve, reject) => {
      const startedAt = Date.now();
      const wait: Wait<K, A> = {
        spec,
        startedAt,
        nextDueAt: startedAt + Math.min(spec.schedule.initialMs, spec.timeoutMs),
        schedule: { ...spec.schedule },
        firstStatus: undefined,
        pendingSentAt: undefined,
        lastSeen: undefined,
        lastError: undefined,
        settled: false,
        timer: setLongTimeout(() => this.timeOut(wait), spec.timeoutMs),
        resolve,
        reject,
      };
      if (this.closed) {
        this.cancel(wait);
        return;
      }
      const state = this.sourceFor(spec.source);
      state.waits.add(wait as unknown as Wait<WatchedKind, A>);
      if (!state.inFlight) this.armAt(state, wait.nextDueAt);
    });
  }

  private sourceFor<A>(source: Source<A>): SourceState<A> {
    const found = this.sources.get(source.key) as SourceState<A> | undefined;
    if (found !== undefined) return found;
    const state: SourceState<A> = { source, waits: new Set(), inFlight: false, timer: undefined, timerAt: Infinity, early: false };
    this.sources.set(source.key, state as SourceState<unknown>);
    return state;
  }

  /** Arms the source's timer for its earliest wait (or drops the source when no wait is left). */
  private arm<A>(state: SourceState<A>): void {
    if (state.waits.size === 0) {
      state.timer?.cancel();
      // Only this state: while its last poll was delivered, its waits may have ended and a
      // new wait on the same source made a new state, which keeps polling for that wait.
      // (Deleting that one orphaned it: never cancelled by `close`, and polling without
      // pause for a wait that ended, since `finish` finds a wait's state in the map.)
      if (this.sources.get(state.source.key) === state) this.sources.delete(state.source.key);
      return;
    }
    if (state.inFlight) return;
    let due = Infinity;
    for (const w of state.waits) due = Math.min(due, w.nextDueAt);
    // A timer set sooner stays, and the tick it calls looks again.
    state.early = state.timer !== undefined && state.timerAt < due;
    this.armAt(state, due);
  }

  /** Makes the source's timer fire by `due` (a timer set for sooner stays: a tick finds nothing due and arms again). */
  private armAt<A>(state: SourceState<A>, due: number): void {
    if (state.timer !== undefined && state.timerAt <= due) return;
    state.timer?.cancel();
    state.timerAt = due;
    state.timer = setLongTimeout(
      () => {
        state.timer = undefined;
        state.timerAt = Infinity;
        void outsideDeadline(() => this.tick(state)); // it serves waits of several operations: no one's deadline cuts it short
      },
      Math.max(0, due - Date.now()),
    );
  }

  /**
   * Learns the length of the list of source `key` from an answer of it read for another purpose
   * (a create's look-alikes, a lookup): a wait's first tick then knows what the list costs, and
   * does not read a long list only to learn its length.
   */
  learnLength(key: string, items: number): void {
    this.listItems.set(key, { items, at: Date.now() });
  }

  /**
   * The length of the list of source `key` as far as it is known for a poll decided now: once the
   * API limits the rate, unknown when learned more than `POLL_COST.limitedLengthFreshMs` ago
   * (readCost.ts), or while the client's writes wait for their turns (the poll's request waits
   * behind them: a list of 30 services when it was decided was 180 long when it was sent). On a
   * told fleet's grid, however learned: there it only bounds what a slot saved is worth.
   */
  private knownLength(key: string, price: RequestPrice, now: number): number | undefined {
    const known = this.listItems.get(key);
    if (known === undefined) return undefined;
    if (price === "limited" && (now - known.at > POLL_COST.limitedLengthFreshMs || this.writesQueued())) return undefined;
    return known.items;
  }

  private async tick<A>(state: SourceState<A>): Promise<void> {
    if (state.inFlight || state.waits.size === 0) return this.arm(state);
    const now = Date.now();
    if (state.early) {
      // A wait ended since the timer was set: is one due still?
      state.early = false;
      let due = Infinity;
      for (const w of state.waits) due = Math.min(due, w.nextDueAt);
      if (due > now) return this.armAt(state, due);
    }
    state.inFlight = true;
    const price = this.price();
    const waits = price === "free" ? state.waits.size : Math.max(state.waits.size, this.machineWaits?.(state.source.key) ?? 0);
    if (listPays(waits, this.knownLength(state.source.key, price, now), price)) {
      await this.pollList(state);
    } else {
      const due = [...state.waits].filter((w) => w.nextDueAt <= now);
      await Promise.all(due.map(async (w) => this.deliver(w, await this.pollOwn(w))));
      state.inFlight = false;
      this.arm(state);
    }
  }

  /**
   * One request of the source's list, its answer given to every wait; then the timer, for
   * the earliest wait left. One pass over the waits: each delivery that needs no request is
   * synchronous, and tells when its wait polls next.
   */
  private async pollList<A>(state: SourceState<A>): Promise<void> {
    let polled: Polled<A, WatchedBodies[WatchedKind]>;
    const [first] = state.waits;
    try {
      const { answer, sentAt } = await state.source.fetch(first.spec.operation);
      // Learned when its request was sent (an answer read for the machine may be older than this poll).
      this.listItems.set(state.source.key, { items: state.source.size(answer), at: sentAt });
      polled = { kind: "answer", answer, sentAt };
    } catch (error) {
      polled = { kind: "thrown", error };
    }
    state.inFlight = false;
    let due = Infinity;
    const pending: Wait<WatchedKind, A>[] = [];
    const delivered: Promise<void>[] = [];
    for (const w of state.waits) {
      const delivery = this.deliver(w, polled);
      if (delivery !== undefined) {
        pending.push(w);
        delivered.push(delivery);
      } else if (!w.settled) {
        due = Math.min(due, w.nextDueAt);
      }
    }
    // `due` is exact for the waits left now; one that ends while the others' requests run sets `early` again.
    state.early = false;
    await Promise.all(delivered);
    for (const w of pending) if (!w.settled) due = Math.min(due, w.nextDueAt);
    if (state.waits.size === 0) return this.arm(state);
    // Waits that began meanwhile armed the timer for themselves.
    this.armAt(state, due);
  }

  /** A wait's poll of its own resource. Never rejects. */
  private async pollOwn<K extends WatchedKind, A>(wait: Wait<K, A>): Promise<Polled<A, WatchedBodies[K]>> {
    try {
      const { answer, sentAt } = await wait.spec.own(wait.spec.operation);
      return { kind: "own", observation: answer, sentAt };
    } catch (error) {
      return { kind: "thrown", error };
    }
  }

  /** Gives a wait what a poll saw; a promise only when finding its resource needs a request. */
  private deliver<K extends WatchedKind, A>(wait: Wait<K, A>, polled: Polled<A, WatchedBodies[K]>): Promise<void> | undefined {
    if (wait.settled) return undefined;
    if (polled.kind === "thrown") return this.pollFailed(wait, polled.error);
    if (polled.sentAt < wait.startedAt) return undefined;
    if (polled.kind === "own") return this.observed(wait, polled.observation, polled.sentAt);
    let found: Observation<WatchedBodies[K]> | Promise<Observation<WatchedBodies[K]>>;
    try {
      found = wait.spec.locate(polled.answer);
    } catch (err) {
      return this.pollFailed(wait, err);
    }
    if (!(found instanceof Promise)) return this.observed(wait, found, polled.sentAt);
    return found.then(
      (obs) => this.observed(wait, obs, polled.sentAt),
      (err: unknown) => this.pollFailed(wait, err),
    );
  }

  /** A poll that saw nothing of the wait's resource: a 404 is its absence, a transient error waits for the next poll, another ends the wait. */
  private pollFailed<K extends WatchedKind, A>(wait: Wait<K, A>, err: unknown): undefined {
    if (NotFoundError.isInstance(err)) {
      this.observed(wait, { present: false }, undefined);
    } else if (isTransient(err)) {
      wait.lastError = err;
      this.reschedule(wait);
    } else {
      this.finish(wait, () => wait.reject(err));
    }
    return undefined;
  }

  /** What an observation means for the wait: it ends, or it polls again. */
  private observed<K extends WatchedKind, A>(wait: Wait<K, A>, obs: Observation<WatchedBodies[K]>, sentAt: number | undefined): undefined {
    if (wait.settled) return undefined;
    wait.lastError = undefined;
    const kind = wait.spec.resource.kind;
    if (wait.firstStatus === undefined) {
      wait.firstStatus = obs.present ? (obs.value.status ?? "unknown") : "absent";
      wait.schedule.expectedMs ??= this.durations.expected(transitionKey(kind, wait.firstStatus, awaitedOf(wait.spec.goal)));
    }
    const verdict = judge(kind, wait.spec.goal, obs);
    if (verdict.kind === "done") {
      this.learn(wait, sentAt);
      this.finish(wait, () => wait.resolve(obs.present ? obs.value : undefined));
      return undefined;
    }
    const seen = obs.present ? obs.value : wait.lastSeen;
    if (verdict.kind === "fail") {
      const failure = new ResourceFailedError<K>({
        resource: wait.spec.resource,
        state: verdict.state,
        awaited: awaitedOf(wait.spec.goal),
        lastSeen: seen,
        ...(verdict.reason === undefined ? {} : { reason: verdict.reason }),
      });
      this.finish(wait, () => wait.reject(failure));
      return undefined;
    }
    wait.lastSeen = seen;
    wait.pendingSentAt = sentAt;
    this.reschedule(wait);
    return undefined;
  }

  /** Records the transition's duration: readiness lies between the last poll that missed it and the one that saw it. */
  private learn<K extends WatchedKind, A>(wait: Wait<K, A>, seenSentAt: number | undefined): void {
    if (wait.pendingSentAt === undefined || seenSentAt === undefined || wait.firstStatus === undefined) return;
    const readyAt = (wait.pendingSentAt + seenSentAt) / 2;
    this.durations.record(transitionKey(wait.spec.resource.kind, wait.firstStatus, awaitedOf(wait.spec.goal)), readyAt - wait.startedAt);
  }

  private reschedule<K extends WatchedKind, A>(wait: Wait<K, A>): void {
    const now = Date.now();
    const deadline = wait.startedAt + wait.spec.timeoutMs;
    wait.nextDueAt = Math.min(now + pollDelayMs(now - wait.startedAt, wait.schedule), deadline);
  }

  /**
   * Ends every wait under way with {@link WaitCancelledError} (naming `why`) and stops
   * polling: the client is stopping. Waits started afterwards end the same way at once.
   */
  close(why?: Error): void {
    this.closed = true;
    this.why = why === undefined ? undefined : CancelledError.isInstance(why) ? why.why : why.message;
    for (const state of this.sources.values()) {
      state.timer?.cancel();
      state.timer = undefined;
      state.timerAt = Infinity;
      for (const wait of [...state.waits]) this.cancel(wait);
    }
  }

  private cancel<K extends WatchedKind, A>(wait: Wait<K, A>): void {
    const error = new WaitCancelledError<K>({
      resource: wait.spec.resource,
      awaited: awaitedOf(wait.spec.goal),
      lastSeen: wait.lastSeen,
      ...(this.why === undefined ? {} : { why: this.why }),
    });
    this.finish(wait, () => wait.reject(error));
  }

  private timeOut<K extends WatchedKind, A>(wait: Wait<K, A>): void {
    const error = new TimeoutError<K>({
      resource: wait.spec.resource,
      awaited: awaitedOf(wait.spec.goal),
      lastStatus: wait.lastSeen?.status,
      lastSeen: wait.lastSeen,
      timeoutMs: wait.spec.timeoutMs,
      lastError: wait.lastError,
    });
    this.finish(wait, () => wait.reject(error));
  }

  private finish<K extends WatchedKind, A>(wait: Wait<K, A>, settle: () => void): void {
    if (wait.settled) return;
    wait.settled = true;
    wait.timer.cancel();
    const state = this.sources.get(wait.spec.source.key);
    if (state !== undefined) {
      state.waits.delete(wait as unknown as Wait<WatchedKind, unknown>);
      // The source's timer stays set for the earliest wait left or sooner: nothing to look for.
      if (state.waits.size === 0) this.arm(state);
      else if (!state.inFlight) state.early = true;
    }
    settle();
  }
}
