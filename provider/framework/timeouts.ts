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

/**
 * What bounds `operation` for a user, in a message's words, whichever host serves the resource:
 * the dynamic providers' `timeouts` input, or Pulumi's `customTimeouts` option on the native
 * plugin (whose resources take no `timeouts`).
 */
export function timeoutNamed(operation: keyof TimeoutsInput): string {
  return `\`timeouts.${operation}\` (\`customTimeouts.${operation}\` on the native plugin)`;
}

/**
 * What to do when `operation` ran out of time, in a message's words: a longer bound on the
 * resource ({@link timeoutNamed}), or on every resource through the stack's configuration.
 */
export function longerTimeoutAdvice(operation: keyof TimeoutsInput): string {
  return `give the resource a longer ${timeoutNamed(operation)}, or every resource with \`pulumi config set clouddb:${operation}Timeout 1h\``;
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
