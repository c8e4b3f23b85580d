/**
 * The API's clock, as measured from the `Date` header of its answers (CONTRACT.md
 * "Transport": `created` is in the server's clock; compare with the server's time, never
 * the client's). The client's clock may be minutes off the API's; create recovery compares
 * a candidate's `created` with the time its request was sent, translated into the
 * server's clock here.
 *
 * An answer's `Date` has whole seconds (truncated or rounded, HTTP does not say which), so
 * it says the server's clock read within a second of `D` at some moment between sending
 * the request and receiving the answer: `offset = server - client` lies in
 * `[D - 1 s - receivedAt, D + 1 s - sentAt]`. Successive answers narrow that interval; one
 * that does not fit it (the server's clock was reset) starts a new one. A `Date` is GMT in each
 * of HTTP's forms, whatever this machine's time zone (httpDate.ts).
 */
import { parseHttpDate } from "./httpDate";

/** An interval of milliseconds, both ends included. */
export interface MsInterval {
  /** Lower end. */
  from: number;
  /** Upper end. */
  to: number;
}

/** Width of one `Date` header tick. */
const DATE_RESOLUTION_MS = 1_000;

/** Tracks the offset between the API's clock and this machine's. */
export class ServerClock {
  private offset: MsInterval | undefined;

  /**
   * Records one answer: its `Date` header (ignored when absent or unreadable) and the
   * client times (epoch ms) at which its request was sent and its answer received. Never throws.
   */
  observe(dateHeader: string | string[] | undefined, sentAt: number, receivedAt: number): void {
    const text = Array.isArray(dateHeader) ? dateHeader[0] : dateHeader;
    const date = parseHttpDate(text, receivedAt);
    if (date === undefined) return;
    const sample = { from: date - DATE_RESOLUTION_MS - receivedAt, to: date + DATE_RESOLUTION_MS - sentAt };
    const current = this.offset;
    if (current !== undefined && sample.from <= current.to && current.from <= sample.to) {
      this.offset = { from: Math.max(current.from, sample.from), to: Math.min(current.to, sample.to) };
    } else {
      this.offset = sample;
    }
  }

  /** The offset `server - client` in ms, as an interval; undefined before any answer carried a `Date`. */
  get offsetMs(): MsInterval | undefined {
    return this.offset === undefined ? undefined : { ...this.offset };
  }

  /**
   * The server times at which something the client did between `fromClientMs` and
   * `toClientMs` (epoch ms, client clock) may have happened, widened by `slackMs` on both
   * sides. Unbounded (`-Infinity` to `Infinity`) while the offset is unknown. Never throws.
   */
  toServer(fromClientMs: number, toClientMs: number, slackMs = 0): MsInterval {
    if (this.offset === undefined) return { from: -Infinity, to: Infinity };
    return { from: fromClientMs + this.offset.from - slackMs, to: toClientMs + this.offset.to + slackMs };
  }
}
