/**
 * The send schedule the clients of one API key on one machine share once the key is limited
 * (sharedSchedule.ts keeps it in a file; pacer.ts claims its turns from it): one rate for all
 * of them together, and the next free send slot. A client claims slots for the requests it
 * has queued, a few at a time, and gets them in the order the claims came, evenly spaced at the
 * rate: so the clients' requests together leave at the rate, and each client gets its turns in
 * round robin with the others (a client with many requests queued claims again only once its
 * slots are used, so none is starved while another finishes).
 *
 * The rate adapts as a lone client's does (pacer.ts), on what all the clients see: a 429 sets
 * it to 90% of what the API accepted of the machine's requests in the second before it (the
 * slots sent, less the 429s), at most the current rate (a measure within 20% below the limit
 * known keeps that limit: {@link judgedLimit}); a `RateLimit-Policy` the API announces
 * sets it to 90% of that; `RateLimit` with nothing left cuts it by 10% (another machine uses
 * the key too); while the clients want more than the rate, it grows 10% a second up to 93% of
 * the limit, and beyond, 5% a second, only after 30 s without a 429 and never past a declared
 * limit (a limit the slow start of several clients measured is a lower bound: the rate grows
 * past it at 10% a second, to twice it, until the next congestion measures it). Until the first of these
 * (`slowStart`) it doubles every 250 ms in which clients wanted more. A `Retry-After` holds every
 * slot until it has passed.
 *
 * The measure of a limit counts each request when it left: a client tells the schedule, at its
 * next claim, when its requests left on their slots ({@link sent}) and which slots it did not
 * use ({@link unused}); on a busy machine a request leaves late, and the slots given say little
 * of what the API counted. Until the slow start's limit is measured, they also tell when the
 * answers of the requests the API accepted came ({@link answered}): a request that left before
 * the second measured may have reached the API within it (limitMeasure.ts). A congestion's
 * first 429 measures at once and again half a second later, when its requests have all been
 * told of. A new congestion voids every slot given before it (the clients give theirs back and
 * claim again): spaced at the rate before the cut, they would meet the limit again.
 *
 * A fleet told its size (fleetSlots.ts `fitFleet`) paces otherwise: the machine's turns
 * are its slot's on the fleet's grid, one a cycle, its rate fixed by the grid; a 429 of the
 * limit's own moves its slot and measures nothing. Pure: the clock is an argument.
 */

import { countTurns, sitsOut } from "./fairTurns";
import { gridTurns, moveSlot, turnFrom } from "./fleetSlots";
import { acceptedBefore, firstRefused, judgedLimit, measuredLow, RECURRING_MS, unpausedMs } from "./limitMeasure";
import { activeMembers, type KeySchedule, PACER, RECENT, refusalPauseMs } from "./schedule";
import type { LimitFields } from "./limitFields";
import { RETRY_AFTERS_KEPT } from "./ownRefusals";
import { holdJitterMs, pacedAsShare, shareCutRate, shareGrown } from "./shareRate";

/** A slow start whose schedule was left this long starts again from {@link PACER.initialRate}. */
const IDLE_RESTART_MS = 2_000;
function forgetBefore(list: number[], time: number): void {
  while (list.length > 0 && list[0] < time) list.shift();
}

/**
 * The rate's growth since its last change, when its step has passed (see the module comment):
 * the schedule's, at each claim, and a lone client's (pacer.ts), before each send.
 */
export function growRate(s: KeySchedule, now: number): void {
  if (s.fleet !== undefined) {
    // On a fleet's grid the rate is the grid's.
    s.grownAt = now;
    s.wanted = false;
    s.refusedSince = false;
    return;
  }
  if (now - s.grownAt < (s.slowStart ? PACER.slowStartStepMs : 1_000)) return;
  if (s.wanted && !s.refusedSince) {
    // A share of a key others use too, on machines of their own: additive increase (shareRate.ts).
    if (!s.slowStart && pacedAsShare(s)) s.rate = shareGrown(s, now);
    else if (!s.slowStart && s.share === true) {
      // A share the API's `RateLimit` fields pace (observed) does not grow here: its announced limit says nothing of it.
    } else if (s.slowStart || s.limit === undefined) s.rate *= 2;
    else if (s.declared) s.rate = Math.max(s.rate, Math.min(s.rate * PACER.growth, PACER.belowLimit * s.limit));
    else if (now - s.last429At >= PACER.probeAfterMs) s.rate *= PACER.probe;
    // A limit the slow start of several clients measured is a lower bound (limitMeasure.ts `measuredLow`): grown past, to PACER.lowerBoundReach times it.
    else if (s.lowerBound === true) s.rate = Math.max(s.rate, Math.min(s.rate * PACER.growth, PACER.lowerBoundReach * s.limit));
    else s.rate = Math.max(s.rate, Math.min(s.rate * PACER.growth, PACER.belowLimit * s.limit));
  }
  s.grownAt = now;
  s.wanted = false;
  s.refusedSince = false;
}

/**
 * Gives `member` the next `n` send slots (epoch ms, ascending), evenly spaced at the rate
 * after every slot already given and after any pause; `forWrites` when the client has writes
 * queued: none when it sits out for fairness (fairTurns.ts; it claims again once the slots
 * given so far have passed, `s.next`). A next slot further ahead than the active clients'
 * claims can reach (a clock that jumped, claims of clients that are gone) is not waited for.
 */
export function claimSlots(s: KeySchedule, now: number, member: string, n: number, forWrites = false): number[] {
  if (forWrites) s.writesAt = now;
  // A slow start left idle starts again from the beginning: what was wanted then says nothing of now.
  if (s.slowStart && now - s.updatedAt > IDLE_RESTART_MS) s.rate = PACER.initialRate;
  measureAgain(s, now);
  growRate(s, now);
  s.members[member] = now;
  const gap = 1_000 / s.rate;
  const reach = now + (activeMembers(s, now) + n) * gap * 4 + 1_000;
  const next = s.next > reach ? now : s.next;
  const start = Math.max(now, next, s.pausedUntil);
  if (start > now) s.wanted = true;
  if (forWrites && sitsOut(s, now, member, gap)) {
    s.updatedAt = now;
    return [];
  }
  if (forWrites) countTurns(s, now, member, n);
  const g = s.fleet;
  const slots =
    g === undefined
      ? Array.from({ length: n }, (_, i) => start + i * gap)
      : gridTurns(g, Math.max(turnFrom(g, now), next, s.pausedUntil), n);
  s.next = g === undefined ? start + n * gap : slots[n - 1] + g.slotMs;
  forgetBefore(s.slots, now - 7_000);
  s.slots.push(...slots);
  if (s.slots.length > RECENT) s.slots.splice(0, s.slots.length - RECENT);
  s.updatedAt = now;
  return slots;
}

/** How long after a congestion's first 429 its measure of the limit is taken again: its requests have all been told of by then. */
const REMEASURE_MS = 500;

/**
 * A congestion's measure taken again once its requests have all been told of (see
 * {@link refused}): the limit judged from it ({@link judgedLimit}), the rate set to 90% of that.
 */
function measureAgain(s: KeySchedule, now: number): void {
  if (s.remeasure === undefined || now < s.remeasure.at) return;
  const accepted = acceptedBefore(s, firstRefused(s, s.remeasure.ref));
  const prior = s.remeasure.prior;
  delete s.remeasure;
  delete s.answers;
  if (accepted < 2) return;
  const limit = s.declared ? accepted : judgedLimit(prior, accepted);
  if (!s.declared) s.limit = limit;
  s.rate = Math.max(PACER.minRate, limit * PACER.afterLimit);
}

/**
 * Slots a client claimed and did not use (a pause or a 429 came first): they are no longer
 * counted as sent when a 429 measures what the API accepted.
 */
export function unused(s: KeySchedule, slots: readonly number[]): void {
  if (slots.length === 0) return;
  const gone = new Set(slots);
  s.slots = s.slots.filter((t) => !gone.has(t));
}

/**
 * When the clients' requests left on their slots (`[slot, sent]`, epoch ms): each slot given
 * is counted at the time its request left from then on. Under load a request leaves late, and
 * the API counts it then: a 429 measures what the API accepted in the second before it by when
 * the requests left, not by their turns.
 */
export function sent(s: KeySchedule, reports: readonly (readonly [number, number])[]): void {
  if (reports.length === 0) return;
  const at = new Map(reports);
  s.slots = s.slots.map((t) => at.get(t) ?? t);
}

/** True while the answers' times may still be needed: in the slow start, and until its first congestion is measured again. */
export function measuringSlowStart(s: KeySchedule): boolean {
  return s.slowStart || (s.answers !== undefined && s.remeasure !== undefined);
}

/** How long an answer's time is kept: a measure counts only the answers that came after the second before its first refused request began. */
const ANSWERS_KEPT_MS = 3_000;
/** A round trip shorter than this puts its middle within half of it of when its request left: that time tells well enough, and the answer is not kept. */
export const LONG_ROUND_TRIP_MS = 100;

/**
 * When requests the API accepted left, and when their answers came (`[left, answered]`, epoch ms),
 * told at `now`: round trips of {@link LONG_ROUND_TRIP_MS} or more are kept while {@link measuringSlowStart}
 * (a process's first requests, opening their connections, reach the API well after they left).
 */
export function answered(s: KeySchedule, now: number, answers: readonly (readonly [number, number])[]): void {
  if (!measuringSlowStart(s)) {
    delete s.answers;
    return;
  }
  const long = answers.filter(([left, at]) => at - left >= LONG_ROUND_TRIP_MS).map(([left, at]): [number, number] => [left, at]);
  s.answers = [...(s.answers ?? []), ...long].filter(([, at]) => at >= now - ANSWERS_KEPT_MS).slice(-RECENT);
}

/**
 * A 429 of the limit's own (ownRefusals.ts `limitsOwn`) met at `now`. The first of a congestion (none in
 * the second before) measures the limit: with a second of sending before it (no hold then) that
 * held at least {@link PACER.fewToTell} accepted requests, the rate is cut to 90% of what the API
 * accepted in that second (the slots sent then, less the 429s), at most the current rate, and
 * measured again half a second later, when the clients have told which of those slots they used,
 * when, and which met a 429 too (then the rate is set to 90% of that). With fewer, or a hold in
 * that second, it counts what the API accepted over the last {@link PACER.shareWindowMs} while the
 * key was not held (a small share of a key others use too, on machines of their own: half a
 * request a second of ten), and the rate is cut to 90% of that, and by 10% at least; nothing
 * accepted, a share at the least rate, unless the refused request was the first in
 * {@link PACER.shareWindowMs} (a lone stack's first request meets a gateway's 429 as a fleet's
 * meets the others' turns): that proves nothing ({@link KeySchedule.unproven}), the rate is cut
 * to {@link PACER.unprovenRate} at most, and the next congestion measures as above, a hold in its
 * second or not. One within a second of the last is the same congestion, and changes nothing
 * more, and so, after a refusal that proved nothing, is one sent at the end of its hold with
 * nothing accepted since ({@link sameCongestion}). `slot` is when the refused
 * request left (`now` when unknown): the slots before it (each at the time its request left, once
 * told: {@link sent}) are what the API had accepted when it refused it, less those it refused too,
 * unless the caller counts them (`counted`: a client pacing alone counts its own answers, and
 * says when its first request left). `retryAfterSeconds` (200 ms for a bare 429) holds every slot when `pause`, and a
 * jitter of up to a turn at the rate more (`random`), so that the flows refused together do not
 * come back together.
 */
export function refused(
  s: KeySchedule,
  now: number,
  retryAfterSeconds: number | undefined,
  pause: boolean,
  slot = now,
  counted?: { count: (windowMs: number, ref: number) => number; since: number },
  random: () => number = Math.random,
): void {
  // Each request counted by its slot, in the schedule's time (a request leaves a little after its slot, its answer later).
  const sentAt = Math.min(now, slot);
  forgetBefore(s.refusals, now - 7_000);
  s.refusals.push(sentAt);
  s.refusals.sort((a, b) => a - b);
  // After a first refusal that proved nothing, the requests refused again at the end of its hold are of it still.
  const newCongestion = now - s.last429At >= 1_000 && !(s.unproven === true && sameCongestion(s, sentAt));
  // A congestion measured over a second of sending is the limit's beyond doubt: what it asks to wait is the limit's window.
  // On a fleet's grid a 429 moves the machine's slot (the one it met), and measures nothing.
  if (s.fleet !== undefined) moveSlot(s.fleet, sentAt, random);
  const measured = newCongestion && s.fleet === undefined && measureCongestion(s, now, sentAt, counted);
  if (measured && retryAfterSeconds !== undefined) s.retryAfters = [...(s.retryAfters ?? []), retryAfterSeconds].slice(-RETRY_AFTERS_KEPT);
  if (newCongestion) {
    s.last429At = now;
    // The slots given before are void (their clients give them back, pacer.ts): the next go from now, at the rate cut.
    s.next = now;
  }
  s.slowStart = false;
  s.refusedSince = true;
  s.grownAt = now;
  s.wanted = false;
  if (pause) {
    const until = now + refusalPauseMs(retryAfterSeconds) + (s.fleet === undefined ? holdJitterMs(s, random) : 0);
    if (until > s.pausedUntil) s.pauses = [...(s.pauses ?? []).filter(([, b]) => b >= now - PACER.shareWindowMs), [now, until]];
    s.pausedUntil = Math.max(s.pausedUntil, until);
    s.next = Math.max(s.next, s.pausedUntil);
  }
  s.updatedAt = now;
}

/**
 * True when a 429 of a request sent at `sentAt` is of the last congestion still: sent before its
 * hold ended and one turn (at the rate) more, nothing the API accepted since that congestion. A
 * request refused and sent again after its `Retry-After` (the first to leave then) meets what held
 * it, or a gateway that refuses it again: it says nothing new of the rate. {@link refused} asks
 * this after a first refusal that proved nothing ({@link KeySchedule.unproven}): in a lone stack's
 * create through four 429s of `Retry-After: 1`, the second made it a share of the least rate. A
 * share's own congestions stay apart (the fleet model met 3 % more 429s when they did not).
 */
export function sameCongestion(s: KeySchedule, sentAt: number): boolean {
  return s.last429At >= 0 && sentAt <= s.pausedUntil + 1_000 / s.rate && acceptedBefore(s, sentAt, sentAt - s.last429At) === 0;
}

/** A new congestion's measure of the limit, and the rate's cut (see {@link refused}); true when a second of sending measured it. */
function measureCongestion(
  s: KeySchedule,
  now: number,
  sentAt: number,
  counted?: { count: (windowMs: number, ref: number) => number; since: number },
): boolean {
  const ref = firstRefused(s, sentAt);
  const count = (windowMs: number): number => counted?.count(windowMs, ref) ?? acceptedBefore(s, ref, windowMs);
  // Counted from the first request known (a flow that started a moment ago has not been sending for seconds).
  const since = Math.max(ref - PACER.shareWindowMs, counted?.since ?? s.slots[0] ?? ref);
  const held = s.pausedUntil > sentAt - 1_000;
  const inSecond = held ? 0 : count(1_000);
  // The congestion after a first refusal that proved nothing (below) tells.
  const firstProof = s.unproven === true;
  delete s.unproven;
  const prior = s.declared || now - s.last429At < RECURRING_MS ? undefined : s.limit;
  if (inSecond >= PACER.fewToTell) {
    // Measured now, and again once the congestion's requests have all been told of: slots given for
    // the second before may not have been sent yet, or been refused too (their 429s come back in any order).
    // The slow start's answers are kept, and told, until then (measuringSlowStart).
    if (counted === undefined) {
      s.remeasure = { at: now + REMEASURE_MS, ref: sentAt, ...(prior === undefined ? {} : { prior }) };
      if (s.slowStart) s.answers ??= [];
    }
    const limit = s.declared ? inSecond : judgedLimit(prior, inSecond);
    if (!s.declared) s.limit = limit;
    // Until a congestion measures it again, a lower bound (a hold's, a share's measure it tells nothing of).
    if (measuredLow(s, now)) s.lowerBound = true;
    else delete s.lowerBound;
    s.share = false;
    s.rate = Math.max(PACER.minRate, Math.min(s.rate, limit * PACER.afterLimit));
    return true;
  }
  // Too few in a second to tell, or a hold in it: what the API accepted over the last seconds while the key was not held.
  const open = unpausedMs(s, since, ref);
  const got = (count(ref - since) * 1_000) / Math.max(PACER.shareMinWindowMs, open);
  if (got === 0 && s.share !== true && !firstProof && s.slots.filter((t) => t > ref - PACER.shareWindowMs && t <= ref).length <= 1) {
    // The first request in seconds, refused: a gateway's 429 as well as others on the key. Not proof of
    // either: the key is held, the rate cut to PACER.unprovenRate at most, and the next congestion tells.
    s.unproven = true;
    s.rate = Math.min(s.rate, PACER.unprovenRate);
    return false;
  }
  if (held && s.share !== true && !firstProof) {
    // Sent again too fast after a hold: 10% less.
    s.rate = Math.max(PACER.minRate, s.rate * PACER.exhaustedCut);
    return false;
  }
  if (got === 0) {
    // Nothing accepted yet (its first request refused): others use the key; a share from now on, at the least rate (shareRate.ts).
    s.rate = pacedAsShare(s) ? shareCutRate(s.rate) : PACER.minRate;
    s.share = true;
    return false;
  }
  // A share of a key others use too: its limit is this machine's share (kept, as a limit is, when the measure is close to it).
  const limit = judgedLimit(prior, got);
  const wasShare = pacedAsShare(s);
  s.share = true;
  if (!s.declared) s.limit = limit;
  // Already a share: multiplicative decrease (shareRate.ts).
  if (wasShare) {
    s.rate = shareCutRate(s.rate);
    return false;
  }
  // A flow that got close to its rate met a turn others took at the same moment, not a rate too high: a cut would only set the flows adrift.
  if (got < s.rate * (1 - PACER.collisionBand)) s.rate = Math.max(PACER.shareMinRate, got * PACER.afterLimit);
  return false;
}

/**
 * The API announced its limit (`RateLimit-Policy`): `perSecond` requests a second, paced at 90% of
 * it, unless the same answer showed `others` using the key (more of the quota used than this
 * machine sent): then the slow start goes on, capped by it, until a 429 measures this machine's share.
 */
export function declared(s: KeySchedule, now: number, perSecond: number, others = false): void {
  if (s.declared && s.limit === perSecond) return;
  s.limit = perSecond;
  s.declared = true;
  // With others on the key, its limit is not this machine's: the slow start goes on (capped by it) until a 429 measures its share.
  if (others && s.slowStart) {
    s.rate = Math.min(s.rate, perSecond * PACER.afterLimit);
  } else {
    s.slowStart = false;
    s.rate = Math.max(PACER.minRate, perSecond * PACER.afterLimit);
  }
  s.grownAt = now;
  s.updatedAt = now;
}

/**
 * What an answer's `RateLimit` fields say of the key's quota now (`remaining` of `perSecond` a
 * second, over `windowSeconds`), given `own`, the requests of this machine's the API accepted in
 * the last window. When others use the key too (the quota used is more than this machine's), it
 * is their share and this machine's that the fields pace, as congestion control paces flows on a
 * shared link, without a 429 to tell: with all of the quota used ({@link PACER.fieldsHigh}) the
 * rate is cut by 15%, with less than 70% used ({@link PACER.fieldsLow}) it grows by 1% of the limit
 * a window ({@link PACER.fieldsStep}; additive increase, multiplicative decrease: flows that started
 * apart converge on equal shares), at most once a window, and not within a second of a 429
 * (whose measure says more). Alone, the announced limit paces it ({@link declared}).
 */
export function observed(s: KeySchedule, now: number, fields: LimitFields, own: number): void {
  const { perSecond, remaining } = fields;
  // On a fleet's grid the rate is the grid's.
  if (s.fleet !== undefined) return;
  if (perSecond === undefined || remaining === undefined || perSecond <= 0) return;
  const windowMs = (fields.windowSeconds ?? 1) * 1_000;
  if (now - (s.cutAt ?? -Infinity) < windowMs || now - s.last429At < 1_000) return;
  const quota = (perSecond * windowMs) / 1_000;
  const used = quota - remaining;
  const sent = Math.max(own, s.slots.filter((t) => t >= now - windowMs && t <= now).length);
  // Others use little of it, or this machine used most of the quota itself: it met its own limit, which its rate paces.
  if (used - sent < 1 || sent >= PACER.exhaustedOwnShare * quota) return;
  // The growth is for every window since the last change (a flow with a small share hears from the API seldom).
  const windows = Math.min(5, (now - (s.cutAt ?? now - windowMs)) / windowMs);
  if (used >= PACER.fieldsHigh * quota) s.rate = Math.max(PACER.minRate, s.rate * PACER.fieldsCut);
  else if (used < PACER.fieldsLow * quota) s.rate = Math.min(PACER.belowLimit * perSecond, s.rate + windows * PACER.fieldsStep * perSecond);
  else return;
  s.share = true;
  s.slowStart = false;
  s.cutAt = now;
  s.grownAt = now;
  s.wanted = false;
  s.updatedAt = now;
}
