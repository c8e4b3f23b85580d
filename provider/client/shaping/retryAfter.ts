/**
 * `Retry-After` (429, 503): seconds, or an HTTP date in the server's clock (RFC 9110 §10.2.3). Pure.
 */
import { parseHttpDate } from "../httpDate";

/**
 * Parses a `Retry-After` header into seconds, or undefined when absent or unreadable:
 * delta seconds, or an HTTP date (any of its three forms, always GMT), which is
 * in the server's clock and so is measured from the answer's own `Date` when it has one (else
 * from `now`, this machine's clock); a date already past is 0. A number is never read as a
 * date: a negative one is unreadable, as is anything else that is not an HTTP date. Never throws.
 */
export function parseRetryAfter(
  value: string | string[] | undefined,
  now = Date.now(),
  dateHeader?: string | string[],
): number | undefined {
  const v = (Array.isArray(value) ? value[0] : value)?.trim();
  if (v === undefined || v === "") return undefined;
  if (/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(v)) {
    const seconds = Number(v);
    return seconds >= 0 ? seconds : undefined;
  }
  const date = parseHttpDate(Array.isArray(dateHeader) ? dateHeader[0] : dateHeader, now) ?? now;
  const until = parseHttpDate(v, date);
  return until === undefined ? undefined : Math.max(0, (until - date) / 1000);
}
