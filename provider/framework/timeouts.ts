/**
 * The `timeouts` input every resource takes, and the engine's timeouts beside it (Pulumi's
 * `customTimeouts`, which the native plugin receives with each Create, Update and Delete in
 * seconds; the core's requests carry them, framework/coreProvider.ts): an operation waits no
 * longer than either allows. The input as the program wrote it is what state records; the
 * engine's bound applies to the call alone.
 */
import { parseDuration } from "./durations";

/** The `timeouts` input every resource takes: seconds, or strings such as `"30m"`. */
export interface TimeoutsInput {
  /** How long `create` waits for the resource to be ready. */
  readonly create?: number | string;
  /** How long `update` waits after each change. */
  readonly update?: number | string;
  /** How long `delete` waits for the resource to be gone. */
  readonly delete?: number | string;
}

/** A duration in milliseconds, in words: `90s`, `30m`, `1h5m`. */
export function describeMs(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  return [h ? `${h}h` : "", m ? `${m}m` : "", rest || (!h && !m) ? `${rest}s` : ""].join("");
}

/**
 * The `timeouts` to run `operation` with: `given` (the input), its `operation` bounded by
 * the engine's `engineSeconds` (0: the engine sets none). A value not read as a duration
 * is left for the framework to report.
 */
export function boundedTimeouts(given: unknown, operation: keyof TimeoutsInput, engineSeconds: number): unknown {
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
