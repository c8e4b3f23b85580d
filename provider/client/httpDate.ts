/**
 * HTTP dates (RFC 9110 §5.6.7), read as what they are: times in GMT, in each of the three forms
 * a recipient must accept, whatever this machine's time zone. (`Date.parse` reads the asctime
 * form in local time: with `TZ=America/New_York` a `Retry-After` of 3 s became 18,003 s.)
 *
 * - IMF-fixdate, the preferred form: `Sun, 06 Nov 1994 08:49:37 GMT`;
 * - the obsolete RFC 850 form: `Sunday, 06-Nov-94 08:49:37 GMT` (a two-digit year more than 50
 *   years ahead of `now` is the most recent past year with those digits, as §5.6.7 says);
 * - ANSI C's asctime form: `Sun Nov  6 08:49:37 1994` (no zone: GMT all the same).
 *
 * Read tolerantly where nothing is ambiguous (any case, runs of spaces, a one-digit day, `UTC`
 * or a zero offset for `GMT`); anything else is no HTTP date. Pure.
 */

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const DAY = "(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*";
const MONTH = "(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)";
const TIME = "(\\d{2}):(\\d{2}):(\\d{2})";
/** A zone that says GMT: only these are HTTP's. */
const GMT = "(?:gmt|utc|ut|z|[+-]0000)";

/** `Sun, 06 Nov 1994 08:49:37 GMT`: day, month, year, hour, minute, second. */
const IMF_FIXDATE = new RegExp(`^${DAY},\\s*(\\d{1,2})\\s+${MONTH}\\s+(\\d{4})\\s+${TIME}\\s+${GMT}$`, "i");
/** `Sunday, 06-Nov-94 08:49:37 GMT`: day, month, two-digit year, hour, minute, second. */
const RFC850 = new RegExp(`^${DAY},\\s*(\\d{1,2})-${MONTH}-(\\d{2})\\s+${TIME}\\s+${GMT}$`, "i");
/** `Sun Nov  6 08:49:37 1994`: month, day, hour, minute, second, year. */
const ASCTIME = new RegExp(`^${DAY}\\s+${MONTH}\\s+(\\d{1,2})\\s+${TIME}\\s+(\\d{4})$`, "i");

/** The UTC time of a calendar date and time of day, or undefined when there is no such date (31 Feb) or time. */
function utc(year: number, month: string, day: number, hour: number, minute: number, second: number): number | undefined {
  const m = MONTHS.indexOf(month.toLowerCase());
  // 60: a leap second (RFC 9110 allows it), read as the last second of its minute.
  if (hour > 23 || minute > 59 || second > 60 || day < 1) return undefined;
  const at = Date.UTC(year, m, day, hour, minute, Math.min(second, 59));
  const d = new Date(at);
  return d.getUTCFullYear() === year && d.getUTCMonth() === m && d.getUTCDate() === day ? at + (second === 60 ? 1_000 : 0) : undefined;
}

/** The full year of an RFC 850 date's two digits, read at `now` (RFC 9110 §5.6.7: never more than 50 years ahead). */
function fullYear(twoDigits: number, now: number): number {
  const current = new Date(now).getUTCFullYear();
  let year = current - (current % 100) + twoDigits;
  if (year > current + 50) year -= 100;
  return year;
}

/**
 * The time (epoch ms) an HTTP date names, in any of its three forms (see the module comment), or
 * undefined when `text` is none of them. `now` (epoch ms) places an RFC 850 date's century. Never throws.
 */
export function parseHttpDate(text: string | undefined, now = Date.now()): number | undefined {
  const v = text?.trim();
  if (v === undefined || v === "") return undefined;
  const n = Number;
  let m = IMF_FIXDATE.exec(v);
  if (m !== null) return utc(n(m[3]), m[2], n(m[1]), n(m[4]), n(m[5]), n(m[6]));
  m = RFC850.exec(v);
  if (m !== null) return utc(fullYear(n(m[3]), now), m[2], n(m[1]), n(m[4]), n(m[5]), n(m[6]));
  m = ASCTIME.exec(v);
  if (m !== null) return utc(n(m[6]), m[1], n(m[2]), n(m[3]), n(m[4]), n(m[5]));
  return undefined;
}
