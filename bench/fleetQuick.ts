/**
 * Fleets alone, for a look while working on the pacing (`npm run build` first): this tree and,
 * in the same run, the first version (`BENCH_BASE`, default trees.ts `FIRST_VERSION`; `none`
 * leaves it out), which shares nothing between processes and so runs each fleet on one machine
 * only (bench/fleet.ts `measureFleets`). One line per fleet and tree (the first version's under
 * this tree's first fleet of its K and mode); under each fleet of this tree, the first version's walls beside it (the first to the last request, and the slowest
 * stack's `up`, as ratios); at the end the compact table `npm run bench` prints
 * (bench/fleetReport.ts `fleetTable`, each cell this tree / – / first version). With
 * `BENCH_TIMELINE=1` the API's answers second by second (writes / single reads / list reads /
 * 429s), each stack's `up` (s) and the bytes per service by kind of request (byteCounter.ts).
 *
 *   BENCH_FLEETS=20 BENCH_MACHINES=K BENCH_FLEET_MODES=retry-after npx ts-node --transpile-only bench/fleetQuick.ts
 *
 * `BENCH_FLEETS` the fleet sizes (default 20); `BENCH_MACHINES` `1`, `K` or `1,K` (the default);
 * `BENCH_FLEET_MODES` any of `bare`, `retry-after`, `fields`, `sprinkled` (default `retry-after`);
 * `BENCH_FLEET_TREE=<commit>` measures that commit (checked out and built) instead of this tree.
 * Quick runs on a loaded machine judge nothing: `npm run bench` (or `BENCH_ONLY=fleet npm run
 * bench`) gives the judged rows.
 */
import { earliestMs, SERVICES, type FleetCase, type FleetMode, type FleetRun, measureFleets } from "./fleet";
import { fleetTable, peer, perService, share429, slowest, spread, timeRatio } from "./fleetReport";
import { baselineRef, baseTree, removeTree, thisTree, type Tree } from "./trees";

const ks = (process.env.BENCH_FLEETS ?? "20").split(",").map(Number);
const machines = (process.env.BENCH_MACHINES ?? "1,K").split(",");
const modes = (process.env.BENCH_FLEET_MODES ?? "retry-after").split(",") as FleetMode[];

/** One fleet's figures on a line. */
function line(label: string, r: FleetRun): string {
  return (
    `K=${r.k} machines=${r.machines} ${r.mode} (${label}): 429 ${(share429(r) * 100).toFixed(1)} % (${r.limited}/${r.limited + r.accepted}), ` +
    `time ${timeRatio(r).toFixed(2)} × earliest (${(r.apiWallMs / 1000).toFixed(1)} s of ${(earliestMs(r.k) / 1000).toFixed(0)}), ` +
    `slowest/fastest ${spread(r).toFixed(2)}, ${r.notDone} not done, ${(perService(r) / 1000).toFixed(1)} KB/service, ` +
    `${r.errors.length} failed${r.errors.length > 0 ? `: ${r.errors[0]}` : ""}`
  );
}

/** This tree's walls against the first version's (its run on one machine): the first to the last request, and the slowest done stack. */
function against(r: FleetRun, first: FleetRun): string {
  const ratio = (a: number, b: number): string => (Number.isFinite(a) && Number.isFinite(b) ? (a / b).toFixed(2) : "n/a");
  return (
    `  against the first version: requests' wall ${ratio(r.apiWallMs, first.apiWallMs)} ×, ` +
    `slowest stack ${ratio(slowest(r), slowest(first))} × (${(slowest(r) / 1000).toFixed(1)} s / ${(slowest(first) / 1000).toFixed(1)} s), ` +
    `not done ${r.notDone} / ${first.notDone}, bytes ${ratio(perService(r), perService(first))} ×`
  );
}

/** The timeline's lines of a run (`BENCH_TIMELINE=1`). */
function timeline(r: FleetRun): string {
  const walls = [...r.stackWallsMs].sort((a, b) => a - b).map((ms) => (ms / 1000).toFixed(1));
  const kinds = Object.entries(r.bytesByKind).sort((a, b) => b[1] - a[1]);
  return [
    `  ${r.timeline.map((s) => `${s.w}/${s.g}/${s.l}/${s.x}`).join(" ")}`,
    `  stacks (s): ${walls.join(" ")}`,
    `  KB/service by request: ${kinds.map(([k, b]) => `${k} ${(b / (r.k * SERVICES * 1000)).toFixed(2)}`).join(", ")}`,
  ].join("\n");
}

async function main(): Promise<void> {
  // Between a fleet's steps nothing of this process may be pending (the stacks are child
  // processes, the waits their answers): without a timer of its own, it can end half-way.
  const alive = setInterval(() => undefined, 60_000);
  const ref = process.env.BENCH_FLEET_TREE;
  const firstRef = baselineRef();
  const built: Tree[] = [];
  try {
    const [tree, first] = await Promise.all([
      ref === undefined ? thisTree : baseTree(ref).then((t) => (built.push(t), t)),
      firstRef === "none" ? undefined : baseTree(firstRef).then((t) => (built.push(t), t)),
    ]);
    const cases: FleetCase[] = ks.flatMap((k) =>
      modes.flatMap((mode) => [...new Set(machines.map((m) => (m === "K" ? k : Number(m))))].map((m) => ({ k, machines: m, mode }))),
    );
    const trees = first === undefined ? [tree] : [tree, first];
    const runs = await measureFleets(trees, cases, (what) => process.stderr.write(`${what}\n`), first === undefined ? [] : [first]);
    const firstRuns = first === undefined ? [] : (runs.get(first) ?? []);
    const timelines = process.env.BENCH_TIMELINE === "1";
    const shown = new Set<FleetRun>();
    for (const r of runs.get(tree) ?? []) {
      process.stdout.write(`${line(tree.label, r)}\n`);
      if (timelines) process.stdout.write(`${timeline(r)}\n`);
      const b = peer(firstRuns, r, true);
      if (b === undefined || first === undefined) continue;
      if (!shown.has(b)) {
        shown.add(b);
        process.stdout.write(`${line(first.label, b)}\n`);
        if (timelines) process.stdout.write(`${timeline(b)}\n`);
      }
      process.stdout.write(`${against(r, b)}\n`);
    }
    if (first !== undefined) {
      process.stdout.write(`\nEach cell: ${tree.label} / – / ${first.label} (first version, on one machine)\n\n`);
      process.stdout.write(`${fleetTable(runs.get(tree) ?? [], undefined, firstRuns)}\n`);
    }
  } finally {
    clearInterval(alive);
    await Promise.all(built.map(removeTree));
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
