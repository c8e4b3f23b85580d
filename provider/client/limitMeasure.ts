/**
 * How a 429 measures the key's limit (keySchedule.ts `refused`): the requests the API accepted
 * in the second before the first refused request of a congestion, counted by when they left,
 * and how such a measure is judged against the limit measured before.
 */
import type { KeySchedule } from "./keySchedule";

/**
 * When the first request of the congestion whose 429 was sent at `ref` was sent: the earliest
 * 429 of the second before `ref`. The 429s come back in any order, and the API's window was
 * full when the first of them came: the second before it is the one to count (a request that
 * left a second before `ref` may still have been in the API's window then).
 */
export function firstRefused(s: KeySchedule, ref: number): number {
  return s.refusals.find((t) => t > ref - 1_000 && t <= ref) ?? ref;
}

/**
 * How much earlier than a second before the first refused request the slow start's first
 * congestion counts requests: a process's first request opens its connection and reaches the
 * API later than it left (in a fleet, the first list read, 1,029 ms before the first 429 and still
 * in the API's second then). A slow start meets a limit within its first half second or so, so
 * this reaches no request the API had let go, except at limits of hundreds, by a percent or two.
 */
export const SLOW_START_SLACK_MS = 100;

/**
 * The requests the API accepted in the second before `ref` (and `slack` ms more): the slots of
 * that second (at the times they left, once told), less its 429s.
 */
export function acceptedBefore(s: KeySchedule, ref: number, slack = 0): number {
  const within = (t: number): boolean => t > ref - 1_000 - slack && t <= ref;
  return s.slots.filter(within).length - s.refusals.filter(within).length;
}

/** How far below a limit measured before a congestion's measure may fall and still be read as that limit, as a share of it (at least 1 request). */
const MEASURE_TOLERANCE = 0.2;
/** A congestion this soon after the last one measures the limit afresh: 429s that come back so often say the limit is lower. */
export const RECURRING_MS = 5_000;

/**
 * The limit a congestion's measure `accepted` tells, when the limit measured before it was
 * `prior`. A request leaves a little late or early, and the API counts it when it arrives: a
 * measure of the second before a 429 is off by one or two either way (20 processes on two
 * cores), and a 429 met below the limit (a second that held one request more than the rate)
 * measures the rate, not the limit. So a measure within {@link MEASURE_TOLERANCE} below the
 * prior keeps it; a measure above it, or well below it, or one of a congestion within
 * {@link RECURRING_MS} of the last (the limit fell, or others use the key), is the new limit.
 */
export function judgedLimit(prior: number | undefined, accepted: number): number {
  if (prior === undefined || accepted >= prior) return accepted;
  return accepted < prior - Math.max(1, MEASURE_TOLERANCE * prior) ? accepted : prior;
}
