/**
 * When a waiter polls: a pure function of the time waited so far, so it can be checked
 * numerically (tests/client/pollSchedule.test.ts) and documented (docs/performance/benchmarks.md, "The other figures").
 *
 * Without knowing when the resource will be ready, the schedule keeps the detection delay
 * a bounded share of the time waited: the first poll after `initialMs`, then doubling up
 * to a steady 1.2 s, then 4% of the time waited, never more than `maxMs`. For T = 30 s that
 * is 28 polls and at most 1.25 s late.
 *
 * When readiness is likely around a known time `expectedMs` (the caller says so, or the
 * client measured the same transition before: see pollHub.ts), the schedule spends its
 * requests there: sparse (25% of the time waited) until 0.8 × expected, dense (3% of
 * expected) until 1.3 × expected, then as without it. For T = 5 min that is 43 polls with
 * a mean delay of 1.6% of T (at most 54 polls and 1.7% for an expectation anywhere from
 * half to twice T).
 *
 * Why a prior is needed for the second figure: with no knowledge of T, polling 30 s within
 * 1.5 s needs an interval of at most 5% of the time waited there, and then any schedule whose
 * relative interval does not grow needs at least 20 ln 8 + 5 + 20 ≈ 67 polls to reach 5 min
 * with intervals of at most 12 s (a mean delay of 2%). The schedule without a prior makes 87.
 */

/** Inputs of the schedule. */
export interface PollScheduleOptions {
  /** Delay of the first poll, and the shortest interval, in ms. */
  initialMs: number;
  /** Longest interval, in ms. */
  maxMs: number;
  /** When readiness is likely, in ms after the wait began; none when unknown. */
  expectedMs?: number;
}

/** Tunables of the schedule (exported for the tests and the README). */
export const POLL_SCHEDULE = {
  /** Interval once the first polls have doubled their way up to it. */
  steadyMs: 1_200,
  /** Share of the time waited that an interval may take, without a prior. */
  relative: 0.04,
  /** Share of the time waited that an interval may take before the likely time, with a prior. */
  relativeEarly: 0.25,
  /** The likely window begins at this share of the expected time... */
  nearFrom: 0.8,
  /** ...and ends at this share. */
  nearTo: 1.3,
  /** Interval inside the likely window, as a share of the expected time. */
  nearShare: 0.03,
} as const;

/**
 * The delay from a poll made `elapsedMs` after the wait began to the next one. Never
 * throws; always at least `initialMs` and at most `max(initialMs, maxMs)`.
 */
export function pollDelayMs(elapsedMs: number, opts: PollScheduleOptions): number {
  const s = POLL_SCHEDULE;
  const base = elapsedMs < s.steadyMs ? elapsedMs : Math.max(s.steadyMs, s.relative * elapsedMs);
  let delay = base;
  const expected = opts.expectedMs;
  if (expected !== undefined && expected > 0) {
    const from = s.nearFrom * expected;
    const near = s.nearShare * expected;
    if (elapsedMs < from) {
      delay = Math.max(base, s.relativeEarly * elapsedMs);
      if (elapsedMs + delay > from) delay = Math.max(from - elapsedMs, Math.min(near, base));
    } else if (elapsedMs < s.nearTo * expected) {
      delay = Math.min(base, near);
    }
  }
  return Math.min(Math.max(opts.initialMs, opts.maxMs), Math.max(opts.initialMs, delay));
}

/**
 * The times (ms after the wait began) of the polls up to and including the first one at
 * or after `readyAtMs`: the polls a wait makes for a resource ready at `readyAtMs`.
 */
export function pollTimes(readyAtMs: number, opts: PollScheduleOptions): number[] {
  const times = [opts.initialMs];
  for (let t = opts.initialMs; t < readyAtMs;) {
    t += pollDelayMs(t, opts);
    times.push(t);
  }
  return times;
}

/** What the schedule costs and how late it sees readiness, for a resource ready at `readyAtMs`. */
export interface Detection {
  /** Polls made. */
  polls: number;
  /** From readiness to the poll that sees it, in ms. */
  delayMs: number;
}

/** Polls and detection delay for a resource ready `readyAtMs` after the wait began. Never throws. */
export function detection(readyAtMs: number, opts: PollScheduleOptions): Detection {
  const times = pollTimes(readyAtMs, opts);
  return { polls: times.length, delayMs: times[times.length - 1] - readyAtMs };
}

/**
 * Interval after `elapsedMs` of waiting, without a prior. Kept for callers of the former
 * schedule; the same as {@link pollDelayMs}.
 */
export function pollIntervalMs(elapsedMs: number, initialMs: number, maxMs: number): number {
  return pollDelayMs(elapsedMs, { initialMs, maxMs });
}
