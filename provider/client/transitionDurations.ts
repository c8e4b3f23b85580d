/**
 * How long transitions took, as this client measured them: the prior of the poll schedule
 * (pollSchedule.ts, `expectedMs`). A transition is named by the resource kind, the status
 * a wait first saw and the awaited statuses, e.g. `service:QUEUED->READY`; its expected
 * duration is the median of the last few measured.
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

  /** @param seed - expected durations by transition name (ms), e.g. saved from an earlier run. */
  constructor(seed: Readonly<Record<string, number>> = {}) {
    for (const [key, ms] of Object.entries(seed)) if (Number.isFinite(ms) && ms > 0) this.measured.set(key, [ms]);
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
    return sorted[Math.floor(sorted.length / 2)];
  }

  /** Every transition's expected duration, by name (to save, and seed a later client with). */
  snapshot(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const key of this.measured.keys()) out[key] = this.expected(key)!;
    return out;
  }
}
