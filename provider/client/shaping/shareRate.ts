/**
 * The rate of a share: a client whose key others use too, on machines of their own (a stack of a
 * fleet run on a CI matrix, or by Automation API workers on several hosts), where nothing but the
 * API's answers tells them apart. Its limit ({@link KeySchedule.share}) is its share of the key's,
 * measured over seconds (keySchedule.ts `refused`: too few of its requests in a second to tell the
 * key's limit), and what the others do moves it. So it is paced as congestion control paces the
 * flows of a shared link (additive increase, multiplicative decrease, jitter):
 *
 * - **Additive increase**: while it wants more and no 429 came for {@link PACER.shareQuietMs}, its
 *   rate grows by {@link PACER.shareStep} of its share a second, for each second since the last
 *   change (a flow with a small share claims seldom: growing by a step a claim, the flows with the
 *   smallest shares grew the slowest, and stayed the smallest). Every flow grows by about as much,
 *   whatever its rate: those that started apart come together.
 * - **Multiplicative decrease**: a congestion it meets as a share cuts its rate to
 *   {@link PACER.shareCut} of it: the flows with the most turns meet the most 429s and lose the
 *   most. Not below {@link PACER.shareMinRate}: with 20 stacks on one key of 10 a second, each one's
 *   share is half a request a second, which was the least rate of any client; at that floor they
 *   sent, together, all the limit allowed, and a third of their answers were 429s.
 * - **A first request refused**: nothing accepted yet says the key is used by others: the client
 *   is a share from then on (before, its limit unknown, it doubled its rate every second until a
 *   429 measured one, and a flow that got three requests through in a second took that for the
 *   key's limit and kept four times the others' share). But not at once: the first request in
 *   seconds refused proves nothing (a gateway's 429 looks the same to a lone stack, which then
 *   crawled at the least rate): its rate is cut to {@link PACER.unprovenRate} at most, the
 *   requests refused again at the end of its hold are of it still (keySchedule.ts
 *   `sameCongestion`), and the next congestion measures: nothing accepted, a share at the least
 *   rate; something, a share of what it got.
 * - **Jitter**: the hold after a 429 of a share ends at a moment at random within one of its turns
 *   (a lone client's, within {@link PACER.holdJitterMs} at most): the flows refused together come
 *   back at phases of their own, not into the next congestion together.
 *
 * Without any coordination between them, flows that send together close to a limit counted over
 * any one second meet it often: 20 flows whose sum is 8 a second against 10 put 10 requests in a
 * second about a quarter of the time. These rules trade a few of those 429s for a little time
 * (docs/performance/fleets.md, "Fleets across machines"). Pure: the clock is an argument.
 */
import { type KeySchedule, PACER } from "./schedule";

/** True when the schedule's rate is paced as a share of a key others use, by these rules (and not by the API's announced limit). */
export function pacedAsShare(s: KeySchedule): boolean {
  return s.share === true && s.declared !== true;
}

/** The growth of a share's rate at `now`, when it wants more (see the module comment): additive while 429s come, multiplicative after a quiet time. */
export function shareGrown(s: KeySchedule, now: number): number {
  const seconds = Math.min(5, Math.max(0, now - s.grownAt) / 1_000);
  if (now - s.last429At >= PACER.shareQuietMs) return s.rate * PACER.growth ** seconds;
  return s.rate + PACER.shareStep * (s.limit ?? PACER.minRate) * seconds;
}

/** A share's rate after a congestion it met as a share: cut to {@link PACER.shareCut} of it, not below {@link PACER.shareMinRate}. */
export function shareCutRate(rate: number): number {
  return Math.max(PACER.shareMinRate, rate * PACER.shareCut);
}

/** The jitter added to the hold after a 429 (ms), `random()` in [0, 1): up to a turn at the rate for a share, else at most {@link PACER.holdJitterMs}. */
export function holdJitterMs(s: KeySchedule, random: () => number): number {
  const turn = 1_000 / s.rate;
  return random() * (pacedAsShare(s) ? turn : Math.min(PACER.holdJitterMs, turn));
}
