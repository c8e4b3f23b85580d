/**
 * Run by tests/client/httpDates.test.ts in a child process whose `TZ` it sets (Node reads a
 * time zone once, at start): reads `Retry-After` in each of HTTP's date forms, alone and over
 * real HTTP (a client retrying a 429), and prints what it measured as JSON on stdout.
 */
import { ClouddbClient } from "../../../provider/client";
import { parseRetryAfter } from "../../../provider/client/shaping/retryAfter";
import { ServerClock } from "../../../provider/client/serverClock";
import { startFakeApi } from "../fakeApi";

/** 2026-11-27 10:00:00 GMT, a Friday, in the three forms; and 3 s later. */
const FORMS = {
  imf: ["Fri, 27 Nov 2026 10:00:00 GMT", "Fri, 27 Nov 2026 10:00:03 GMT"],
  rfc850: ["Friday, 27-Nov-26 10:00:00 GMT", "Friday, 27-Nov-26 10:00:03 GMT"],
  asctime: ["Fri Nov 27 10:00:00 2026", "Fri Nov 27 10:00:03 2026"],
} as const;

/** The 1 s Retry-After of one form, over HTTP: the gap (ms) between the 429 and the retry, or the error. */
async function gapOver(form: keyof typeof FORMS): Promise<number | string> {
  let n = 0;
  const api = await startFakeApi(() => {
    const now = new Date(Date.now() - (Date.now() % 1000));
    const later = new Date(now.getTime() + 1_000);
    // The date forms of `now` and `later`, as a server sends them (its Date header in the same form).
    const write = (d: Date): string => {
      const imf = d.toUTCString();
      if (form === "imf") return imf;
      const [day, date, month, year, time] = imf.replace(",", "").split(" ");
      const weekday = { Mon: "Monday", Tue: "Tuesday", Wed: "Wednesday", Thu: "Thursday", Fri: "Friday", Sat: "Saturday", Sun: "Sunday" }[
        day
      ];
      if (form === "rfc850") return `${weekday}, ${date}-${month}-${year.slice(2)} ${time} GMT`;
      return `${day} ${month} ${String(Number(date)).padStart(2, " ")} ${time} ${year}`;
    };
    // The Date as servers send it (IMF-fixdate), the Retry-After in the form under test.
    return ++n === 1
      ? {
          status: 429,
          headers: { date: now.toUTCString(), "retry-after": write(later) },
          body: { code: "RATE_LIMITED", message: "slow down" },
        }
      : { body: [] };
  });
  const client = new ClouddbClient({ apiUrl: api.baseUrl, apiKey: "zone-key-0001", projectId: "proj000001", retryDeadlineMs: 10_000 });
  try {
    await client.perform("listVpcs");
    return api.requests[1].at - api.requests[0].at;
  } catch (e) {
    return (e as Error).message;
  } finally {
    await client.close();
    await api.close();
  }
}

async function main(): Promise<void> {
  // Every form of the Retry-After against every form of the Date: 3 s each.
  const sent = Date.UTC(2026, 10, 27, 10, 0, 0);
  const parsed: Record<string, number | undefined> = {};
  for (const [form, [, until]] of Object.entries(FORMS)) {
    for (const [dateForm, [date]] of Object.entries(FORMS)) parsed[`${form} after ${dateForm}`] = parseRetryAfter(until, sent, date);
  }
  const clock = new ServerClock();
  clock.observe(FORMS.asctime[0], sent, sent);
  const offset = clock.offsetMs;
  const gaps: Record<string, number | string> = {};
  for (const form of Object.keys(FORMS) as (keyof typeof FORMS)[]) gaps[form] = await gapOver(form);
  process.stdout.write(JSON.stringify({ tz: process.env.TZ, offsetMinutes: new Date(sent).getTimezoneOffset(), parsed, offset, gaps }));
}

void main();
