/**
 * Whether a 429 is the key's limit's own refusal, which holds the key and tells its rate
 * (keySchedule.ts `refused`), or stands alone, holding its own request only: what a
 * `Retry-After` holds is decided per answer (the README's "What a `Retry-After` holds"). Pure.
 */
import type { LimitFields } from "./limitFields";
import type { KeySchedule } from "./schedule";

/** The limit's own refusals kept, their `Retry-After`s telling what the limit asks for. */
export const RETRY_AFTERS_KEPT = 8;

/**
 * The window of the key's limit as known, seconds: the announced one (`RateLimit-Policy`'s `w`),
 * else the shortest `Retry-After` its measured congestions carried, else a second.
 */
export function limitWindow(s: KeySchedule, fields: LimitFields = {}): number {
  return fields.windowSeconds ?? (s.retryAfters !== undefined && s.retryAfters.length > 0 ? Math.max(1, Math.min(...s.retryAfters)) : 1);
}

/**
 * Whether a 429 is the limit's own refusal, which holds the key (every request of the machine's
 * clients of it) and measures the limit, or stands alone, holding its own request only (retry.ts
 * waits out its `Retry-After`) and saying nothing of the rate: with the `RateLimit` fields, the
 * limit's own when they say nothing is left of the quota (`r=0`); without, when its `Retry-After`
 * is at most twice the limit's window ({@link limitWindow}: the limit asks to wait until its window
 * frees). A longer one (a gateway's, another client's penalty: 5 s where the limit asks for 1)
 * stands alone, and never holds a fleet. A bare 429 is the limit's.
 */
export function limitsOwn(s: KeySchedule, retryAfterSeconds: number | undefined, fields: LimitFields = {}): boolean {
  if (fields.remaining !== undefined) return fields.remaining === 0;
  return retryAfterSeconds === undefined || retryAfterSeconds <= 2 * limitWindow(s, fields);
}
