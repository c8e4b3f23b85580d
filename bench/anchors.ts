/**
 * The anchors' poll schedules, computed for the same readiness time T as a figure of this
 * tree: the Terraform provider polls first after 30 s and then every 15 s; tiger-cli every
 * second. Each create polls for itself (no sharing), so N creates cost N times one
 * create's polls, and each is seen as late as its schedule makes it.
 */

/** What one create costs and how late its readiness is seen, for a schedule and a readiness time. */
export interface Detection {
  /** Polls made, the one that sees readiness included. */
  polls: number;
  /** From readiness to that poll, in ms. */
  delayMs: number;
}

/** The first poll at or after `readyAtMs` of a schedule whose polls come at `first`, then every `every` ms. */
function periodic(first: number, every: number, readyAtMs: number): Detection {
  const polls = readyAtMs <= first ? 1 : 1 + Math.ceil((readyAtMs - first) / every);
  return { polls, delayMs: first + (polls - 1) * every - readyAtMs };
}

/** The Terraform provider's schedule: first poll after 30 s, then every 15 s. */
export function terraform(readyAtMs: number): Detection {
  return periodic(30_000, 15_000, readyAtMs);
}

/** tiger-cli's schedule: every second. */
export function tiger(readyAtMs: number): Detection {
  return periodic(1_000, 1_000, readyAtMs);
}

/** A schedule given by its next interval after `elapsedMs` (the first poll after `firstMs`). */
export function byInterval(firstMs: number, interval: (elapsedMs: number) => number, readyAtMs: number): Detection {
  let t = firstMs;
  let polls = 1;
  while (t < readyAtMs) {
    t += interval(t);
    polls++;
  }
  return { polls, delayMs: t - readyAtMs };
}

/** `polls, +delay s` of a detection, for a table cell. */
export function cell(d: Detection): string {
  return `${plural(d.polls, "poll")}, +${(d.delayMs / 1000).toFixed(2)} s`;
}

/** `1 poll`, `2 polls`. */
export const plural = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? "" : "s"}`;
