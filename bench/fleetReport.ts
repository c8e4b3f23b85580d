/**
 * The fleets' figures (bench/fleet.ts) as the issues judge them: one row per fleet and figure,
 * this tree beside the code this work started from and the first version, each with its target:
 *
 * - on K machines at K = 20 (`Retry-After`): at most 10 % of answers 429, done within 1.3 × the
 *   earliest possible, the slowest stack within 1.3 × the fastest; with the `RateLimit` fields,
 *   within 1.15 ×;
 * - on one machine: no figure worse than the code before (+5 %), and at K = 50 within 1.2 ×;
 * - with a gateway's sprinkled `Retry-After: 5`: every stack done, the slowest within 1.5 × the
 *   first version's slowest;
 * - every fleet: no failed operation, and bytes read per service no more than the first version's.
 *
 * And the same runs as one compact table (`fleetTable`), the one docs/performance/fleets.md shows, which
 * `npm run bench` prints after its table.
 */
import { earliestMs, fleetCases, type FleetRun, measureFleets, SERVICES } from "./fleet";
import { bytes, type Report } from "./report";
import type { Sizes } from "./sizes";
import type { Tree } from "./trees";

/** The share of answers that were 429. */
export const share429 = (r: FleetRun): number => r.limited / Math.max(1, r.limited + r.accepted);
/** First to last request against the earliest possible. */
export const timeRatio = (r: FleetRun): number => r.apiWallMs / earliestMs(r.k);
/** The slowest done stack's `up` against the fastest's. */
export const spread = (r: FleetRun): number =>
  r.stackWallsMs.length === 0 ? Infinity : Math.max(...r.stackWallsMs) / Math.max(1, Math.min(...r.stackWallsMs));
/** Bytes of the answers per service. */
export const perService = (r: FleetRun): number => r.bytes / (r.k * SERVICES);
/** The slowest done stack's `up`, ms (Infinity when none was done). */
export const slowest = (r: FleetRun): number => (r.stackWallsMs.length === 0 ? Infinity : Math.max(...r.stackWallsMs));

const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;
const x2 = (x: number): string => (Number.isFinite(x) ? x.toFixed(2) : "n/a");
const kb = (n: number): string => `${(n / 1000).toFixed(1)} KB`;

/** The figures of a run, as the compact table's cells. */
const CELLS: { head: string; cell: (r: FleetRun) => string }[] = [
  { head: "answers 429", cell: (r) => `${pct(share429(r))}${r.complete ? "" : " (≥)"}` },
  { head: "time / earliest", cell: (r) => x2(timeRatio(r)) },
  { head: "slowest / fastest", cell: (r) => x2(spread(r)) },
  { head: "not done", cell: (r) => String(r.notDone) },
  { head: "bytes / service", cell: (r) => kb(perService(r)) },
  { head: "failed ops", cell: (r) => String(r.errors.length) },
];

/** The run of `list` for the fleet of `r` (`shareless`: the first version's, on one machine: it shares nothing, so it runs there only). */
export function peer(list: readonly FleetRun[] | undefined, r: FleetRun, shareless = false): FleetRun | undefined {
  return list?.find((x) => x.k === r.k && x.mode === r.mode && x.machines === (shareless ? 1 : r.machines));
}

/** The fleets as one Markdown table: each cell `this tree / before / first version`. */
export function fleetTable(now: readonly FleetRun[], before: readonly FleetRun[] | undefined, first: readonly FleetRun[]): string {
  const head = ["K", "machines", "429s", ...CELLS.map((c) => c.head)];
  const lines = [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`];
  for (const r of now) {
    const p = peer(before, r);
    const b = peer(first, r, true);
    const cells = CELLS.map((c) => [r, p, b].map((x) => (x === undefined ? "–" : c.cell(x))).join(" / "));
    lines.push(`| ${r.k} | ${r.machines === 1 ? "1" : "K"} | ${r.mode} | ${cells.join(" | ")} |`);
  }
  return lines.join("\n");
}

/** A figure's target for a run: what it is and whether it is met; undefined when the figure has none there. */
type Judge = (r: FleetRun, before: FleetRun | undefined, first: FleetRun | undefined) => { target: string; pass: boolean } | undefined;

/** No worse than the code before, within 5 % (and a hair for figures near zero): on one machine, and with one stack. */
const noWorse =
  (figure: (r: FleetRun) => number): Judge =>
  (r, p) =>
    p !== undefined && (r.machines === 1 || r.k === 1)
      ? { target: "<= before (+5 %)", pass: figure(r) <= figure(p) * 1.05 + 0.005 }
      : undefined;

/** `first` where the run is the judged fleet, else `second`. */
const either =
  (first: Judge, second: Judge): Judge =>
  (r, p, b) =>
    first(r, p, b) ?? second(r, p, b);

const acrossMachines = (r: FleetRun, mode: FleetRun["mode"]): boolean => r.k === 20 && r.machines === r.k && r.mode === mode;

const JUDGES: { metric: string; value: (r: FleetRun) => string; judge: Judge }[] = [
  {
    metric: "answers that were 429",
    value: (r) => `${r.limited} of ${r.limited + r.accepted} = ${pct(share429(r))}${r.complete ? "" : " (at least)"}`,
    judge: either(
      (r) =>
        acrossMachines(r, "retry-after") || acrossMachines(r, "fields") ? { target: "<= 10 %", pass: share429(r) <= 0.1 } : undefined,
      noWorse(share429),
    ),
  },
  {
    metric: "first to last request / the earliest possible (K × 10 writes at the limit, then T)",
    value: (r) => `${(r.apiWallMs / 1000).toFixed(1)} s / ${(earliestMs(r.k) / 1000).toFixed(0)} s = ${x2(timeRatio(r))}`,
    judge: either(
      (r) =>
        acrossMachines(r, "retry-after")
          ? { target: "<= 1.3", pass: timeRatio(r) <= 1.3 }
          : acrossMachines(r, "fields")
            ? { target: "<= 1.15", pass: timeRatio(r) <= 1.15 }
            : r.k === 50 && r.machines === 1 && r.mode === "retry-after"
              ? { target: "<= 1.2", pass: timeRatio(r) <= 1.2 }
              : undefined,
      noWorse(timeRatio),
    ),
  },
  {
    metric: "slowest stack / fastest stack (each `up` from the fleet's start)",
    value: (r) => x2(spread(r)),
    judge: (r) => (acrossMachines(r, "retry-after") ? { target: "<= 1.3", pass: spread(r) <= 1.3 } : undefined),
  },
  {
    metric: "stacks not done within the cap; the slowest done stack",
    value: (r) => `${r.notDone}; ${(slowest(r) / 1000).toFixed(1)} s`,
    judge: (r, _p, b) =>
      r.mode !== "sprinkled"
        ? { target: "0", pass: r.notDone === 0 }
        : b === undefined
          ? { target: "0 not done", pass: r.notDone === 0 }
          : { target: "0 not done, slowest <= 1.5 × the first version's", pass: r.notDone === 0 && slowest(r) <= 1.5 * slowest(b) },
  },
  {
    metric: "bytes read per service (every answer's body)",
    value: (r) => bytes(perService(r)),
    judge: (r, _p, b) => (b === undefined ? undefined : { target: "<= first version", pass: perService(r) <= perService(b) }),
  },
  {
    metric: "failed operations",
    value: (r) => `${r.errors.length}${r.errors.length > 0 ? `: ${r.errors[0].slice(0, 160)}` : ""}`,
    judge: (r) => ({ target: "0", pass: r.errors.length === 0 }),
  },
];

/** Adds the fleet rows: this tree's runs beside the first version's and, when measured, the code before's. */
export function fleetRows(report: Report, now: FleetRun[], first: FleetRun[], before: FleetRun[] | undefined, beforeRef: string): void {
  for (const r of now) {
    const section = `5 fleets: ${r.k} stack(s) of ${SERVICES} services on ${r.machines === 1 ? "one machine" : `${r.machines} machines`}, ${r.mode}${before ? ` (before: ${beforeRef})` : ""}`;
    const p = peer(before, r);
    const b = peer(first, r, true);
    for (const { metric, value, judge } of JUDGES) {
      report.row(section, metric, value(r), {
        size: `K = ${r.k}`,
        baseline: b === undefined ? "" : value(b),
        ...(p ? { before: value(p) } : {}),
        ...(judge(r, p, b) ?? {}),
      });
    }
  }
}

/** Adds the fleet section: measures (this tree, the code before when given, the first version), then the rows; returns the compact table. */
export async function fleet(
  report: Report,
  trees: { current: Tree; baseline: Tree; before?: Tree },
  sizes: Sizes,
  say: (what: string) => void,
): Promise<string> {
  const order = [trees.current, ...(trees.before ? [trees.before] : []), trees.baseline];
  const runs = await measureFleets(order, fleetCases(sizes.fleets), say, [trees.baseline]);
  report.raw.fleet = Object.fromEntries([...runs].map(([t, r]) => [t.label, r]));
  const [now, first, before] = [runs.get(trees.current)!, runs.get(trees.baseline)!, trees.before ? runs.get(trees.before) : undefined];
  fleetRows(report, now, first, before, trees.before?.label ?? "");
  return fleetTable(now, before, first);
}
