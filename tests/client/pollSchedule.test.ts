/**
 * The poll schedule, checked numerically (issue 13.3): how many polls a wait makes and how
 * late it sees readiness, for a resource ready T after the wait began. "Around T" means
 * every readiness time from 0.95 T to 1.05 T (2,001 of them): the worst count, the worst
 * delay and the mean delay over them.
 */
import { detection, pollDelayMs, pollTimes, type PollScheduleOptions } from "../../provider/client/pollSchedule";

const DEFAULTS = { initialMs: 250, maxMs: 10_000 };

function around(T: number, opts: PollScheduleOptions): { polls: number; maxDelayMs: number; meanDelayMs: number } {
  let polls = 0;
  let maxDelayMs = 0;
  let sum = 0;
  const n = 2_000;
  for (let i = 0; i <= n; i++) {
    const d = detection(T * (0.95 + (0.1 * i) / n), opts);
    polls = Math.max(polls, d.polls);
    maxDelayMs = Math.max(maxDelayMs, d.delayMs);
    sum += d.delayMs;
  }
  return { polls, maxDelayMs, meanDelayMs: sum / (n + 1) };
}

describe("poll schedule", () => {
  it("polls first after initialMs, then doubles, then keeps a steady interval, then 4% of the time waited, capped at maxMs", () => {
    expect(pollTimes(5_000, DEFAULTS)).toEqual([250, 500, 1_000, 2_000, 3_200, 4_400, 5_600]);
    expect(pollDelayMs(60_000, DEFAULTS)).toBe(2_400);
    expect(pollDelayMs(3_600_000, DEFAULTS)).toBe(10_000);
    expect(pollDelayMs(5, { initialMs: 10, maxMs: 40 })).toBe(10);
    expect(pollDelayMs(10_000, { initialMs: 10, maxMs: 40 })).toBe(40);
  });

  it("T = 30 s without any prior: at most 30 polls, seen at most max(1 s, 5% T) = 1.5 s late", () => {
    expect(detection(30_000, DEFAULTS)).toEqual({ polls: 28, delayMs: 800 });
    const near = around(30_000, DEFAULTS);
    expect(near.polls).toBeLessThanOrEqual(30);
    expect(near.maxDelayMs).toBeLessThanOrEqual(1_250);
  });

  it("T = 5 min where readiness is expected: at most 60 requests, mean delay at most 2% of T", () => {
    const T = 300_000;
    const exact = around(T, { ...DEFAULTS, expectedMs: T });
    expect(exact.polls).toBeLessThanOrEqual(45);
    expect(exact.meanDelayMs / T).toBeLessThanOrEqual(0.016);
    // An expectation that is off by up to a factor of two still meets the target.
    for (const factor of [0.5, 0.8, 1.2, 2]) {
      const off = around(T, { ...DEFAULTS, expectedMs: factor * T });
      expect(off.polls).toBeLessThanOrEqual(60);
      expect(off.meanDelayMs / T).toBeLessThanOrEqual(0.02);
    }
  });

  it("T = 5 min without any prior: the mean delay holds, the count does not (87 polls; see the module comment)", () => {
    const none = around(300_000, DEFAULTS);
    expect(none.polls).toBe(88);
    expect(none.meanDelayMs / 300_000).toBeLessThanOrEqual(0.017);
  });

  it("an expectation also helps short waits, and never makes a wait slower than 25% of the time waited", () => {
    const T = 30_000;
    const prior = around(T, { ...DEFAULTS, expectedMs: T });
    expect(prior.polls).toBeLessThanOrEqual(23);
    expect(prior.maxDelayMs).toBeLessThanOrEqual(900);
    // Ready much earlier than expected: still seen within a quarter of the time waited.
    for (const readyAt of [3_000, 10_000, 20_000]) {
      expect(detection(readyAt, { ...DEFAULTS, expectedMs: 300_000 }).delayMs).toBeLessThanOrEqual(0.25 * readyAt + 1_200);
    }
  });
});
