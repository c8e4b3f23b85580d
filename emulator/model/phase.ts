/**
 * Timestamp-based state machines: a resource stores when its current transition began
 * and the steps it goes through; its status is computed whenever it is read.
 */

/** Marker for a resource whose last transition ends in its disappearance. */
export const GONE = "GONE" as const;

/** One timed step of a transition. */
export interface PhaseStep<S extends string> {
  /** Status shown during the step. */
  readonly status: S;
  /** How long the step lasts, already scaled, in milliseconds. */
  readonly durationMs: number;
}

/** A transition: from `since`, the steps in order, then `then` for good. */
export interface Phase<S extends string> {
  /** Epoch milliseconds when the transition began. */
  readonly since: number;
  /** Timed steps, in order. */
  readonly steps: readonly PhaseStep<S>[];
  /** Status after the last step, or {@link GONE}. */
  readonly then: S | typeof GONE;
}

/** A phase that stays at `status` from now on. */
export function steady<S extends string>(status: S | typeof GONE, now: number): Phase<S> {
  return { since: now, steps: [], then: status };
}

/** The status a phase shows at time `now`. */
export function statusAt<S extends string>(phase: Phase<S>, now: number): S | typeof GONE {
  let elapsed = now - phase.since;
  for (const step of phase.steps) {
    if (elapsed < step.durationMs) return step.status;
    elapsed -= step.durationMs;
  }
  return phase.then;
}

/** Builds a phase beginning at `now` with durations scaled by `scale`. */
export function timedPhase<S extends string>(
  now: number,
  scale: number,
  steps: ReadonlyArray<readonly [S, number]>,
  then: S | typeof GONE,
): Phase<S> {
  return {
    since: now,
    steps: steps.map(([status, nominalMs]) => ({ status, durationMs: Math.round(nominalMs * scale) })),
    then,
  };
}
