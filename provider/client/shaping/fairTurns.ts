/**
 * Fair turns for writes among the machine's clients of a key (the stacks of a fleet): turns
 * go in the order they are claimed (keySchedule.ts `claimSlots`), which is round robin once
 * every client claims as soon as its last turn is used, but not in the slow start, when the
 * clients that started first took several turns before the others had claimed one. A stack
 * that took three turns in the fleet's first second ended its writes rounds ahead of the
 * others and was done at 23 s, the last at 35 s.
 *
 * So the schedule counts each client's turns for writes, and a client more than one turn
 * ahead of another that wants turns for writes now sits out (its claim gets no turn; it claims
 * again when the turns given so far have been used), but only while the others' claims fill
 * the schedule: no turn is left unused for fairness. A client that first claims for writes
 * after the slow start counts from the fewest turns of those writing, so a stack started late
 * does not take the turns it missed from the others. Pure: the clock is an argument.
 */
import type { KeySchedule } from "./schedule";

/** Turns a client may be ahead of another writing client before it sits out. */
export const FAIR_AHEAD = 2;

/** A client that claimed no turn for writes this long is forgotten (the record stays small however many stacks came and went). */
const FORGET_MS = 60_000;

/**
 * How long after its last claim for writes a client counts as wanting turns for writes: it
 * claims again as soon as its turn is used, so a round of the schedule (every writing
 * client's turn) and some.
 */
function freshMs(s: KeySchedule, now: number): number {
  return 2 * Math.max(0, s.next - now) + 1_000;
}

/** The fewest turns for writes among the clients but `member` that claimed for writes lately (undefined: none did). */
function fewest(s: KeySchedule, now: number, member: string): number | undefined {
  const fresh = freshMs(s, now);
  let min: number | undefined;
  for (const [m, t] of Object.entries(s.writeTurns ?? {})) {
    if (m !== member && now - t.at < fresh) min = Math.min(min ?? Infinity, t.n);
  }
  return min;
}

/**
 * Whether `member`, claiming turns for writes at `now`, sits out this claim: it is
 * {@link FAIR_AHEAD} turns ahead of a client that wants turns for writes too, and the turns
 * given so far reach more than a turn (`gapMs`) ahead, so others' claims fill the schedule.
 */
export function sitsOut(s: KeySchedule, now: number, member: string, gapMs: number): boolean {
  const mine = s.writeTurns?.[member];
  if (mine === undefined || s.next - now <= gapMs) return false;
  const min = fewest(s, now, member);
  return min !== undefined && mine.n - min >= FAIR_AHEAD;
}

/** Counts `n` turns given to `member` for writes at `now` (a client's first claim counts from the fewest lately, after the slow start). */
export function countTurns(s: KeySchedule, now: number, member: string, n: number): void {
  s.writeTurns ??= {};
  const known = s.writeTurns[member];
  const from = known?.n ?? (s.slowStart ? 0 : (fewest(s, now, member) ?? 0));
  s.writeTurns[member] = { n: from + n, at: now };
  for (const [m, t] of Object.entries(s.writeTurns)) if (now - t.at > FORGET_MS) delete s.writeTurns[m];
}
