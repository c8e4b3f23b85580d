/**
 * Shared waiting: all waits of one client that one request can serve share its polls. A
 * source is such a request (the service list of a project serves every service and
 * replica set waited for in it; the peering list of a VPC every peering); each answer is
 * delivered to every wait on the source, so N waits cost about the polls of one.
 *
 * Each wait keeps its own poll schedule (pollSchedule.ts); a source polls when its
 * earliest wait is due, one request at a time, as a low-priority single attempt through
 * the client's pacer (a failed poll is retried by the next one). An answer to a request
 * sent before a wait began is not shown to that wait. A wait ends on its own verdict
 * (waiters.ts), or with `TimeoutError` when its time is up.
 *
 * When a wait ends as awaited, the hub records how long the transition took
 * (transitionDurations.ts), so that later waits on the same transition poll where
 * readiness is likely.
 */
import { NotFoundError } from "./errors";
import { pollDelayMs, type PollScheduleOptions } from "./pollSchedule";
import type { WatchedKind } from "../../contract";
import { type TransitionDurations, transitionKey } from "./transitionDurations";
import { ResourceFailedError, TimeoutError, WaitCancelledError, type WatchedBodies, type WatchedResource } from "./waitErrors";
import { type LongTimer, setLongTimeout } from "./timers";
import { type Observation, type WaitGoal, awaitedOf, isTransient, judge } from "./waiters";

/** One answer of a source, and when its request was sent (client clock, epoch ms). */
export interface Fetched<A> {
  /** The answer. */
  answer: A;
  /** When its request was sent. */
  sentAt: number;
}

/** A request whose answer can serve several waits. */
export interface Source<A> {
  /** Identifies the request: waits with the same key share it. */
  key: string;
  /** Sends it once (no retry), naming `caller` as the operation in errors. */
  fetch: (caller: string) => Promise<Fetched<A>>;
}

/** One wait, as the hub is given it. */
export interface WatchSpec<K extends WatchedKind, A> {
  /** The watched resource. */
  resource: WatchedResource<K>;
  /** The client method waiting (`waitForService`, ...), for errors. */
  operation: string;
  /** What ends the wait. */
  goal: WaitGoal;
  /** Total time allowed, in ms. */
  timeoutMs: number;
  /** Its poll schedule (`expectedMs` as the caller's hint, if any). */
  schedule: PollScheduleOptions;
  /** The request that observes it. */
  source: Source<A>;
  /** Finds the resource in an answer of the source. Throws a transient error for an item it cannot read. */
  locate: (answer: A) => Promise<Observation<WatchedBodies[K]>>;
}

interface Wait<K extends WatchedKind, A> {
  spec: WatchSpec<K, A>;
  startedAt: number;
  nextDueAt: number;
  expectedMs: number | undefined;
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
}

/** The shared waiting of one client (see the module comment). */
export class PollHub {
  private readonly sources = new Map<string, SourceState<unknown>>();
  private closed = false;

  /** @param durations - where transitions' durations are recorded and looked up. */
  constructor(private readonly durations: TransitionDurations) {}

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
        expectedMs: spec.schedule.expectedMs,
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
      this.arm(state);
    });
  }

  private sourceFor<A>(source: Source<A>): SourceState<A> {
    const found = this.sources.get(source.key) as SourceState<A> | undefined;
    if (found !== undefined) return found;
    const state: SourceState<A> = { source, waits: new Set(), inFlight: false, timer: undefined, timerAt: Infinity };
    this.sources.set(source.key, state as SourceState<unknown>);
    return state;
  }

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
    if (state.timer !== undefined && state.timerAt <= due) return;
    state.timer?.cancel();
    state.timerAt = due;
    state.timer = setLongTimeout(
      () => {
        state.timer = undefined;
        state.timerAt = Infinity;
        void this.tick(state);
      },
      Math.max(0, due - Date.now()),
    );
  }

  private async tick<A>(state: SourceState<A>): Promise<void> {
    if (state.inFlight || state.waits.size === 0) return this.arm(state);
    state.inFlight = true;
    let earliest: Wait<WatchedKind, A> | undefined;
    for (const w of state.waits) if (earliest === undefined || w.nextDueAt < earliest.nextDueAt) earliest = w;
    let fetched: Fetched<A> | undefined;
    let error: unknown;
    try {
      fetched = await state.source.fetch(earliest!.spec.operation);
    } catch (err) {
      error = err;
    }
    state.inFlight = false;
    await Promise.all([...state.waits].map((w) => this.deliver(w, fetched, error)));
    this.arm(state);
  }

  private async deliver<K extends WatchedKind, A>(wait: Wait<K, A>, fetched: Fetched<A> | undefined, error: unknown): Promise<void> {
    if (wait.settled || (fetched !== undefined && fetched.sentAt < wait.startedAt)) return;
    let obs: Observation<WatchedBodies[K]>;
    try {
      if (fetched === undefined) throw error;
      obs = await wait.spec.locate(fetched.answer);
    } catch (err) {
      if (NotFoundError.isInstance(err)) {
        obs = { present: false };
      } else if (isTransient(err)) {
        wait.lastError = err;
        return this.reschedule(wait);
      } else {
        return this.finish(wait, () => wait.reject(err));
      }
    }
    wait.lastError = undefined;
    const kind = wait.spec.resource.kind;
    if (wait.firstStatus === undefined) {
      wait.firstStatus = obs.present ? (obs.value.status ?? "unknown") : "absent";
      wait.expectedMs ??= this.durations.expected(transitionKey(kind, wait.firstStatus, awaitedOf(wait.spec.goal)));
    }
    const verdict = judge(kind, wait.spec.goal, obs);
    if (verdict.kind === "done") {
      this.learn(wait, fetched?.sentAt);
      return this.finish(wait, () => wait.resolve(obs.present ? obs.value : undefined));
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
      return this.finish(wait, () => wait.reject(failure));
    }
    wait.lastSeen = seen;
    wait.pendingSentAt = fetched?.sentAt;
    this.reschedule(wait);
  }

  /** Records the transition's duration: readiness lies between the last poll that missed it and the one that saw it. */
  private learn<K extends WatchedKind, A>(wait: Wait<K, A>, seenSentAt: number | undefined): void {
    if (wait.pendingSentAt === undefined || seenSentAt === undefined || wait.firstStatus === undefined) return;
    const readyAt = (wait.pendingSentAt + seenSentAt) / 2;
    this.durations.record(transitionKey(wait.spec.resource.kind, wait.firstStatus, awaitedOf(wait.spec.goal)), readyAt - wait.startedAt);
  }

  private reschedule<K extends WatchedKind, A>(wait: Wait<K, A>): void {
    const now = Date.now();
    const schedule: PollScheduleOptions = { ...wait.spec.schedule };
    if (wait.expectedMs !== undefined) schedule.expectedMs = wait.expectedMs;
    const deadline = wait.startedAt + wait.spec.timeoutMs;
    wait.nextDueAt = Math.min(now + pollDelayMs(now - wait.startedAt, schedule), deadline);
  }

  /**
   * Ends every wait under way with {@link WaitCancelledError} and stops polling: the client
   * is closing. Waits started afterwards end the same way at once.
   */
  close(): void {
    this.closed = true;
    for (const state of this.sources.values()) {
      state.timer?.cancel();
      state.timer = undefined;
      state.timerAt = Infinity;
      for (const wait of [...state.waits]) this.cancel(wait);
    }
  }

  private cancel<K extends WatchedKind, A>(wait: Wait<K, A>): void {
    const error = new WaitCancelledError<K>({ resource: wait.spec.resource, awaited: awaitedOf(wait.spec.goal), lastSeen: wait.lastSeen });
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
      this.arm(state);
    }
    settle();
  }
}
