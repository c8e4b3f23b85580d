/** Thrown when a duration such as `"30m"` cannot be read. */
export class DurationFormatError extends Error {
  /** @param value the text that was given */
  constructor(readonly value: unknown) {
    super(`${JSON.stringify(value)} is not a duration: give a number of seconds (e.g. 600) or a string such as "90s", "30m", "1h30m"`);
    this.name = "DurationFormatError";
  }
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;
const WHOLE = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h))+$/;

/**
 * Reads a duration given as seconds (a positive number, or a numeric string) or as a
 * Go-style string (`"90s"`, `"30m"`, `"1h30m"`, `"500ms"`), and returns milliseconds.
 *
 * @throws DurationFormatError when the value is neither, or is not positive.
 */
export function parseDuration(value: number | string): number {
  if (typeof value === "number") {
    if (Number.isFinite(value) && value > 0) return Math.round(value * 1000);
    throw new DurationFormatError(value);
  }
  const text = value.trim();
  if (/^\d+(?:\.\d+)?$/.test(text) && Number(text) > 0) return Math.round(Number(text) * 1000);
  if (!WHOLE.test(text)) throw new DurationFormatError(value);
  let total = 0;
  for (const [, amount, unit] of text.matchAll(PART)) total += Number(amount) * UNIT_MS[unit];
  if (total <= 0) throw new DurationFormatError(value);
  return Math.round(total);
}

/** True when {@link parseDuration} accepts the value. */
export function isDuration(value: unknown): value is number | string {
  if (typeof value !== "number" && typeof value !== "string") return false;
  try {
    parseDuration(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * The range a timeout (the `timeouts` input, `clouddb:*Timeout`) must lie in: below 100 ms
 * not one answer can be waited for (a fraction of a millisecond used to round to 0 and end
 * a create at once, after sending it), and nothing the API does takes a week (a longer
 * wait overflowed Node's timers, which fire at once past about 24.8 days).
 */
export const TIMEOUT_RANGE_MS = { min: 100, max: 7 * 24 * 3_600_000 } as const;

/** The range, in words, for messages. */
export const TIMEOUT_RANGE_TEXT = `from ${TIMEOUT_RANGE_MS.min}ms to ${TIMEOUT_RANGE_MS.max / 3_600_000}h (${TIMEOUT_RANGE_MS.max / 86_400_000} days)`;

/** How long an operation may wait when neither its `timeouts` nor the stack (`clouddb:createTimeout`, ...) says: 30 minutes. */
export const DEFAULT_OPERATION_TIMEOUT_MS = 30 * 60_000;

/** True when `value` is a duration ({@link parseDuration}) within {@link TIMEOUT_RANGE_MS}. */
export function isTimeout(value: unknown): value is number | string {
  if (!isDuration(value)) return false;
  const ms = parseDuration(value);
  return ms >= TIMEOUT_RANGE_MS.min && ms <= TIMEOUT_RANGE_MS.max;
}
