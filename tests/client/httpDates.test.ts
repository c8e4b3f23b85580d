/**
 * HTTP dates are GMT in every form (RFC 9110 §5.6.7: IMF-fixdate, the obsolete RFC 850 form,
 * asctime), whatever this machine's time zone: a `Retry-After` and a `Date` read in each form,
 * in child processes with `TZ` set (Node reads the zone once, at start), alone and over real
 * HTTP; and their neighbours (a date past, far ahead, one that does not exist, garbage,
 * negative and fractional seconds).
 */
import { execFile } from "child_process";
import * as path from "path";
import { promisify } from "util";
import { parseHttpDate } from "../../provider/client/httpDate";
import { parseRetryAfter } from "../../provider/client/shaping/retryAfter";

const run = promisify(execFile);

/** Zones west and east of GMT, with and without daylight saving, whole hours off it and not. */
const ZONES = ["America/New_York", "Asia/Kolkata", "Pacific/Chatham"];

describe("HTTP dates in every time zone", () => {
  let measured: Record<
    string,
    { offsetMinutes: number; parsed: Record<string, number>; offset: { from: number; to: number }; gaps: Record<string, number | string> }
  >;

  beforeAll(async () => {
    const script = path.join(__dirname, "zones", "retryAfterInZone.ts");
    const runs = await Promise.all(
      ZONES.map((tz) =>
        run(process.execPath, ["-r", "ts-node/register/transpile-only", script], {
          env: { ...process.env, TZ: tz },
          cwd: path.join(__dirname, "..", ".."),
          timeout: 120_000,
        }),
      ),
    );
    measured = Object.fromEntries(runs.map((r, i) => [ZONES[i], JSON.parse(r.stdout)]));
  }, 180_000);

  it("runs in zones that are not GMT (the test would see local time)", () => {
    for (const tz of ZONES) expect([tz, measured[tz].offsetMinutes === 0]).toEqual([tz, false]);
  });

  it.each(ZONES)("reads a Retry-After 3 s after the Date in each form as 3 s, in %s", (tz) => {
    for (const [forms, seconds] of Object.entries(measured[tz].parsed)) expect([forms, seconds]).toEqual([forms, 3]);
  });

  it.each(ZONES)("reads a Date in asctime form as GMT for the server's clock, in %s", (tz) => {
    expect(measured[tz].offset).toEqual({ from: -1_000, to: 1_000 });
  });

  it.each(ZONES)("waits out a 1 s Retry-After sent as each form of date over HTTP, in %s", (tz) => {
    for (const [form, gap] of Object.entries(measured[tz].gaps)) {
      expect([form, typeof gap]).toEqual([form, "number"]);
      expect(gap).toBeGreaterThanOrEqual(1_000);
      expect(gap).toBeLessThan(3_000);
    }
  });
});

describe("parseHttpDate", () => {
  const at = Date.UTC(1994, 10, 6, 8, 49, 37);

  it("reads the three forms, in any case, with runs of spaces and a one-digit day", () => {
    for (const text of [
      "Sun, 06 Nov 1994 08:49:37 GMT",
      "sunday, 06-nov-94 08:49:37 gmt",
      "Sun Nov  6 08:49:37 1994",
      "Sun Nov 6 08:49:37 1994",
      "Sun,  6 Nov 1994 08:49:37 UTC",
      "  Sun, 06 Nov 1994 08:49:37 GMT  ",
    ])
      expect([text, parseHttpDate(text)]).toEqual([text, at]);
  });

  it("places an RFC 850 year never more than 50 years ahead", () => {
    const now = Date.UTC(2026, 0, 1);
    expect(new Date(parseHttpDate("Friday, 27-Nov-26 10:00:00 GMT", now)!).getUTCFullYear()).toBe(2026);
    expect(new Date(parseHttpDate("Friday, 27-Nov-75 10:00:00 GMT", now)!).getUTCFullYear()).toBe(2075);
    expect(new Date(parseHttpDate("Friday, 27-Nov-77 10:00:00 GMT", now)!).getUTCFullYear()).toBe(1977);
    expect(new Date(parseHttpDate("Friday, 27-Nov-99 10:00:00 GMT", now)!).getUTCFullYear()).toBe(1999);
  });

  it("reads a leap second as the minute's end, and no date that does not exist", () => {
    expect(parseHttpDate("Wed, 31 Dec 2025 23:59:60 GMT")).toBe(Date.UTC(2026, 0, 1));
    for (const text of [
      "Mon, 31 Feb 2026 10:00:00 GMT",
      "Mon, 00 Feb 2026 10:00:00 GMT",
      "Mon, 02 Feb 2026 24:00:00 GMT",
      "Mon, 02 Feb 2026 10:60:00 GMT",
      "Mon, 02 Foo 2026 10:00:00 GMT",
    ])
      expect([text, parseHttpDate(text)]).toEqual([text, undefined]);
  });

  it("reads no other zone, and nothing that is not one of the forms", () => {
    for (const text of [
      "Sun, 06 Nov 1994 08:49:37 EST",
      "Sun, 06 Nov 1994 08:49:37 +0200",
      "Sun, 06 Nov 1994 08:49:37",
      "Sun Nov  6 08:49:37 1994 GMT+0500",
      "1994-11-06T08:49:37Z",
      "06 Nov 1994 08:49:37 GMT",
      "Sun, 06 Nov 1994 08:49:37.5 GMT",
      "tomorrow",
      "",
      "-5",
    ])
      expect([text, parseHttpDate(text)]).toEqual([text, undefined]);
  });
});

describe("Retry-After's neighbours", () => {
  const date = "Fri, 27 Nov 2026 10:00:00 GMT";
  const now = Date.UTC(2026, 10, 27, 10, 0, 0);

  it("reads a date already past as no wait, and one far ahead as what it says", () => {
    expect(parseRetryAfter("Fri, 27 Nov 2026 09:59:00 GMT", now, date)).toBe(0);
    expect(parseRetryAfter("Thu Nov 26 10:00:00 2026", now, date)).toBe(0);
    expect(parseRetryAfter("Sat, 27 Nov 2027 10:00:00 GMT", now, date)).toBe(365 * 86_400);
    expect(parseRetryAfter("Fri Dec 31 23:59:59 9999", now, date)).toBeGreaterThan(2.5e11);
  });

  it("measures a date from this machine's clock when the answer has no readable Date", () => {
    expect(parseRetryAfter("Fri Nov 27 10:00:05 2026", now, undefined)).toBe(5);
    expect(parseRetryAfter("Fri Nov 27 10:00:05 2026", now, "yesterday")).toBe(5);
  });

  it("reads seconds, fractional ones too, and nothing negative or malformed", () => {
    expect(parseRetryAfter("0", now, date)).toBe(0);
    expect(parseRetryAfter("1.5", now, date)).toBe(1.5);
    expect(parseRetryAfter(".5", now, date)).toBe(0.5);
    expect(parseRetryAfter(" 7 ", now, date)).toBe(7);
    expect(parseRetryAfter(["3", "9"], now, date)).toBe(3);
    for (const v of ["-1", "-0.5", "1e3", "1,5", "0x10", "Infinity", "NaN", "5 s", "soon"]) {
      expect([v, parseRetryAfter(v, now, date)]).toEqual([v, undefined]);
    }
  });
});
