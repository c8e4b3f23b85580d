/**
 * The fleet model's turns on a common clock's grid (fleetSim.ts `turnGrid`), for a share of a key
 * others use on machines of their own (provider/client/shaping/shareRate.ts): flows that share
 * nothing but the key and the wall clock keep turns that do not meet, as the stations of
 * reservation ALOHA keep their slots. A rule of the model only: it did not lower a fleet's 429s
 * (docs/performance/fleets.md, "Fleets across machines"), so the client does not run it.
 *
 * The wall clock is cut into cycles of a few frames ({@link GRID}), a frame being the limit's
 * window and a margin. A share holds as many turns a cycle as its rate asks (rounded, one at
 * least), each at a moment of the cycle drawn at random, and sends on them only. It keeps a turn
 * while its requests on it are accepted; the turn of a request refused by the limit is drawn
 * again ({@link refusedOnTurn}): the flows that met give up the turns that met, the others keep
 * theirs, and the fleet's turns spread over the cycle until none meets. When the rate grows a
 * turn is drawn more; when it is cut, the turns drawn last go first (those kept longest have
 * proven to meet no one). Paced by their rates alone, flows that send near a limit counted over
 * a sliding window meet it at random however evenly each spaces its own requests
 * (docs/performance/fleets.md, "Fleets across machines": a bound).
 *
 * It assumes the machines' clocks run at the same speed and agree within tens of ms (NTP): an
 * offset moves a flow's turns by that much, which their draw and the frame's margin absorb, and
 * the flows' turns never drift against each other. The turns are the model's, kept beside each
 * schedule ({@link GridTurns}); the schedule's rules (keySchedule.ts) run unchanged, and
 * {@link claimTurns} moves the slots they give onto the turns. Pure: the clock and the randomness
 * are arguments.
 */
import { claimSlots } from "../../provider/client/shaping/keySchedule";
import { limitWindow } from "../../provider/client/shaping/ownRefusals";
import type { KeySchedule } from "../../provider/client/shaping/schedule";
import { pacedAsShare } from "../../provider/client/shaping/shareRate";

/** Tunables of the grid (exported for tests and the README). */
export const GRID = {
  /** A frame is the limit's window and this much more, ms: a request's lateness, its way to the API, and clocks' offsets. */
  marginMs: 100,
  /** Frames a cycle: a share's turns are moments of the cycle (more frames, a finer rate for small shares). */
  cycleFrames: 4,
} as const;

/** A share's turns on the grid: every `cycleMs`, at each of `at` (ms into the cycle, of the epoch), the oldest first. */
export interface Turns {
  cycleMs: number;
  at: number[];
}

/** The cycle of a limit whose window is `windowSeconds`, ms. */
export function cycleMs(windowSeconds: number): number {
  return GRID.cycleFrames * (windowSeconds * 1_000 + GRID.marginMs);
}

/** A moment of a cycle of `cycle` ms drawn at random (`random()` in [0, 1)). */
function draw(cycle: number, random: () => number): number {
  return Math.floor(random() * cycle);
}

/**
 * The turns of a share sending at `rate` a second on cycles of `cycle` ms: `held` kept (all drawn
 * again when the cycle changed), as many as the rate asks, one at least; turns drawn for those
 * missing, the last drawn dropped when there are too many.
 */
export function turnsFor(held: Turns | undefined, rate: number, cycle: number, random: () => number): Turns {
  const want = Math.max(1, Math.round((rate * cycle) / 1_000));
  const kept = held?.cycleMs === cycle ? held.at.slice(0, want) : [];
  while (kept.length < want) kept.push(draw(cycle, random));
  return { cycleMs: cycle, at: kept };
}

/** The next `n` times of `turns` at or after `from` (epoch ms, ascending). */
export function turnTimes(turns: Turns, from: number, n: number): number[] {
  const { cycleMs: cycle, at } = turns;
  const sorted = [...at].sort((a, b) => a - b);
  const base = Math.floor(from / cycle) * cycle;
  const times: number[] = [];
  for (let i = 0; times.length < n; i++) {
    const t = base + Math.floor(i / sorted.length) * cycle + sorted[i % sorted.length];
    if (t >= from) times.push(t);
  }
  return times;
}

/** `turns` with the turn nearest `sentAt` (epoch ms: a request refused on it) drawn again, last. */
export function redrawn(turns: Turns, sentAt: number, random: () => number): Turns {
  const { cycleMs: cycle, at } = turns;
  const phase = ((sentAt % cycle) + cycle) % cycle;
  const distance = (a: number): number => Math.min(Math.abs(a - phase), cycle - Math.abs(a - phase));
  const nearest = at.reduce((best, a, i) => (distance(a) < distance(at[best]) ? i : best), 0);
  return { cycleMs: cycle, at: [...at.filter((_, i) => i !== nearest), draw(cycle, random)] };
}

/** The turns of each schedule the model paces on the grid (a share's; none while its rate alone paces it). */
export type GridTurns = WeakMap<KeySchedule, Turns>;

/**
 * keySchedule.ts `claimSlots` for writes, with a share's slots moved onto its turns on the grid
 * (held in `grid`, drawn with `random`) from where the rate would have put the first: the
 * schedule's next slot after the last of them, and it wants more when the first is ahead of `now`.
 * A schedule its rate alone paces (not a share, or in its slow start) drops its turns and keeps
 * the rate's slots.
 */
export function claimTurns(grid: GridTurns, s: KeySchedule, now: number, member: string, n: number, random: () => number): number[] {
  const even = claimSlots(s, now, member, n, true);
  if (!pacedAsShare(s) || s.slowStart) {
    grid.delete(s);
    return even;
  }
  const turns = turnsFor(grid.get(s), s.rate, cycleMs(limitWindow(s)), random);
  grid.set(s, turns);
  if (even.length === 0) return even;
  const slots = turnTimes(turns, even[0], n);
  s.slots.splice(s.slots.length - n, n, ...slots);
  s.next = slots[n - 1] + 1;
  if (slots[0] > now) s.wanted = true;
  return slots;
}

/** After keySchedule.ts `refused` of a request sent at `sentAt` (the schedule's time): the share's turn it met drawn again. */
export function refusedOnTurn(grid: GridTurns, s: KeySchedule, sentAt: number, random: () => number): void {
  const turns = grid.get(s);
  if (turns !== undefined) grid.set(s, redrawn(turns, sentAt, random));
}
