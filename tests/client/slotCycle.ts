/**
 * Self-organizing slots for the fleet model (fleetSim.ts `pacer`), as AIS transponders and slotted
 * reservation MACs keep theirs: flows that share nothing but the key and the wall clock send only
 * in slots of a cycle they own, keep a slot while its requests are accepted, and move out of one a
 * 429 met. A rule of the model only, tried for issue 43 item 2 (docs/performance/fleets.md, "Fleets across
 * machines": self-organizing slots); the client does not run it.
 *
 * Time is cut into slots of the limit's window over its quota, lengthened by a guard
 * ({@link SLOTS}`.guard`: a request's lateness, its way to the API and the clocks' offsets); with
 * at most one request a slot no window of the limit holds more than its quota, whatever the
 * cycle. A cycle is `cycle` slots (slot `i` of the cycle is every slot whose number since the
 * epoch is `i` modulo the cycle); a flow owns some of them ({@link SlotFlow}`.owned`) and sends
 * only in those, at most one request a slot. Its first slot lies within the first window, and for
 * a window after its first request it keeps that one slot and counts.
 *
 * The cycle is sized from the flows the flow counts ({@link SlotFlow}`.flows`): with the API's
 * `RateLimit` fields, the others' requests in the window an accepted answer reports (the quota
 * less what is left, less this flow's own) over this flow's own rate, averaged; without them,
 * from the 429s (more flows on a refusal, once a cycle; fewer after a cycle without one). The
 * cycle is one slot a flow and a few spare ones ({@link SLOTS}`.spare`) for a refused flow to move
 * into, rounded up to a step ({@link SLOTS}`.ladder`), and only grows: a cycle that changes moves
 * every slot in time. A flow owns an equal part of the cycle's slots but the spare ones (a lone
 * flow all of them); those beyond its first it gives up for a cycle when a window was full of
 * others' requests or a 429 came, so that a full key leaves each flow one slot (fair), and takes
 * them again when the count says there is room.
 *
 * Pure: the clock (each flow's machine's, ms) and the randomness are arguments.
 */
import type { FlowPacer, PacerAnswer } from "./fleetSim";

/** Tunables of the rule (exported for tests and the figures). */
export const SLOTS = {
  /** A slot is the limit's window over its quota times this. */
  guard: 1.05,
  /** Spare slots a cycle, as a share of the flows counted (one at least). */
  spare: 0.1,
  /** A request leaves only in the first part of its slot (one that waited its `Retry-After` does not spill into the next slot). */
  sendWithin: 0.25,
  /** How much a new count of the flows weighs against the old (exponential average). */
  weight: 0.3,
  /** Without the fields: the flows counted grow by this factor on a 429 (once a cycle) and shrink by it after a cycle without one. */
  blindStep: 1.5,
  /** A slot a 429 met is not drawn again for this many cycles. */
  failedCycles: 3,
  /** Cycles are multiples of this many slots, so that flows whose counts differ a little agree on the cycle. */
  ladder: 2,
} as const;

/** Options of {@link slotCycle}. */
export interface SlotOptions {
  /** The key's quota a window, as the API announces it (`RateLimit-Policy`); the fields' own, when they come, win. */
  limit: number;
  /** The limit's window, ms. @default 1000 */
  windowMs?: number;
  /** Whether the rule reads the answers' `RateLimit` fields (else it counts the flows from the 429s). @default true */
  useFields?: boolean;
  /** The cycle before the flow has counted anyone, slots. @default twice the limit */
  startCycle?: number;
  /** Told the cycle (every flow the same, e.g. one slot a flow and the spare ones): kept, one slot a flow, nothing counted. The bound of what counting could reach. */
  knownCycle?: number;
  /** The slot's guard. @default SLOTS.guard */
  guard?: number;
  /** The spare share. @default SLOTS.spare */
  spare?: number;
  random: () => number;
}

/** A flow's pacer on slots, its state open for tests. */
export interface SlotFlow extends FlowPacer {
  /** Slots a cycle. */
  cycle: number;
  /** The slots of the cycle the flow owns (indices), the one it started with first. */
  owned: number[];
  /** The flows it counts on the key (itself included). */
  flows: number;
  /** A slot's length, ms. */
  slotMs: number;
}

/** The spare slots a cycle for `flows` flows. */
export function spareSlots(flows: number, spare: number = SLOTS.spare): number {
  return Math.max(1, Math.round(flows * spare));
}

/** The least cycle for `flows` flows: one slot each and the spare ones, rounded up to {@link SLOTS}`.ladder`. */
export function cycleFor(flows: number, spare: number = SLOTS.spare): number {
  return Math.ceil((Math.ceil(flows) + spareSlots(flows, spare)) / SLOTS.ladder) * SLOTS.ladder;
}

/** The slots a flow owns of a cycle of `cycle` when it counts `flows` flows: an equal part of all but the spare ones, one at least. */
export function ownedFor(cycle: number, flows: number, spare: number = SLOTS.spare): number {
  return Math.max(1, Math.min(cycle - 1, Math.floor((cycle - spareSlots(flows, spare)) / Math.max(1, flows))));
}

/** A flow's pacer on self-organizing slots (see the module's comment and {@link SlotOptions}). */
export function slotCycle({
  limit,
  windowMs = 1_000,
  useFields = true,
  startCycle = 2 * limit,
  knownCycle,
  guard = SLOTS.guard,
  spare = SLOTS.spare,
  random,
}: SlotOptions): SlotFlow {
  /** The slot number (since the epoch) each request under way left in, by when it left (local ms). */
  const sentIn = new Map<number, number>();
  /** This flow's accepted requests of the last window, when they left (local ms). */
  const acceptedAt: number[] = [];
  /** Slot indices a 429 met, to the slot number until which they are not drawn. */
  const failed = new Map<number, number>();
  const windowSlots = Math.ceil(limit / guard);
  let perSecond = limit;
  let lastSent = -1;
  let lastChange = -Infinity;
  let lastRefusal = -Infinity;
  let lastFull = -Infinity;
  /** Until this slot number (a window after its first request) the flow keeps one slot and counts the most flows any answer shows. */
  let countUntil = Infinity;
  let counted = false;
  const self: SlotFlow = {
    cycle: knownCycle ?? startCycle,
    owned: [Math.floor(random() * windowSlots)],
    flows: 1,
    slotMs: (guard * windowMs) / limit,
    due,
    answered,
  };

  const slotAt = (now: number): number => Math.floor(now / self.slotMs);

  /** A slot index of the cycle the flow neither owns nor saw fail lately, drawn at random (any it does not own when none is left). */
  function freeSlot(now: number): number {
    const all = [...Array(self.cycle).keys()].filter((i) => !self.owned.includes(i));
    const open = all.filter((i) => (failed.get(i) ?? -1) <= slotAt(now));
    const pool = open.length > 0 ? open : all;
    return pool.length === 0 ? self.owned[0] : pool[Math.floor(random() * pool.length)];
  }

  /** The cycle and the slots owned set again from the flows counted (see the module's comment). */
  function resize(now: number): void {
    if (knownCycle !== undefined) return;
    const cycle = Math.max(self.cycle, cycleFor(self.flows, spare));
    if (cycle !== self.cycle) {
      self.cycle = cycle;
      self.owned = self.owned.filter((i) => i < cycle);
    }
    const oneOnly = slotAt(now) < countUntil || slotAt(now) - lastFull < self.cycle;
    const want = oneOnly ? 1 : ownedFor(self.cycle, self.flows, spare);
    while (self.owned.length > want) self.owned.pop();
    while (self.owned.length < Math.max(1, want)) self.owned.push(freeSlot(now));
  }

  function due(now: number): boolean {
    const slot = slotAt(now);
    // The count's window over: the slots it asks for at once, not at the next answer (a cycle later for one slot).
    if (!counted && slot >= countUntil) {
      counted = true;
      resize(now);
    }
    if (slot === lastSent || now - slot * self.slotMs > self.slotMs * SLOTS.sendWithin) return false;
    if (!self.owned.includes(slot % self.cycle)) return false;
    lastSent = slot;
    if (countUntil === Infinity) countUntil = slot + windowSlots;
    sentIn.set(now, slot);
    return true;
  }

  /** The flows counted from an answer's fields (see the module's comment); whether the window was full of others' requests. */
  function count(now: number, sentAt: number, status: number, perSecondNow: number, remaining: number): boolean {
    if (perSecondNow !== perSecond) {
      perSecond = perSecondNow;
      self.slotMs = (guard * windowMs) / perSecond;
    }
    const quota = (perSecond * windowMs) / 1_000;
    const own = acceptedAt.filter((t) => t > sentAt - windowMs).length;
    const others = Math.max(0, quota - remaining - own);
    const ownRate = (self.owned.length * 1_000) / (self.cycle * self.slotMs);
    const seen = 1 + (others * 1_000) / windowMs / ownRate;
    // A 429 tells that a window was full, not how many flows filled it (a slot two flows met fills one): it counts nothing.
    if (status === 200)
      self.flows = slotAt(now) < countUntil ? Math.max(self.flows, seen) : self.flows + SLOTS.weight * (seen - self.flows);
    return remaining === 0 && others > 1;
  }

  /** The flows counted from the 429s alone (no fields). */
  function countBlind(now: number, status: number): void {
    const at = slotAt(now);
    if (at - lastChange < self.cycle) return;
    if (status !== 200) self.flows *= SLOTS.blindStep;
    else if (at - lastRefusal >= self.cycle) self.flows = Math.max(1, self.flows / SLOTS.blindStep);
    else return;
    lastChange = at;
  }

  function answered({ now, sentAt, status, fields }: PacerAnswer): void {
    const slot = sentIn.get(sentAt) ?? slotAt(sentAt);
    sentIn.delete(sentAt);
    while (acceptedAt.length > 0 && acceptedAt[0] <= sentAt - windowMs) acceptedAt.shift();
    if (status === 200) acceptedAt.push(sentAt);
    let full = status !== 200;
    if (useFields && fields?.remaining !== undefined && fields.perSecond !== undefined)
      full = count(now, sentAt, status, fields.perSecond, fields.remaining) || full;
    else if (!useFields) countBlind(now, status);
    if (full) lastFull = slotAt(now);
    if (status !== 200) {
      // Out of the slot the 429 met, into one not seen fail.
      const index = slot % self.cycle;
      lastRefusal = slotAt(now);
      failed.set(index, lastRefusal + SLOTS.failedCycles * self.cycle);
      const i = self.owned.indexOf(index);
      if (i >= 0) self.owned.splice(i, 1, freeSlot(now));
    }
    resize(now);
  }

  return self;
}
