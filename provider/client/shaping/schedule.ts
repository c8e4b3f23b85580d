/**
 * The record of one API key's pacing (what a shared schedule's file holds: sharedSchedule.ts),
 * its tunables, and what reads it. The rules that change it are keySchedule.ts's; fairTurns.ts
 * and limitMeasure.ts read it too, so it stands apart from all three (no import runs back).
 */

/** Tunables of the pacing (the lone client's and the shared schedule's; exported for tests and the README). */
export const PACER = {
  /** Rate before anything is known of the API's limit, requests per second. */
  initialRate: 20,
  /**
   * Before the first 429 the rate doubles every this many ms in which requests queued (slow
   * start: from 20/s, 40 creates against 10 requests a second met one refusal there, while
   * 1,000 writes still leave within 2 s).
   */
  slowStartStepMs: 250,
  /** The rate never goes below this, requests per second. */
  minRate: 0.5,
  /** Share of the measured limit the rate is set to after a 429. */
  afterLimit: 0.9,
  /** Growth per second while requests queue, up to {@link PACER.belowLimit} of the measured limit. */
  growth: 1.1,
  /** Share of the measured limit the rate grows to without probing. */
  belowLimit: 0.93,
  /** Growth per second beyond that, once no 429 came for {@link PACER.probeAfterMs}. */
  probe: 1.05,
  /** Time without a 429 after which the rate may probe above the measured limit. */
  probeAfterMs: 30_000,
  /**
   * How far a limit taken as a lower bound (limitMeasure.ts `measuredLow`: the slow start of
   * several processes measured 6 to 7 of 10) lets the rate grow past it, at {@link PACER.growth}
   * a second, before a congestion measures the limit again: a bound that was the limit costs one
   * congestion, and clients that want more than they send do not raise the rate without end.
   */
  lowerBoundReach: 2,
  /** Added to every `Retry-After`, so that no request is early on a coarse clock. */
  retryAfterMarginMs: 25,
  /**
   * A 429 without `Retry-After` holds the key's requests this long: the API said "too many
   * now", not how long; the rate's cut does the rest (a whole second, for every stack of a
   * fleet, cost more than the 429s it saved).
   */
  bareRefusalPauseMs: 200,
  /**
   * A first request in seconds refused, nothing accepted before it, proves neither others on the
   * key nor a gateway's 429: the rate is cut to this at most (requests per second), and the next
   * congestion tells (keySchedule.ts `refused`).
   */
  unprovenRate: 5,
  /** A congestion whose second before holds fewer accepted requests than this measures what they got over {@link PACER.shareWindowMs} instead. */
  fewToTell: 3,
  /**
   * ...how far back: a flow that gets a small share of a key others use too (a stack among twenty
   * on machines of their own gets half a request a second of ten) counts too few in a second.
   */
  shareWindowMs: 5_000,
  /**
   * ...and over this long at least: a flow's first congestion comes a moment after it started, when
   * one request more or less would make its measure twice or half another's (the stacks of a fleet
   * would start at rates far apart, and finish so).
   */
  shareMinWindowMs: 2_000,
  /**
   * A congestion measured over {@link PACER.shareWindowMs} cuts the rate only when what the flow
   * got fell this share below its rate: closer, its refused request met others' at the same moment
   * (a turn that falls where others' do), and the jitter of the hold moves its turns; a cut would
   * set the flows adrift of each other, and meet more.
   */
  collisionBand: 0.2,
  /**
   * A flow whose limit is its share of a key others use too, on machines of their own (shareRate.ts),
   * grows by this share of it a second while it wants more (additive increase)...
   */
  shareStep: 0.02,
  /** ...and by {@link PACER.growth} a second once no 429 came for this long. */
  shareQuietMs: 5_000,
  /** A congestion it meets as a share cuts its rate to this share of it (multiplicative decrease)... */
  shareCut: 0.85,
  /** ...down to this rate at least, requests per second (half the least rate of any other client: 20 stacks on a key of 10 a second get half a request a second each). */
  shareMinRate: 0.25,
  /**
   * The longest jitter added to a hold of the key after a 429 (at most one turn at the rate): the
   * stacks refused in one congestion come back one by one, not together into the next.
   */
  holdJitterMs: 1_000,
  /** The rate's cut when the API says nothing is left of the key's quota (`RateLimit: r=0`), at most once a second. */
  exhaustedCut: 0.9,
  /** ...unless this machine sent at least this share of the quota in the last second: then it met its own limit, not others'. */
  exhaustedOwnShare: 0.8,
  /** With others on the key, the `RateLimit` fields saying this share of the quota is used cut the rate... */
  fieldsHigh: 1,
  /** ...by this factor (at most once a window)... */
  fieldsCut: 0.85,
  /** ...and saying less than this share is used grow it... */
  fieldsLow: 0.7,
  /** ...by this share of the limit (at most once a window). */
  fieldsStep: 0.01,
  /**
   * The send slots that passed in the last this many ms are used at once: a timer fires a
   * millisecond or more after it was due (Node's timers are whole milliseconds), so without
   * them the pacer would send one request a tick, never more than 1,000 a second, whatever
   * its rate. An idle pacer saves up no more than this.
   */
  lateSlotsMs: 4,
  /**
   * A waiter's poll that waited this long for its turn behind the client's other requests is
   * let go unsent: what it would read was chosen when it was queued (its own resource, before
   * the limit was known), and its wait's next poll chooses again (the machine's shared list,
   * once the key is limited). In a fleet of 20 stacks, each stack's first polls otherwise left
   * 15 to 20 s later, in the middle of the fleet's writes, one turn each.
   */
  pollStaleMs: 1_000,
} as const;

/** How long a 429 holds the key's requests: its `Retry-After` (and a margin), or {@link PACER.bareRefusalPauseMs} without one. */
export function refusalPauseMs(retryAfterSeconds: number | undefined): number {
  return retryAfterSeconds === undefined ? PACER.bareRefusalPauseMs : retryAfterSeconds * 1_000 + PACER.retryAfterMarginMs;
}

/** A machine's place on the grid of a fleet told its size (fleetSlots.ts), as its schedule keeps it. */
export interface FleetGrid {
  /** The machines it was made for. */
  machines: number;
  /** The limit it was made for, requests per second. */
  perSecond: number;
  /** A slot's length, ms. */
  slotMs: number;
  /** Slots a cycle. */
  cycle: number;
  /** The slot of the cycle this machine owns. */
  owned: number;
  /** Slots of the cycle a 429 met, by index, to the slot number until which they are not drawn. */
  avoid: Record<string, number>;
  /** The machine's number in the fleet it was made for, when it was told one: its slot, kept (fleetSlots.ts `newGrid`). */
  index?: number;
}

/** The shared schedule of one key (what its file holds). */
export interface KeySchedule {
  readonly v: 1;
  /** Requests per second the machine's clients of the key send together, at most. */
  rate: number;
  /** True until the limit shows (a 429, a policy): the rate doubles while wanted. */
  slowStart: boolean;
  /** The key's limit, requests per second: measured after a 429, or declared by `RateLimit-Policy`. */
  limit?: number;
  /** True when {@link KeySchedule.limit} is the API's own (`RateLimit-Policy`). */
  declared?: boolean;
  /** True when {@link KeySchedule.limit} was measured as a share (too few requests in a second to tell the key's limit: others use it too). */
  share?: boolean;
  /** True when {@link KeySchedule.limit} is a lower bound (limitMeasure.ts `measuredLow`): the rate grows past it until the next congestion. */
  lowerBound?: boolean;
  /** The next free send slot (epoch ms). */
  next: number;
  /** No slot before this (epoch ms): a `Retry-After`. */
  pausedUntil: number;
  /** The last 429 (epoch ms). */
  last429At: number;
  /** The last change of the rate (epoch ms). */
  grownAt: number;
  /** A claim had to wait since then: the clients want more than the rate. */
  wanted: boolean;
  /** A 429 came since then. */
  refusedSince: boolean;
  /** The last change of the rate for what the `RateLimit` fields said (epoch ms). */
  cutAt?: number;
  /**
   * A congestion's measure of the limit taken again `at` (epoch ms), of the second before `ref`
   * (see {@link refused}); `prior`, the limit as measured before that congestion.
   */
  remeasure?: { at: number; ref: number; prior?: number };
  /** The slots given out in the last seconds, oldest first (epoch ms; at most {@link RECENT}). */
  slots: number[];
  /** A first refusal proved nothing yet (see {@link PACER.unprovenRate}): the next congestion measures as a share, whether the key was held in the second before it or not. */
  unproven?: boolean;
  /** When the requests the API answered 429 in the last seconds were sent, oldest first (epoch ms). */
  refusals: number[];
  /** The holds of the key after a 429 in the last seconds, `[from, until]` (epoch ms): a measure counts the time between them. */
  pauses?: [number, number][];
  /** The `Retry-After`s of the limit's own last refusals (seconds): one much longer than these is not the limit's. */
  retryAfters?: number[];
  /** Until the slow start's limit is measured: when each request the API accepted left, and when its answer came (epoch ms; {@link answered}). */
  answers?: [number, number][];
  /** The last claim of turns for writes (epoch ms): while writes wait, lists are read for the machine seldom (sharedLists.ts). */
  writesAt?: number;
  /** Each client's turns for writes, and its last claim of them (epoch ms), by member (fairTurns.ts). */
  writeTurns?: Record<string, { n: number; at: number }>;
  /** Each client's last claim (epoch ms), by a name that is not its process's. */
  members: Record<string, number>;
  /** How many waits of each client each list serves, and when it said so (sharedLists.ts). */
  waits?: Record<string, { at: number; on: Record<string, number> }>;
  /** Each list read for the machine (sharedLists.ts): when it was last sent, its length, who reads it now (until when), when its last service is due. */
  lists?: Record<string, { sentAt: number; items: number; by?: string; until?: number; dueAt?: number }>;
  /** The machine's place on the grid of a fleet told its size (fleetSlots.ts): its turns are its slot's, its rate the grid's. */
  fleet?: FleetGrid;
  /** The last change of this record (epoch ms). */
  updatedAt: number;
}

/** The most slots (and 429s) remembered: the measure of a limit saturates there (requests per second). */
export const RECENT = 1_024;
/** A client counts as sharing the key this long after its last claim. */
export const MEMBER_ACTIVE_MS = 5_000;

/** A schedule for a key nothing is known of yet, at `now`. */
export function newSchedule(now: number): KeySchedule {
  return {
    v: 1,
    rate: PACER.initialRate,
    slowStart: true,
    next: now,
    pausedUntil: 0,
    last429At: -1,
    grownAt: now,
    wanted: false,
    refusedSince: false,
    slots: [],
    refusals: [],
    members: {},
    updatedAt: now,
  };
}

/** Clients that claimed within {@link MEMBER_ACTIVE_MS} of `now`. */
export function activeMembers(s: KeySchedule, now: number): number {
  return Object.values(s.members).filter((at) => now - at < MEMBER_ACTIVE_MS).length;
}

/**
 * Forgets the clients of `s` that `gone` names (their processes ended): they no longer count
 * as sharing the key. When no other client than `self` claimed lately, the slots the gone
 * ones were given and never used are void too: the next slot comes at most one gap (at the
 * rate) after `now`, so the key's spacing still holds after their last request. Pure.
 *
 * @returns true when a client was forgotten.
 */
export function forgetGone(s: KeySchedule, now: number, gone: (member: string) => boolean, self: string): boolean {
  const ended = Object.keys(s.members).filter((m) => m !== self && gone(m));
  if (ended.length === 0) return false;
  for (const m of ended) delete s.members[m];
  const others = Object.entries(s.members).some(([m, at]) => m !== self && now - at < MEMBER_ACTIVE_MS);
  if (!others) s.next = Math.min(s.next, now + 1_000 / s.rate);
  return true;
}

/** How long after the last claim for writes the machine's clients count as writing. */
export const WRITES_FRESH_MS = 1_000;

/** True while a client of the machine claimed turns for writes within {@link WRITES_FRESH_MS} of `now`. */
export function writesWaiting(s: KeySchedule, now: number): boolean {
  return s.writesAt !== undefined && now - s.writesAt < WRITES_FRESH_MS;
}
