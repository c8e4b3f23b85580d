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
