/**
 * The poll schedule, computed (provider/client/pollSchedule.ts is a pure function): polls
 * and mean detection delay for a create whose readiness time T is 30 s and 5 minutes,
 * without a prior (a first run) and with one (later runs: the provider keeps what it
 * measured, provider/framework/transitionPriors.ts).
 */
import { detection } from "../provider/client/pollSchedule";
import { Report } from "./report";

const DEFAULTS = { initialMs: 250, maxMs: 10_000 };

/** The most polls, the mean delay as a share of T, and the latest detection, over readiness times within ±5% of T. */
function figures(T: number, expectedMs?: number): { polls: number; meanDelayShare: number; worstDelayMs: number } {
  const opts = { ...DEFAULTS, ...(expectedMs === undefined ? {} : { expectedMs }) };
  let delays = 0;
  let worst = 0;
  let polls = 0;
  const samples = 41;
  for (let i = 0; i < samples; i++) {
    const readyAt = T * (0.95 + (0.1 * i) / (samples - 1));
    const d = detection(readyAt, opts);
    delays += d.delayMs;
    worst = Math.max(worst, d.delayMs);
    polls = Math.max(polls, d.polls);
  }
  return { polls, meanDelayShare: delays / samples / T, worstDelayMs: worst };
}

/** Adds the schedule's rows. */
export function schedule(report: Report): void {
  const t30 = figures(30_000);
  report.row("3 polls", "T = 30 s, first run (no prior): polls", String(t30.polls), "<= 30", t30.polls <= 30);
  report.row(
    "3 polls",
    "T = 30 s, first run: latest detection",
    `${(t30.worstDelayMs / 1000).toFixed(2)} s`,
    "<= max(1 s, 5% T) = 1.5 s",
    t30.worstDelayMs <= 1_500,
  );
  const five = 300_000;
  const cold = figures(five);
  const warm = figures(five, five);
  const off = Math.max(figures(five, five / 2).polls, figures(five, five * 2).polls);
  report.raw.schedule = { t30, cold, warm, priorOffBy2: off };
  report.row("3 polls", "T = 5 min, later runs (prior): requests", String(warm.polls), "<= 60", warm.polls <= 60);
  report.row(
    "3 polls",
    "T = 5 min, later runs: mean detection delay",
    `${(warm.meanDelayShare * 100).toFixed(2)} % of T`,
    "<= 2 %",
    warm.meanDelayShare <= 0.02,
  );
  report.row("3 polls", "T = 5 min, prior off by 2x: requests", String(off));
  report.row(
    "3 polls",
    "T = 5 min, first run (no prior): requests / mean delay",
    `${cold.polls} / ${(cold.meanDelayShare * 100).toFixed(2)} % of T`,
    "no target: a first run has no prior (README)",
  );
}
