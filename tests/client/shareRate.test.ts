/**
 * A share of a key others use too, on machines of their own (provider/client/shaping/shareRate.ts):
 * the rules on a fake clock, and a fleet of 20 such flows against one limit of 10 a second
 * (fleetSim.ts, seeded: the same figures every run, whatever the machine's load).
 */
import { growRate, refused } from "../../provider/client/shaping/keySchedule";
import { type KeySchedule, newSchedule, PACER } from "../../provider/client/shaping/schedule";
import { readSchedule } from "../../provider/client/shaping/scheduleReading";
import { simulateFleet } from "./fleetSim";

const T0 = 1_000_000;

/** A schedule that is a share of `share` a second, sending at `rate`, its requests accepted every turn over the last 5 s. */
function sharing(share: number, rate: number, now = T0): KeySchedule {
  const s = newSchedule(now - 6_000);
  Object.assign(s, { slowStart: false, share: true, limit: share, rate, last429At: now - 2_000, grownAt: now - 1_000 });
  for (let t = now - 5_000; t < now; t += 1_000 / rate) s.slots.push(t);
  return s;
}

describe("a share of a key others use on machines of their own", () => {
  it("is what a client whose first request met a 429 is from then on: its rate grows by a step a second, not twice over", () => {
    const s = newSchedule(T0);
    s.slots.push(T0);
    refused(s, T0 + 50, 1, true, T0, undefined, () => 0);
    expect(s.share).toBe(true);
    expect(s.rate).toBe(PACER.minRate);
    // The step of the 429 grows nothing; the next, two seconds on, by two steps (of the least rate: no share measured yet).
    growRate(s, T0 + 1_050);
    s.wanted = true;
    growRate(s, T0 + 3_050);
    expect(s.rate).toBeCloseTo(PACER.minRate + PACER.shareStep * PACER.minRate * 2, 5);
  });

  it("cuts its rate by a share of it at each congestion, even one met close to the rate it sent at", () => {
    const s = sharing(0.5, 0.5);
    refused(s, T0, 1, true, T0, undefined, () => 0);
    expect(s.rate).toBeCloseTo(0.5 * PACER.shareCut);
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
});
