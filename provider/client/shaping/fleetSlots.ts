/**
 * Turns for a fleet told its size (opt-in: `fleetMachines`, with the key's limit as the API
 * announces it in `RateLimit-Policy`, else as the fleet was told it): machines that share nothing but an API key and the wall clock send on
 * slots of one grid, each machine in a slot of its own, as slotted reservation protocols keep
 * theirs.
 *
 * Time is cut into slots of the limit's window over its quota, lengthened by a guard
 * ({@link FLEET}`.guard`: a request's lateness, its way to the API and the machines' clocks,
 * which NTP keeps within tens of ms): with at most one request a slot, no window of the limit
 * holds more than its quota, whoever sends. A cycle is one slot a machine and a tenth more
 * (one at least) to move into, rounded up to {@link FLEET}`.ladder` (slot `i` of the cycle is
 * every slot whose number since the epoch is `i` modulo the cycle). A machine owns one slot of
 * the cycle, drawn at random; it keeps it while its requests are accepted, and a 429 of the
 * limit's own met in it moves it to a slot it has not seen refused lately: machines whose
 * first draws met find slots apart within a few cycles, and keep them (docs/performance/fleets.md,
 * "Fleets across machines": 5.4 % of 429s and 1.24 × the earliest for 20 machines in the
 * model, where rates alone stay near 28 %). Machines told their numbers in the fleet as well
 * (`index`) meet no other at all: each owns the slot of its number, for good, in a cycle of one
 * slot a machine (docs/performance/fleets.md, "Machines told their numbers").
 *
 * The grid lives in the machine's schedule (keySchedule.ts; sharedSchedule.ts keeps it in the
 * file), so a machine's processes take turns in its one slot. Pure: the clock and the
 * randomness are arguments.
 */
import { type FleetGrid, type KeySchedule, PACER } from "./schedule";

/** Tunables of the fleet's grid (exported for tests and the README). */
export const FLEET = {
  /** A slot is the limit's window over its quota times this. */
  guard: 1.05,
  /** Spare slots a cycle, as a share of the machines (one at least). */
  spare: 0.1,
  /** Cycles are a multiple of this many slots. */
  ladder: 2,
  /** A slot a 429 met is not drawn again for this many cycles. */
  avoidCycles: 3,
  /** A turn is used only within this share of its slot from its start (a late timer does not spill into the next slot). */
  lateShare: 0.25,
} as const;

/** What the fleet was told: how many machines share the key, and its limit when given (else the API's `RateLimit-Policy`). */
export interface FleetOptions {
  /** Machines (each with its own pacing directory) sharing the key at once; 2 or more turns the grid on. */
  readonly machines: number;
  /** The key's limit, requests per second; undefined: the limit the API announces, once it does. */
  readonly limitPerSecond?: number;
  /** This machine's number in the fleet, 0 to `machines` − 1, where each knows its own (a CI matrix's job index, an Indexed Job's): its slot; undefined: a slot drawn at random. */
  readonly index?: number;
}

/** The slots a cycle for `machines` machines: one each and the spare ones, rounded up to {@link FLEET}`.ladder`. */
export function fleetCycle(machines: number): number {
  const spare = Math.max(1, Math.round(machines * FLEET.spare));
  return Math.ceil((machines + spare) / FLEET.ladder) * FLEET.ladder;
}

/**
 * A new place on the grid for `machines` machines sharing `perSecond` requests a second: the
 * slot of the machine's number `index` in a cycle of one slot a machine (no two meet, so none
 * is spare: the guard leaves what else uses the key its 5 %), or, when it was not told one, a
 * slot drawn at random of a {@link fleetCycle}.
 */
export function newGrid(machines: number, perSecond: number, random: () => number, index?: number): FleetGrid {
  const cycle = index === undefined ? fleetCycle(machines) : machines;
  return {
    machines,
    perSecond,
    slotMs: (FLEET.guard * 1_000) / perSecond,
    cycle,
    owned: index ?? Math.min(cycle - 1, Math.floor(random() * cycle)),
    avoid: {},
    ...(index === undefined ? {} : { index }),
  };
}

/** Requests per second a machine sends on the grid: one a cycle. */
export function gridRate(g: FleetGrid): number {
  return 1_000 / (g.slotMs * g.cycle);
}

/** The starts (epoch ms) of the machine's next `n` slots that start at or after `earliest`. */
export function gridTurns(g: FleetGrid, earliest: number, n: number): number[] {
  const first = Math.ceil(earliest / g.slotMs);
  const k = first + ((((g.owned - first) % g.cycle) + g.cycle) % g.cycle);
  return Array.from({ length: n }, (_, i) => (k + i * g.cycle) * g.slotMs);
}

/** The earliest start a turn may have at `now`: a slot that began less than {@link FLEET}`.lateShare` of it ago is still used. */
export function turnFrom(g: FleetGrid, now: number): number {
  return now - FLEET.lateShare * g.slotMs;
}

/**
 * A 429 of the limit's own met a request that left at `sentAt`: when it left in the slot the
 * machine owns, the machine moves to a slot of the cycle drawn at random among those no 429
 * met in the last {@link FLEET}`.avoidCycles` cycles (any other when none is left). A 429 of a
 * request that left in another slot (before the machine moved) changes nothing, nor any 429
 * of a machine told its number: its slot is its own by the fleet's numbering, every other is
 * another machine's, and what met it came from outside the fleet (a client untold, a gateway).
 */
export function moveSlot(g: FleetGrid, sentAt: number, random: () => number): void {
  if (g.index !== undefined) return;
  const slot = Math.floor(sentAt / g.slotMs);
  if (((slot % g.cycle) + g.cycle) % g.cycle !== g.owned) return;
  g.avoid[String(g.owned)] = slot + FLEET.avoidCycles * g.cycle;
  const others = Array.from({ length: g.cycle }, (_, i) => i).filter((i) => i !== g.owned);
  const open = others.filter((i) => (g.avoid[String(i)] ?? -Infinity) <= slot);
  const pool = open.length > 0 ? open : others;
  if (pool.length > 0) g.owned = pool[Math.floor(random() * pool.length)];
  for (const [i, until] of Object.entries(g.avoid)) if (until <= slot) delete g.avoid[i];
}

/** `value` (from a schedule's file) as a grid, if it reads as one; undefined otherwise. Never throws. */
export function readGrid(value: unknown): FleetGrid | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const g = value as Partial<FleetGrid>;
  const num = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
  if (!num(g.machines) || !num(g.perSecond) || !num(g.slotMs) || !num(g.cycle) || !num(g.owned)) return undefined;
  if (g.slotMs <= 0 || g.cycle < 2 || g.owned < 0 || g.owned >= g.cycle || !Number.isInteger(g.owned)) return undefined;
  const avoid = g.avoid !== null && typeof g.avoid === "object" ? g.avoid : {};
  const index = num(g.index) && Number.isInteger(g.index) && g.index >= 0 && g.index < g.machines ? g.index : undefined;
  return {
    machines: g.machines,
    perSecond: g.perSecond,
    slotMs: g.slotMs,
    cycle: g.cycle,
    owned: g.owned,
    avoid: Object.fromEntries(Object.entries(avoid).filter(([, until]) => num(until))),
    ...(index === undefined ? {} : { index }),
  };
}

/** The limit the grid is made for: the API's announced one (`RateLimit-Policy`), else the one the fleet was told; undefined while neither is known. */
export function fleetLimit(options: FleetOptions, announced: number | undefined): number | undefined {
  return announced ?? options.limitPerSecond;
}

/**
 * Puts the machine on the grid of a fleet told its size (fleetSlots.ts), or takes it off: with
 * `options` of 2 machines or more and a limit known (the API's announced one, else the one the
 * fleet was told), a grid made for them (a new one, its slot the machine's number or drawn
 * with `random`, when the machines, the limit or the number changed), the rate the grid's and
 * the slow start over; otherwise none, and the rules above pace the key again. Every process
 * of a machine is given the same options.
 */
export function fitFleet(s: KeySchedule, now: number, options: FleetOptions | undefined, random: () => number = Math.random): void {
  const perSecond =
    options === undefined || options.machines < 2 ? undefined : fleetLimit(options, s.declared === true ? s.limit : undefined);
  if (options === undefined || perSecond === undefined) {
    if (s.fleet === undefined) return;
    delete s.fleet;
    s.updatedAt = now;
    return;
  }
  if (s.fleet?.machines !== options.machines || s.fleet.perSecond !== perSecond || s.fleet.index !== options.index) {
    s.fleet = newGrid(options.machines, perSecond, random, options.index);
    s.next = now;
    s.updatedAt = now;
  }
  if (s.declared !== true) s.limit = perSecond;
  s.slowStart = false;
  s.rate = gridRate(s.fleet);
}

/**
 * When a client pacing alone (a schedule of its own) may send its next request at `now`, epoch
 * ms: on a fleet's grid its next slot's start (one that began less than {@link FLEET}`.lateShare`
 * of it ago included), after any hold; else its next turn at the rate, after any hold.
 */
export function loneTurn(s: KeySchedule, now: number): number {
  const g = s.fleet;
  return g === undefined ? Math.max(s.pausedUntil, s.next) : gridTurns(g, Math.max(turnFrom(g, now), s.pausedUntil, s.next), 1)[0];
}

/** A client pacing alone sends at `now` on its turn `at` ({@link loneTurn}): its next turn is a slot later on a grid, a gap at the rate later otherwise. */
export function loneSent(s: KeySchedule, now: number, at: number): void {
  s.next = s.fleet === undefined ? Math.max(now - PACER.lateSlotsMs, s.next) + 1_000 / s.rate : at + s.fleet.slotMs;
}

/** True when a turn at `at` given on a fleet's grid comes too late at `now` to be used: it would spill into another machine's slot. */
export function lateOnGrid(s: KeySchedule, now: number, at: number): boolean {
  return s.fleet !== undefined && now - at > FLEET.lateShare * s.fleet.slotMs;
}
