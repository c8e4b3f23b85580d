/**
 * How long a request waits before its next attempt (retry.ts decides whether there is one):
 * exponential backoff with jitter, and never less than what the API asked (`Retry-After`).
 */
import { RateLimitError, ServerError } from "../errors";
import { PACER } from "./schedule";

/** Tunables of the backoff (exposed for tests). */
export const backoff = {
  /** First backoff step in ms. */
  baseMs: 200,
  /** First backoff step in ms after a 429 without `Retry-After` (the retry waits between half of it and all of it). */
  bareRefusalBaseMs: 500,
  /** Longest backoff step in ms. */
  maxMs: 5_000,
  /**
   * Up to this share of a `Retry-After` is added to it at random (at most
   * {@link backoff}.retryAfterSpreadMaxMs): a request waiting exactly what a gateway asks comes
   * back at the same moment of the gateway's next period, and one that refuses the first requests
   * after a moment in each period refused it ten periods in a row (tests/client/fleetSim.ts).
   */
  retryAfterSpread: 0.2,
  /** The most added to a `Retry-After` at random, ms. */
  retryAfterSpreadMaxMs: 1_000,
};

/**
 * How long a request waits after an answer that asked for `seconds` (`Retry-After`): never less,
 * plus the margin the key's pauses add too ({@link PACER}.retryAfterMarginMs), plus a random part of up to a fifth of it (1 s at most),
 * so that it does not come back in step with whatever refused it. `random()` in [0, 1).
 */
export function retryAfterWaitMs(seconds: number, random: () => number = Math.random): number {
  const ms = seconds * 1_000;
  return ms + PACER.retryAfterMarginMs + random() * Math.min(backoff.retryAfterSpreadMaxMs, ms * backoff.retryAfterSpread);
}

/** Between half and all of `base * 2^(attempt-1)`, at most {@link backoff}.maxMs: exponential, with jitter. */
function jittered(base: number, attempt: number, random: () => number): number {
  const step = Math.min(backoff.maxMs, base * 2 ** Math.max(0, attempt - 1));
  return step / 2 + random() * (step / 2);
}

/**
 * Delay before retry number `attempt` (1 = first retry) after `err`: exponential with
 * jitter (between half and all of `base * 2^(attempt-1)`, capped), and for a 429 or a 503
 * never less than its `Retry-After` plus a small margin and a random part ({@link retryAfterWaitMs}); a 429 without `Retry-After` backs off
 * from {@link backoff}.bareRefusalBaseMs. Never throws.
 */
export function retryDelayMs(err: unknown, attempt: number, random: () => number = Math.random): number {
  const limited = RateLimitError.isInstance(err);
  const retryAfterSeconds = limited || ServerError.isInstance(err) ? err.retryAfterSeconds : undefined;
  if (limited && retryAfterSeconds === undefined) return jittered(backoff.bareRefusalBaseMs, attempt, random);
  const jitteredMs = jittered(backoff.baseMs, attempt, random);
  return retryAfterSeconds === undefined ? jitteredMs : Math.max(retryAfterWaitMs(retryAfterSeconds, random), jitteredMs);
}
