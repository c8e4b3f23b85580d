/**
 * The engine's timeouts (Pulumi's `customTimeouts` option, sent with each Create, Update and
 * Delete in seconds) beside the resource's own `timeouts` input: an operation waits no longer
 * than either allows. The input as the program wrote it is what state records; the engine's
 * bound applies to the call alone.
 */
import { parseDuration } from "../framework/durations";
import type { TimeoutsInput } from "../framework/timeouts";

/** The operations that wait. */
export type TimedOperation = keyof TimeoutsInput;

/**
 * The `timeouts` to run `operation` with: `given` (the input), its `operation` bounded by
 * the engine's `engineSeconds` (0: the engine sets none). A value not read as a duration
 * is left for the framework to report.
 */
export function boundedTimeouts(given: unknown, operation: TimedOperation, engineSeconds: number): unknown {
  if (!(engineSeconds > 0)) return given;
  const input = given !== null && typeof given === "object" ? (given as TimeoutsInput) : undefined;
  const own = input?.[operation];
  let ownSeconds: number | undefined;
  if (own !== undefined) {
    try {
      ownSeconds = parseDuration(own) / 1000;
    } catch {
      return given;
    }
  }
  const seconds = ownSeconds === undefined ? engineSeconds : Math.min(ownSeconds, engineSeconds);
  return { ...(input ?? {}), [operation]: seconds };
}
