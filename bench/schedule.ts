/**
 * The poll schedule, computed (provider/client/pollSchedule.ts is a pure function): polls
 * and detection delay for a create whose readiness time T is 30 s and 5 minutes, without a
 * prior (a first run) and with one (later runs: the provider keeps what it measured,
 * provider/framework/transitionPriors.ts), beside the baseline's schedule and the anchors'
 * for the same T.
 */
import { detection } from "../provider/client/pollSchedule";
import { around, byInterval, cell, type Detection, terraform, tiger } from "./anchors";
import type { Report } from "./report";
import type { Tree } from "./trees";

const DEFAULTS = { initialMs: 250, maxMs: 10_000 };

/** The most polls, the mean delay as a share of T, and the latest detection, over readiness times within ±5% of T. */
function figures(T: number, detect: (readyAtMs: number) => Detection): { polls: number; meanDelayShare: number; worstDelayMs: number } {
  let delays = 0;
  let worst = 0;
  let polls = 0;
  const samples = 41;
  for (let i = 0; i < samples; i++) {
    const readyAt = T * (0.95 + (0.1 * i) / (samples - 1));
    const d = detect(readyAt);
    delays += d.delayMs;
    worst = Math.max(worst, d.delayMs);
    polls = Math.max(polls, d.polls);
  }
  return { polls, meanDelayShare: delays / samples / T, worstDelayMs: worst };
}

const ours = (expectedMs?: number) => (readyAtMs: number) =>
  detection(readyAtMs, expectedMs === undefined ? DEFAULTS : { ...DEFAULTS, expectedMs });

/** The baseline's schedule, from its own interval function, when it has one. */
function baselineSchedule(baseline: Tree): ((readyAtMs: number) => Detection) | undefined {
  const waiters = baseline.load<{ pollIntervalMs?: (elapsed: number, initial: number, max: number) => number }>("provider/client/waiters");
  const interval = waiters?.pollIntervalMs;
  if (interval === undefined) return undefined;
  return (readyAtMs) => byInterval(DEFAULTS.initialMs, (t) => interval(t, DEFAULTS.initialMs, DEFAULTS.maxMs), readyAtMs);
}

const polls = (f: ReturnType<typeof figures>) => `${f.polls} polls, up to ${(f.worstDelayMs / 1000).toFixed(2)} s late`;
const share = (f: ReturnType<typeof figures>) => `${f.polls} polls, ${(f.meanDelayShare * 100).toFixed(2)} % of T late on average`;

/** Adds the schedule's rows. */
export function schedule(report: Report, baseline: Tree): void {
  const base = baselineSchedule(baseline);
  const S = "poll schedule (computed)";
  const t30 = figures(30_000, ours());
  report.row(S, "T = 30 s, first run (no prior): polls, latest detection", polls(t30), {
    ...(base ? { baseline: polls(figures(30_000, base)) } : {}),
    terraform: cell(around(30_000, terraform)),
    tiger: cell(around(30_000, tiger)),
    target: "<= 30 polls, <= max(1 s, 5% T) = 1.5 s",
    pass: t30.polls <= 30 && t30.worstDelayMs <= 1_500,
  });
  const five = 300_000;
  const cold = figures(five, ours());
  const warm = figures(five, ours(five));
  const off = Math.max(figures(five, ours(five / 2)).polls, figures(five, ours(five * 2)).polls);
  report.raw.schedule = { t30, cold, warm, priorOffBy2: off };
  report.row(S, "T = 5 min, later runs (prior): polls, mean detection delay", share(warm), {
    ...(base ? { baseline: share(figures(five, base)) } : {}),
    terraform: share(figures(five, terraform)),
    tiger: share(figures(five, tiger)),
    target: "<= 60 polls, <= 2 % of T",
    pass: warm.polls <= 60 && warm.meanDelayShare <= 0.02,
  });
  report.row(S, "T = 5 min, prior off by 2 ×: polls", String(off));
  report.row(S, "T = 5 min, first run (no prior): polls, mean detection delay", share(cold), {
    target: "none: a first run has no prior (docs/performance/benchmarks.md)",
  });
}
