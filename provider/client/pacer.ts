/**
 * One pacer per API client: every request waits here for its turn, so the client as a
 * whole sends at the rate the API accepts instead of each call retrying alone.
 *
 * - **Order**: writes first, then reads, then waiters' polls; first come first served
 *   within each.
 * - **Pause**: a 429's `Retry-After` pauses every request of the client until it has passed,
 *   when the request that met it waits that long (the transport says so); a request never
 *   waits in a pause past what it may wait (its `waitUntil`): it is let go at once, unsent,
 *   so no Retry-After holds other requests longer than they may wait.
 * - **Rate**: requests leave at most `rate` per second, spaced evenly. It starts at
 *   {@link PACER.initialRate} and doubles every {@link PACER.slowStartStepMs} in which
 *   requests had to queue, until the first 429 (slow start: fast until the API pushes
 *   back, over 1,000 a second within 1.5 s). The step sets what the first 429 costs: the
 *   rate meets a limit of L a second at about L / step + the initial rate, and every
 *   request sent while that 429's answer travels back is refused too (that rate × the
 *   answer's time). At 100/s doubling every 100 ms, 40 creates against 10 requests a
 *   second on a loaded machine met 3 to 6 refusals there; at 20/s doubling every 250 ms,
 *   one, while 1,000 writes still leave within 2 s. A 429 sets it to 95% of the answers
 *   the API accepted in the second before it (its limit, as seen from here), at most the
 *   current rate: adapting down. Then, while requests queue, it grows 10% a second up to 98% of
 *   that measured limit, and only after {@link PACER.probeAfterMs} without a 429 beyond it,
 *   5% a second (a probe, in case the limit rose): adapting up. Each 429 costs every
 *   request its `Retry-After` (a second at least), so the pacer stays under the limit
 *   rather than on it.
 *
 * The pacer never fails a request: it tells a caller whether it may send, and callers
 * decide what to do (the retry policy's deadline). Time comes from `now`, so tests can
 * drive it; its timer is safe past Node's timer limit (timers.ts). Its work per request is
 * constant whatever the length of its queues (fifo.ts); only a new pause looks at every
 * queued request, once.
 */
import { Fifo } from "./fifo";
import { type LongTimer, setLongTimeout } from "./timers";

/** Who a request serves: writes go first, waiters' polls last. */
export type Priority = "write" | "read" | "poll";

/** Tunables of the pacer (exported for tests and the README). */
export const PACER = {
  /** Rate before anything is known of the API's limit, requests per second. */
  initialRate: 20,
  /** Before the first 429 the rate doubles every this many ms in which requests queued (slow start). */
  slowStartStepMs: 250,
  /** The rate never goes below this, requests per second. */
  minRate: 0.5,
  /** Share of the measured limit the rate is set to after a 429. */
  afterLimit: 0.95,
  /** Growth per second while requests queue, up to {@link PACER.belowLimit} of the measured limit. */
  growth: 1.1,
  /** Share of the measured limit the rate grows to without probing. */
  belowLimit: 0.98,
  /** Growth per second beyond that, once no 429 came for {@link PACER.probeAfterMs}. */
  probe: 1.05,
  /** Time without a 429 after which the rate may probe above the measured limit. */
  probeAfterMs: 30_000,
  /** Added to every `Retry-After`, so that no request is early on a coarse clock. */
  retryAfterMarginMs: 25,
  /**
   * The send slots that passed in the last this many ms are used at once: a timer fires a
   * millisecond or more after it was due (Node's timers are whole milliseconds), so without
   * them the pacer would send one request a tick, never more than 1,000 a second, whatever
   * its rate. An idle pacer saves up no more than this.
   */
  lateSlotsMs: 4,
} as const;

const ORDER: readonly Priority[] = ["write", "read", "poll"];

/** A request waiting for its turn. */
interface Waiting {
  /** Lets it go: `true` to send, `false` when the pause outlasts what it may wait. */
  release(send: boolean): void;
  /** The latest time (epoch ms) it may still be sent; Infinity when it waits through any pause. */
  waitUntil: number;
}

/** The pacer of one client (see the module comment). */
export class Pacer {
  private readonly queues: Record<Priority, Fifo<Waiting>> = { write: new Fifo(), read: new Fifo(), poll: new Fifo() };
  private rateNow: number = PACER.initialRate;
  private slowStart = true;
  private limit: number | undefined;
  private last429At = -Infinity;
  private pausedUntilMs = 0;
  private nextSendAt = 0;
  private lastGrowthAt: number;
  private queuedSinceGrowth = false;
  private limitedSinceGrowth = false;
  /** When answers the API accepted came, oldest first, within the last second. */
  private readonly accepted = new Fifo<number>();
  private timer: LongTimer | undefined;
  private closed = false;

  /** @param now - the clock, epoch ms. @default Date.now */
  constructor(private readonly now: () => number = Date.now) {
    this.lastGrowthAt = now();
  }

  /** Requests per second the pacer lets through now. */
  get rate(): number {
    return this.rateNow;
  }

  /** True once the API answered this client 429: it limits the rate, and a request is worth more than the bytes it carries. */
  get limited(): boolean {
    return !this.slowStart;
  }

  /** Until when (epoch ms) every request is held after a 429; in the past when none is. */
  get pausedUntil(): number {
    return this.pausedUntilMs;
  }

  /** Requests waiting for their turn. */
  get queued(): number {
    return this.queues.write.size + this.queues.read.size + this.queues.poll.size;
  }

  /**
   * Resolves `true` when a request of `priority` may be sent (at once once closed), or
   * `false` as soon as a pause (after a 429) reaches past `waitUntil` (epoch ms): the
   * request may not wait that long and is not sent. Never rejects.
   */
  acquire(priority: Priority, waitUntil = Infinity): Promise<boolean> {
    if (this.closed) return Promise.resolve(true);
    if (waitUntil < this.pausedUntilMs && this.pausedUntilMs > this.now()) return Promise.resolve(false);
    return new Promise((resolve) => {
      this.queues[priority].push({ release: resolve, waitUntil });
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
   * the rate still adapts). Never throws.
   */
  settle(status: number | undefined, retryAfterSeconds?: number, pause = true): void {
    const now = this.now();
    this.forgetAcceptedBefore(now - 1_000);
    if (status !== 429) {
      if (status !== undefined) this.accepted.push(now);
      return;
    }
    const pauseEnd = now + (retryAfterSeconds ?? 1) * 1_000 + PACER.retryAfterMarginMs;
    if (pause && pauseEnd > this.pausedUntilMs) {
      this.pausedUntilMs = pauseEnd;
      this.releaseImpatient();
    }
    const acceptedLastSecond = this.accepted.size;
    const measured = acceptedLastSecond >= 2 ? acceptedLastSecond : undefined;
    this.limit = measured ?? this.limit;
    const target = measured === undefined ? this.rateNow / 2 : measured * PACER.afterLimit;
    this.rateNow = Math.max(PACER.minRate, Math.min(this.rateNow, target));
    this.slowStart = false;
    this.last429At = now;
    this.limitedSinceGrowth = true;
    this.lastGrowthAt = now;
    this.queuedSinceGrowth = false;
    this.pump();
  }

  private forgetAcceptedBefore(time: number): void {
    while ((this.accepted.peek() ?? Infinity) < time) this.accepted.shift();
  }

  private grow(now: number): void {
    if (now - this.lastGrowthAt < (this.slowStart ? PACER.slowStartStepMs : 1_000)) return;
    if (this.queuedSinceGrowth && !this.limitedSinceGrowth) {
      if (this.slowStart || this.limit === undefined) this.rateNow *= 2;
      else if (now - this.last429At >= PACER.probeAfterMs) this.rateNow *= PACER.probe;
      else this.rateNow = Math.max(this.rateNow, Math.min(this.rateNow * PACER.growth, PACER.belowLimit * this.limit));
    }
    this.lastGrowthAt = now;
    this.queuedSinceGrowth = false;
    this.limitedSinceGrowth = false;
  }

  /** Lets go, unsent, every queued request that may not wait until the pause ends: once per new pause (later ones are told at `acquire`). */
  private releaseImpatient(): void {
    for (const p of ORDER) {
      for (const w of this.queues[p].partition((q) => q.waitUntil >= this.pausedUntilMs)) w.release(false);
    }
  }

  private pump(): void {
    for (;;) {
      const priority = ORDER.find((p) => this.queues[p].size > 0);
      if (priority === undefined) return;
      const now = this.now();
      this.grow(now);
      const at = Math.max(this.pausedUntilMs, this.nextSendAt);
      if (now < at) {
        this.queuedSinceGrowth = true;
        if (this.timer === undefined) {
          this.timer = setLongTimeout(() => {
            this.timer = undefined;
            this.pump();
          }, at - now);
        }
        return;
      }
      const waiting = this.queues[priority].shift()!;
      this.nextSendAt = Math.max(now - PACER.lateSlotsMs, this.nextSendAt) + 1_000 / this.rateNow;
      waiting.release(true);
    }
  }
}
