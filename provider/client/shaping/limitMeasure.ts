/**
 * How a 429 measures the key's limit (keySchedule.ts `refused`): the requests the API accepted
 * in the second before the first refused request of a congestion, counted by when they left
 * (or, for one that left before that second, by the middle of its round trip), and how such a
 * measure is judged against the limit measured before.
 */
import { activeMembers, type KeySchedule } from "./schedule";

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
 * The requests the API accepted in the second (or `windowMs`) before `ref`: the slots of that second (at the
 * times they left, once told), less its 429s, and the accepted requests that left before it
 * whose answers say they reached the API within it ({@link KeySchedule.answers}): the middle of
 * a request's round trip is when it reached the API as best a client can tell (as NTP reads a
 * server's clock). In a fleet's slow start, a process's first request, opening its connection,
 * left 1,054 ms before the first refused one and was answered 448 ms later: it was still in
 * the API's second then; another, 1,408 ms before and answered 430 ms later, was not. Never
 * negative: a lone client's first request, refused before it was told as sent, measured -0.5 a
 * second, which its share then grew by, downwards.
 */
export function acceptedBefore(s: KeySchedule, ref: number, windowMs = 1_000): number {
  const edge = ref - windowMs;
  const within = (t: number): boolean => t > edge && t <= ref;
  const reached = (s.answers ?? []).filter(([left, answered]) => left <= edge && (left + answered) / 2 > edge).length;
  // Never below none: a refused request whose slot is not yet told as sent (sent at its slot's time, later) counts as a 429 without its slot.
  return Math.max(0, s.slots.filter(within).length - s.refusals.filter(within).length + reached);
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

/** The time between `from` and `to` (epoch ms) when the key was not held after a 429 ({@link KeySchedule.pauses}). */
export function unpausedMs(s: KeySchedule, from: number, to: number): number {
  let held = 0;
  for (const [a, b] of s.pauses ?? []) held += Math.max(0, Math.min(b, to) - Math.max(a, from));
  return Math.max(0, to - from - held);
}

/**
 * Whether the congestion met now (`now`, epoch ms) measures the key's limit low, as a lower bound
 * only: the slow start's first, with several clients of the machine sharing its schedule, of a
 * limit the API did not announce. Of processes that start together (a fleet's stacks on one
 * machine), the second before the first 429 can count fewer requests than the API did (told of
 * late, or their first connections opened late; not traced further): in one bench run of 50
 * stacks on one machine in five, the rate, capped just under that measure, sent 6 to 7 a second
 * of a limit of 10 for 40 s. So the rate grows past such a limit (keySchedule.ts `growRate`, up to
 * `PACER.lowerBoundReach` times it) until the next congestion measures the limit again. A lone
 * client's slow start counts all of its own requests: its measure stands.
 */
export function measuredLow(s: KeySchedule, now: number): boolean {
  return s.slowStart && s.declared !== true && activeMembers(s, now) > 1;
}
