/**
 * One pacer per API client: every request waits here for its turn, so the client as a
 * whole sends at the rate the API accepts instead of each call retrying alone.
 *
 * - **Order**: writes first, then reads, then waiters' polls; first come first served within each.
 * - **Pause**: a 429's `Retry-After` pauses every request of the client; a request never waits
 *   in a pause past its `waitUntil`: it is let go at once, unsent.
 * - **Rate**: at most `rate` a second, spaced evenly: from {@link PACER.initialRate}, doubling until the
 *   first 429 (slow start), then under the limit the 429s measure (keySchedule.ts says how). The limit's
 *   own 429 (ownRefusals.ts) costs every request its `Retry-After` ({@link PACER.bareRefusalPauseMs} bare).
 * - **One state**: the rate, the limit as known, the pause and the next send slot are a
 *   {@link KeySchedule} (keySchedule.ts), changed by its functions whether the client paces
 *   alone (a schedule of its own, in memory) or shares the machine's (its view of the file's).
 * - **Shared with the machine's other clients of the key** (given a {@link SharedSchedule}, as the
 *   providers give each process): every request takes its turn from the schedule they share
 *   (keySchedule.ts: one rate learned from all their answers, turns in round robin, fair for writes
 *   (fairTurns.ts), a `Retry-After` holding them all). Turns claimed before a 429 are given back;
 *   each claim tells when this client's requests left, which turns it did not use and, in the
 *   slow start, when its answers came. Where the file cannot be used, the client paces alone.
 * - **A fleet told its size** (`fleet`): turns in the machine's own slot of the fleet's grid (fleetSlots.ts).
 * - **Stale polls**: a poll whose turn comes {@link PACER.pollStaleMs} after it was queued, writes or
 *   reads having gone ahead of it, is let go unsent: its wait polls again, choosing anew what to read.
 *
 * The pacer never fails a request: it says whether it may send, callers decide. Time comes from
 * `now`; its timer is safe past Node's limit (timers.ts); its work per request is constant (fifo.ts), or logarithmic
 * where it counts the answers accepted in a window.
 */
import { Fifo, Times } from "./fifo";
import type { Held, Priority, RequestPrice, Waiting } from "./pacerTypes";
export type { Held, Priority } from "./pacerTypes";
import { answered, claimSlots, declared, growRate, measuringSlowStart, observed, refused, sent, unused } from "./keySchedule";
import { limitsOwn } from "./ownRefusals";
import { fitFleet, type FleetOptions, lateOnGrid, loneSent, loneTurn } from "./fleetSlots";
import { activeMembers, type KeySchedule, newSchedule, PACER } from "./schedule";
import type { LimitSharing } from "../apiErrors";
import type { LimitFields } from "./limitFields";
import type { SharedSchedule } from "./sharedSchedule";
import { type LongTimer, setLongTimeout } from "../timers";

export { PACER } from "./schedule";

/** Changes of the shared schedule in a row that may fail for a busy lock (a second each) before the client paces alone. */
const BUSY_TRIES = 30;
/** The most send slots a client claims from the shared schedule at once: its share (among the clients sharing it) of this many ms of the rate. */
const CLAIM_MS = 50;
/** A slot claimed longer ago than this is used only once the schedule was looked at again (a pause may have begun). */
const RECHECK_MS = 100;
/** How long before such a slot the schedule is looked at again: about what a read of its file takes on a busy machine. */
const LOOK_AHEAD_MS = 30;

const ORDER: readonly Priority[] = ["write", "read", "poll"];

/** The pacer of one client (see the module comment). */
export class Pacer {
  private readonly queues: Record<Priority, Fifo<Waiting>> = { write: new Fifo(), read: new Fifo(), poll: new Fifo() };
  /**
   * The key's rate state: a schedule of this client's own while it paces alone, else its view
   * of the shared one (the file's as last read or written, with this client's changes since).
   */
  private state: KeySchedule;
  /** When answers the API accepted came, oldest first, within the last seconds ({@link PACER.shareWindowMs} and one). */
  private readonly accepted = new Times();
  /** When this client's first request left (epoch ms): a measure of what it got counts from then. */
  private firstSentAt = Infinity;
  private timer: LongTimer | undefined;
  private timerAt = Infinity;
  private closed = false;
  /** The schedule shared with the machine's other clients of the key, while it can be used. */
  private shared: SharedSchedule | undefined;
  /** Send slots claimed from the shared schedule, not yet used (epoch ms, ascending). */
  private slots: number[] = [];
  /** When they were claimed (epoch ms): slots claimed before a 429 are given back (see {@link Pacer.pump}). */
  private claimedAt = -Infinity;
  /** Claimed slots left unused, to be told to the schedule at the next claim. */
  private unusedSlots: number[] = [];
  /** The slots used since the last claim and when each request left on it, to be told to the schedule then. */
  private used: [number, number][] = [];
  /** While the slow start's limit is measured: when accepted requests left and their answers came, to be told at the next claim. */
  private answers: [number, number][] = [];
  private claiming = false;
  /** No claim before this (epoch ms): the last claim gave no turn (fairTurns.ts). */
  private claimAfter = 0;
  private busyFailures = 0;
  private checking = false;
  /** When this client last saw the shared schedule (epoch ms). */
  private viewedAt = -Infinity;
  private sharedWithNow = 1;
  private heldBy: Held["by"] = "pause";
  /** When a request of a higher priority than a poll was last sent (epoch ms): the polls queued before it went stale behind it. */
  private overtakenAt = -Infinity;
  private scheduleHeldUntil = 0;

  /**
   * @param now - the clock, epoch ms. @default Date.now
   * @param shared - the schedule shared with the machine's other clients of the same API key; none: the client paces alone.
   * @param fleet - how many machines share the key (and its limit, when told): turns on their grid (fleetSlots.ts); none: the rules of keySchedule.ts.
   */
  constructor(
    private readonly now: () => number = Date.now,
    shared?: SharedSchedule,
    private readonly fleet?: FleetOptions,
  ) {
    this.state = newSchedule(now());
    this.shared = shared;
    fitFleet(this.state, now(), fleet);
  }

  /** Requests per second the pacer lets through now (the machine's clients of the key together, while they share a schedule). */
  get rate(): number {
    return this.state.rate;
  }

  /** What a request costs now ({@link RequestPrice}): a slot on a told fleet's grid; a turn once the API limited this key (a 429, or an announced limit); else its bytes. */
  get price(): RequestPrice {
    return this.state.fleet !== undefined ? "slot" : this.state.slowStart ? "free" : "limited";
  }

  /** Until when (epoch ms) every request is held after a 429; in the past when none is. */
  get pausedUntil(): number {
    return this.state.pausedUntil;
  }

  /** Writes waiting for their turn. */
  get queuedWrites(): number {
    return this.queues.write.size;
  }

  /** Requests waiting for their turn. */
  get queued(): number {
    return this.queues.write.size + this.queues.read.size + this.queues.poll.size;
  }

  /** How the key's limit is shared now: the clients of the key on this machine that took turns lately (1 when this one paces alone), and the limit as known. */
  get sharing(): LimitSharing {
    const limit = this.state.limit;
    return { sharedWith: this.shared !== undefined ? this.sharedWithNow : 1, ...(limit === undefined ? {} : { limitPerSecond: limit }) };
  }

  /** What held the last request let go unsent (see {@link Pacer.acquire}). */
  get held(): Held {
    const until = this.heldBy === "pause" ? this.state.pausedUntil : this.heldBy === "schedule" ? this.scheduleHeldUntil : this.now();
    return { until, by: this.heldBy, sharedWith: this.sharedWithNow, limit: this.state.limit };
  }

  /**
   * Resolves `true` when a request of `priority` may be sent (at once once closed), or
   * `false` as soon as a pause (after a 429), or its turn in the schedule the machine's
   * clients of the key share, reaches past `waitUntil` (epoch ms): the request may not wait
   * that long and is not sent ({@link Pacer.held} says why); or `false` when its turn comes
   * after `staleAt` and requests of a higher priority were sent ahead of it meanwhile (a poll
   * that waited behind the client's writes until its answer would be stale: the wait's next
   * poll decides again what to read; one that only waited for its turn is sent). Never rejects.
   */
  acquire(priority: Priority, waitUntil = Infinity, staleAt = Infinity): Promise<boolean> {
    if (this.closed) return Promise.resolve(true);
    const pausedUntil = this.state.pausedUntil;
    if (waitUntil < pausedUntil && pausedUntil > this.now()) {
      this.heldBy = "pause";
      return Promise.resolve(false);
    }
    return new Promise((resolve) => {
      this.queues[priority].push({ release: resolve, waitUntil, staleAt, queuedAt: this.now() });
      this.pump();
    });
  }

  /**
   * The client is closing: lets every queued request go at once (its transport, closed,
   * then fails it) and holds none from now on, so nothing waits on a timer of the pacer.
   */
  close(): void {
    this.closed = true;
    this.timer?.cancel();
    this.timer = undefined;
    for (const p of ORDER) for (const waiting of this.queues[p].drain()) waiting.release(true);
  }

  /**
   * Tells the pacer how a request ended: the HTTP status of its answer (undefined when none
   * came) and, for a 429, its `Retry-After` in seconds; `pause` false when the request that
   * met the 429 gives up rather than wait that long (then no other request is held for it:
   * the rate still adapts); `fields`, what the answer's rate-limit fields said; `answerMs`, how
   * long the answer took from its request's send. Never throws.
   */
  settle(status: number | undefined, retryAfterSeconds?: number, pause = true, fields: LimitFields = {}, answerMs = 0): void {
    const now = this.now();
    this.accepted.forgetBefore(now - PACER.shareWindowMs - 1_000);
    const perSecond = fields.perSecond;
    if (perSecond !== undefined && perSecond > 0 && !(this.state.declared === true && this.state.limit === perSecond)) {
      // Others: more used than this machine sent in the window (its clients' slots in the schedule, or this client's own).
      const windowMs = (fields.windowSeconds ?? 1) * 1_000;
      const used = fields.remaining === undefined ? 0 : (perSecond * windowMs) / 1_000 - fields.remaining;
      const sent = Math.max(
        this.accepted.countIn(now - windowMs, now),
        this.state.slots.filter((t) => t >= now - windowMs && t <= now).length,
      );
      const others = used - sent > 1;
      this.change((s, at) => (declared(s, at, perSecond, others), fitFleet(s, at, this.fleet)));
    }
    if (status !== 429) {
      if (status !== undefined) this.accepted.push(now);
      if (status !== undefined && this.shared !== undefined && measuringSlowStart(this.state)) this.answers.push([now - answerMs, now]);
      if (status !== undefined && fields.remaining !== undefined) this.observe(fields);
      return;
    }
    if (!limitsOwn(this.state, retryAfterSeconds, fields)) return; // One that stands alone holds its own request only (retry.ts).
    const pausedBefore = this.state.pausedUntil;
    const sentAt = now - answerMs;
    // Alone, the client's own answers are what the API accepted; shared, the schedule's slots tell.
    const counted =
      this.shared === undefined
        ? { count: (windowMs: number, ref: number) => this.accepted.countIn(ref - windowMs, ref), since: this.firstSentAt }
        : undefined;
    this.change((s, at) => refused(s, at, retryAfterSeconds, pause, sentAt, counted));
    if (this.state.pausedUntil > pausedBefore) this.releaseImpatient();
    this.pump();
  }

  /** What the answer's `RateLimit` fields say of the quota others use (keySchedule.ts `observed`), given what this client used of it. */
  private observe(fields: LimitFields): void {
    const now = this.now();
    const own = this.accepted.countIn(now - (fields.windowSeconds ?? 1) * 1_000, now);
    this.change((s, at) => observed(s, at, fields, own));
  }

  /** Applies `change` to the client's state at once, and to the shared schedule's file while it shares one (its answer then replaces the view). */
  private change(change: (s: KeySchedule, now: number) => void): void {
    change(this.state, this.now());
    this.share(change);
  }

  /** Lets go, unsent, every queued request that may not wait until `until`: once per new pause (later ones are told at `acquire`). */
  private releaseImpatient(until = this.state.pausedUntil, by: Held["by"] = "pause"): void {
    for (const p of ORDER) {
      for (const w of this.queues[p].partition((q) => q.waitUntil >= until)) {
        this.heldBy = by;
        w.release(false);
      }
    }
  }

  /** Tells the shared schedule what this client met; again shortly when its lock was busy (see {@link Pacer.stillSharing}). */
  private share(change: (s: KeySchedule, now: number) => void): void {
    const shared = this.shared;
    if (shared === undefined || this.closed) return;
    void shared.update(change).then((done) => {
      if (done !== undefined) {
        this.busyFailures = 0;
        this.adopt(done.schedule);
      } else if (this.stillSharing(shared)) {
        setTimeout(() => this.share(change), 20 + Math.random() * 80).unref();
      }
    });
  }

  /** After a failed change of the schedule: true to try again (its lock was busy, up to {@link BUSY_TRIES} times in a row), else the client paces alone. */
  private stillSharing(shared: SharedSchedule): boolean {
    if (shared.busy && ++this.busyFailures < BUSY_TRIES) return true;
    this.stopSharing();
    return false;
  }

  /** The shared schedule as read: the client's view from now on (a pause it already knew of stays). */
  private adopt(s: KeySchedule): void {
    if (this.shared === undefined) return;
    const now = this.now();
    const pausedBefore = this.state.pausedUntil;
    s.pausedUntil = Math.max(s.pausedUntil, pausedBefore);
    this.state = s;
    this.viewedAt = now;
    this.sharedWithNow = Math.max(1, activeMembers(s, now));
    if (s.pausedUntil > pausedBefore && s.pausedUntil > now) this.releaseImpatient();
  }

  /** The shared schedule cannot be used: the client paces alone from what it knows, at once. */
  private stopSharing(): void {
    this.shared = undefined;
    this.slots = [];
    this.state.next = Math.min(this.state.next, this.now());
    this.pump();
  }

  /** Looks at the shared schedule again (no lock) before a slot claimed a while ago is used: another client may have met a 429 since. */
  private check(): void {
    const shared = this.shared;
    if (shared === undefined || this.checking) return;
    this.checking = true;
    void shared.read().then((s) => {
      this.checking = false;
      if (s !== undefined) this.adopt(s);
      else this.viewedAt = this.now();
      this.pump();
    });
  }

  /** Claims the next send slots for the requests queued, from the shared schedule. */
  private claim(): void {
    const shared = this.shared;
    if (shared === undefined || this.claiming) return;
    this.claiming = true;
    // At most this client's share of the next CLAIM_MS: a client that took more in the slow start would finish rounds ahead of the others.
    // In the slow start, one at a time: the clients that will share the key have not all claimed yet.
    const share = this.state.slowStart ? 1 : Math.floor((this.state.rate * CLAIM_MS) / 1_000 / this.sharedWithNow);
    const n = Math.max(1, Math.min(this.queued, share));
    const [left, used, answers] = [this.unusedSlots, this.used, this.answers];
    const forWrites = this.queues.write.size > 0;
    [this.unusedSlots, this.used, this.answers] = [[], [], []];
    void shared
      .update((s, now) => {
        unused(s, left);
        sent(s, used);
        answered(s, now, answers);
        fitFleet(s, now, this.fleet);
        return claimSlots(s, now, shared.member, n, forWrites);
      })
      .then((done) => {
        this.claiming = false;
        if (done === undefined) {
          if (this.stillSharing(shared)) this.wake(this.now() + 20 + Math.random() * 80, this.now());
          return;
        }
        this.busyFailures = 0;
        this.adopt(done.schedule);
        this.slots = done.result;
        this.claimedAt = done.schedule.updatedAt;
        // No turn when this client sits out for fairness (fairTurns.ts): it claims again once the turns given so far have passed.
        this.claimAfter = this.slots.length === 0 ? done.schedule.next : 0;
        // A request that may not wait for this client's next turn is let go now.
        const turn = this.slots[0] ?? this.claimAfter;
        if (turn > this.now()) {
          this.scheduleHeldUntil = turn;
          this.releaseImpatient(turn, "schedule");
        }
        this.pump();
      });
  }

  /** Lets the first request of `priority` go unsent when it waited past its `staleAt` while requests of a higher priority went ahead of it; true when it did. */
  private dropStale(priority: Priority, now: number): boolean {
    const first = this.queues[priority].peek();
    if (first === undefined || first.staleAt >= now || this.overtakenAt <= first.queuedAt) return false;
    this.queues[priority].shift();
    this.heldBy = "queue";
    first.release(false);
    return true;
  }

  /** Sends the first request of `priority`; one of a higher priority than a poll goes ahead of the polls queued. */
  private release(priority: Priority, now: number): void {
    this.firstSentAt = Math.min(this.firstSentAt, now);
    if (priority !== "poll") this.overtakenAt = now;
    this.queues[priority].shift()!.release(true);
  }

  /** Makes the pump run again at `at` (a timer set for sooner stays). */
  private wake(at: number, now: number): void {
    if (this.timer !== undefined && this.timerAt <= at) return;
    this.timer?.cancel();
    this.timerAt = at;
    this.timer = setLongTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, at - now);
  }

  private pump(): void {
    for (;;) {
      const priority = ORDER.find((p) => this.queues[p].size > 0);
      if (priority === undefined || this.closed) return;
      const now = this.now();
      if (this.dropStale(priority, now)) continue;
      const s = this.state;
      if (this.shared !== undefined) {
        // Turns from the shared schedule; slots within a pause of this client's own are not used, nor a grid's come too late (fleetSlots.ts),
        // nor slots claimed before a 429 since: spaced at the rate it cut, they would meet the limit again.
        while (this.slots.length > 0 && (this.slots[0] < s.pausedUntil || lateOnGrid(s, now, this.slots[0])))
          this.unusedSlots.push(this.slots.shift()!);
        if (s.last429At > this.claimedAt) this.unusedSlots.push(...this.slots.splice(0));
        const at = Math.max(this.slots[0] ?? Infinity, s.pausedUntil);
        if (this.slots.length === 0) return now < this.claimAfter ? this.wake(this.claimAfter, now) : this.claim();
        // The schedule is looked at again just before the slot, not once it has come: the read would make the request late.
        const stale = at - this.viewedAt > RECHECK_MS;
        if (stale && at - now <= LOOK_AHEAD_MS) return this.check();
        if (now < at) return this.wake(stale ? at - LOOK_AHEAD_MS : at, now);
        this.used.push([this.slots.shift()!, now]);
        if (this.used.length > 64) this.used.shift();
        this.release(priority, now);
        continue;
      }
      growRate(s, now);
      const at = loneTurn(s, now);
      if (now < at) {
        s.wanted = true;
        return this.wake(at, now);
      }
      loneSent(s, now, at);
      this.release(priority, now);
    }
  }
}
