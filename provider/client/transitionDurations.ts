/**
 * How long transitions took, as this client measured them: the prior of the poll schedule
 * (pollSchedule.ts, `expectedMs`). A transition is named by the resource kind, the status
 * a wait first saw and the awaited statuses, e.g. `service:QUEUED->READY`; its expected
 * duration is the median of the last few measured (with an even count, the mean of the two
 * middle ones), so one slow run does not become the prior.
 */

/** Measurements kept per transition. */
const KEPT = 5;

/** The name of a transition, e.g. `service:QUEUED->READY`. */
export function transitionKey(kind: string, firstStatus: string, awaited: readonly string[]): string {
  return `${kind}:${firstStatus}->${[...awaited].sort().join("|")}`;
}

/** Durations of transitions measured by one client, seeded by `expectedDurations`. */
export class TransitionDurations {
  private readonly measured = new Map<string, number[]>();

  /**
   * @param seed - expected durations by transition name (ms): one value, or the last
   * measurements (oldest first), e.g. {@link TransitionDurations.samples} of an earlier run.
   */
  constructor(seed: Readonly<Record<string, number | readonly number[]>> = {}) {
    for (const [key, given] of Object.entries(seed)) {
      const list = (Array.isArray(given) ? given : [given]).filter(
        (ms): ms is number => typeof ms === "number" && Number.isFinite(ms) && ms > 0,
      );
      if (list.length > 0) this.measured.set(key, list.slice(-KEPT));
    }
  }

  /** Records that `key` took `ms`. Never throws. */
  record(key: string, ms: number): void {
    if (!Number.isFinite(ms) || ms <= 0) return;
    const list = this.measured.get(key) ?? [];
    list.push(ms);
    if (list.length > KEPT) list.shift();
    this.measured.set(key, list);
  }

  /** The expected duration of `key` in ms (median of the last measurements), or undefined when never measured. */
  expected(key: string): number | undefined {
    const list = this.measured.get(key);
    if (list === undefined || list.length === 0) return undefined;
    const sorted = [...list].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }

  /** The last measurements of every transition, oldest first, by name (to save, and seed a later client with). */
  samples(): Record<string, number[]> {
    return Object.fromEntries([...this.measured].map(([key, list]) => [key, [...list]]));
  }

  /** Every transition's expected duration, by name (to save, and seed a later client with). */
  snapshot(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const key of this.measured.keys()) out[key] = this.expected(key)!;
    return out;
  }
}
