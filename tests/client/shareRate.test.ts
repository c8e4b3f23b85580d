/**
 * A share of a key others use too, on machines of their own (provider/client/shaping/shareRate.ts):
 * the rules on a fake clock, and a fleet of 20 such flows against one limit of 10 a second
 * (fleetSim.ts, seeded: the same figures every run, whatever the machine's load).
 */
import { growRate, refused } from "../../provider/client/shaping/keySchedule";
import { type KeySchedule, newSchedule, PACER } from "../../provider/client/shaping/schedule";
import { readSchedule } from "../../provider/client/shaping/scheduleReading";
import { backoff } from "../../provider/client/shaping/backoff";
import { type SimArrival, simulateFleet } from "./fleetSim";

const T0 = 1_000_000;

/** A schedule that is a share of `share` a second, sending at `rate`, its requests accepted every turn over the last 5 s. */
function sharing(share: number, rate: number, now = T0): KeySchedule {
  const s = newSchedule(now - 6_000);
  Object.assign(s, { slowStart: false, share: true, limit: share, rate, last429At: now - 2_000, grownAt: now - 1_000 });
  for (let t = now - 5_000; t < now; t += 1_000 / rate) s.slots.push(t);
  return s;
}

describe("a share of a key others use on machines of their own", () => {
  it("is what a client becomes when a second congestion finds nothing of its accepted: its rate grows by a step a second, not twice over", () => {
    const s = newSchedule(T0);
    s.slots.push(T0);
    // Its first request refused, nothing sent before it: not proof of others (a gateway's 429 looks the same).
    refused(s, T0 + 50, 1, true, T0, undefined, () => 0);
    expect(s.share).toBeUndefined();
    expect(s.unproven).toBe(true);
    expect(s.rate).toBe(PACER.unprovenRate);
    // Sent again at the end of the hold and refused again: the same congestion still, nothing more is told.
    s.slots.push(T0 + 1_100);
    refused(s, T0 + 1_150, 1, true, T0 + 1_100, undefined, () => 0);
    expect(s.rate).toBe(PACER.unprovenRate);
    expect(s.unproven).toBe(true);
    // Two turns later, refused again, nothing accepted yet: others hold the key.
    s.slots.push(T0 + 2_700);
    refused(s, T0 + 2_750, 1, true, T0 + 2_700, undefined, () => 0);
    expect(s.unproven).toBeUndefined();
    expect(s.share).toBe(true);
    expect(s.rate).toBe(PACER.minRate);
    // The step of the 429 grows nothing; the next, two seconds on, by two steps (of the least rate: no share measured yet).
    growRate(s, T0 + 3_750);
    s.wanted = true;
    growRate(s, T0 + 5_750);
    expect(s.rate).toBeCloseTo(PACER.minRate + PACER.shareStep * PACER.minRate * 2, 5);
  });

  it("counts a request refused again at the end of the hold of a first refusal that proved nothing as that refusal still: the rate is not cut", () => {
    const s = newSchedule(T0);
    s.slots.push(T0);
    refused(s, T0 + 50, 1, true, T0, undefined, () => 0);
    for (let i = 0; i < 3; i++) {
      const retry = s.pausedUntil + 10;
      s.slots.push(retry);
      refused(s, retry + 40, 1, true, retry, undefined, () => 0);
    }
    expect(s.rate).toBe(PACER.unprovenRate);
    expect(s.share).toBeUndefined();
    expect(s.pausedUntil).toBeGreaterThan(T0 + 4_000);
  });

  it("cuts its rate by a share of it at each congestion, even one met close to the rate it sent at", () => {
    const s = sharing(0.5, 0.5);
    refused(s, T0, 1, true, T0, undefined, () => 0);
    expect(s.rate).toBeCloseTo(0.5 * PACER.shareCut);
    s.slots.push(T0 + 2_000);
    // And again at the next congestion, below half a request a second.
    const later = T0 + 3_000;
    refused(s, later, 1, true, later, undefined, () => 0);
    expect(s.rate).toBeCloseTo(0.5 * PACER.shareCut ** 2);
    expect(s.rate).toBeLessThan(PACER.minRate);
  });

  it("keeps a rate below half a request a second, and being a share, when its schedule's file is read back", () => {
    const s = sharing(0.4, 0.3);
    delete s.limit;
    const back = readSchedule(JSON.parse(JSON.stringify(s)), T0);
    expect(back?.rate).toBe(0.3);
    expect(back?.share).toBe(true);
  });

  it("grows by the same step a second however seldom it claims: a slow flow catches up with a fast one", () => {
    const slow = sharing(0.5, 0.2);
    const fast = sharing(0.5, 0.8);
    for (const s of [slow, fast]) {
      s.wanted = true;
      s.grownAt = T0 - 4_000;
      growRate(s, T0);
    }
    const step = PACER.shareStep * 0.5 * 4;
    expect(slow.rate).toBeCloseTo(0.2 + step);
    expect(fast.rate).toBeCloseTo(0.8 + step);
    // Once no 429 came for a while, it probes as a lone client does.
    const quiet = sharing(0.5, 0.5, T0 + PACER.shareQuietMs);
    quiet.wanted = true;
    quiet.grownAt = T0 + PACER.shareQuietMs - 1_000;
    quiet.last429At = T0 - 1;
    growRate(quiet, T0 + PACER.shareQuietMs);
    expect(quiet.rate).toBeCloseTo(0.5 * PACER.growth);
  });

  it("ends its hold after a 429 anywhere within one of its turns, not within a second of the Retry-After", () => {
    const s = sharing(0.25, 0.25);
    refused(s, T0, 1, true, T0, undefined, () => 0.99);
    expect(s.pausedUntil - T0 - 1_000 - PACER.retryAfterMarginMs).toBeCloseTo((0.99 * 1_000) / s.rate, 0);
    expect(s.pausedUntil - T0).toBeGreaterThan(3_000);
  });

  it("20 flows of 20 requests against 10 a second: all done, fewer 429s (under 30 % of the answers, 34 % before), within 1.6 x the earliest", () => {
    const runs = [1, 2, 3].map((seed) => simulateFleet(20, 20, { seed }));
    const limited = runs.reduce((a, r) => a + r.limited, 0);
    const answers = runs.reduce((a, r) => a + r.limited + r.accepted, 0);
    expect(limited / answers).toBeLessThan(0.3);
    for (const r of runs) {
      expect(r.doneMs.every(Number.isFinite)).toBe(true);
      expect(Math.max(...r.doneMs)).toBeLessThan(1.6 * 40_000);
    }
  });

  it("a lone stack through 429s of Retry-After: 1 on its first requests does not crawl: done within its Retry-Afters and a turn of 1.5 s a request", () => {
    // Requests 0 and 9 refused four times, 3 and 12 twice (tests/resilience/faults.test.ts "create: converges"), one request at a time.
    const times: Record<number, number> = { 0: 4, 9: 4, 3: 2, 12: 2 };
    const storm = (r: SimArrival): number | undefined => (r.attempt < (times[r.id] ?? 0) ? 1 : undefined);
    for (const seed of [1, 2, 3]) {
      const run = simulateFleet(1, 18, { fault: storm, concurrency: 1, seed });
      expect(run.faulted).toBe(12);
      expect(run.limited).toBe(12);
      const sends = run.sends[0];
      expect(sends).toHaveLength(30);
      // Waiting out each Retry-After (12 of 1 s and its margin) and a turn of 1.5 s for each of the 18 requests at most
      // (59 to 67 s before: the first 429 made it a share of the least rate, and each retry cut that again)...
      const retryAfters = 12 * (1_000 + PACER.retryAfterMarginMs + 1_000 * backoff.retryAfterSpread);
      expect(run.doneMs[0]).toBeLessThan(retryAfters + 18 * 1_500);
      // ...and no gap the pacer chose longer than a Retry-After, its margin and a turn at the least rate (2 s).
      const gaps = sends.slice(1).map((t, i) => t - sends[i]);
      expect(Math.max(...gaps)).toBeLessThan(1_000 + PACER.retryAfterMarginMs + 1_000 * backoff.retryAfterSpread + 1_000 / PACER.minRate);
    }
  });

  it("a request a gateway refuses at one moment of each of its periods of 5 s (Retry-After: 5) is not refused again in step with it", () => {
    // The gateway refuses what arrives within 500 ms after the moment it refused the first request, in every period.
    // Waiting exactly the Retry-After and its margin, the request came back at that moment period after period (in
    // the model's sprinkled gateway, one flow was refused ten periods in a row: 3.75 x the earliest); each wait now
    // varies by up to a fifth of it.
    for (const seed of [1, 2, 3, 4, 5]) {
      let moment: number | undefined;
      const gateway = (r: SimArrival): number | undefined => {
        moment ??= r.at % 5_000;
        const since = (r.at - moment + 5_000) % 5_000;
        return since < 500 ? 5 : undefined;
      };
      const run = simulateFleet(1, 1, { fault: gateway, concurrency: 1, seed });
      expect(run.doneMs.every(Number.isFinite)).toBe(true);
      // 7 or 8 times before, for each seed.
      expect(run.faulted).toBeLessThanOrEqual(3);
    }
  });
});
