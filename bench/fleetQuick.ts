/**
 * Fleets alone, for a look while working on the pacing (`npm run build` first): one tree, no
 * first version beside it, so no figure is judged. One line per fleet, and with
 * `BENCH_TIMELINE=1` the API's answers second by second (writes / single reads / list reads / 429s),
 * each stack's `up` (s) and the bytes per service by kind of request (byteCounter.ts).
 *
 *   BENCH_FLEETS=20 BENCH_MACHINES=K BENCH_FLEET_MODES=retry-after npx ts-node --transpile-only bench/fleetQuick.ts
 *
 * `BENCH_FLEETS` the fleet sizes (default 20); `BENCH_MACHINES` `1`, `K` or `1,K` (the default);
 * `BENCH_FLEET_MODES` any of `bare`, `retry-after`, `fields`, `sprinkled` (default `retry-after`);
 * `BENCH_FLEET_TREE=<commit>` measures that commit (checked out and built) instead of this tree.
 * `npm run bench` (or `BENCH_ONLY=fleet npm run bench`) gives the judged table.
 */
import { earliestMs, SERVICES, type FleetCase, type FleetMode, type FleetRun, measureFleets } from "./fleet";
import { perService, share429, spread, timeRatio } from "./fleetReport";
import { baseTree, removeTree, thisTree } from "./trees";

const ks = (process.env.BENCH_FLEETS ?? "20").split(",").map(Number);
const machines = (process.env.BENCH_MACHINES ?? "1,K").split(",");
const modes = (process.env.BENCH_FLEET_MODES ?? "retry-after").split(",") as FleetMode[];

/** One fleet's figures on a line. */
function line(r: FleetRun): string {
  return (
    `K=${r.k} machines=${r.machines} ${r.mode}: 429 ${(share429(r) * 100).toFixed(1)} % (${r.limited}/${r.limited + r.accepted}), ` +
    `time ${timeRatio(r).toFixed(2)} × earliest (${(r.apiWallMs / 1000).toFixed(1)} s of ${(earliestMs(r.k) / 1000).toFixed(0)}), ` +
    `slowest/fastest ${spread(r).toFixed(2)}, ${r.notDone} not done, ${(perService(r) / 1000).toFixed(1)} KB/service, ` +
    `${r.errors.length} failed${r.errors.length > 0 ? `: ${r.errors[0]}` : ""}`
  );
}

async function main(): Promise<void> {
  // Between a fleet's steps nothing of this process may be pending (the stacks are child
  // processes, the waits their answers): without a timer of its own, it can end half-way.
  const alive = setInterval(() => undefined, 60_000);
  const ref = process.env.BENCH_FLEET_TREE;
  const tree = ref === undefined ? thisTree : await baseTree(ref);
  const cases: FleetCase[] = ks.flatMap((k) =>
    modes.flatMap((mode) => [...new Set(machines.map((m) => (m === "K" ? k : Number(m))))].map((m) => ({ k, machines: m, mode }))),
  );
  try {
    const runs = await measureFleets([tree], cases, (what) => process.stderr.write(`${what}\n`));
    for (const r of runs.get(tree) ?? []) {
      process.stdout.write(`${line(r)}\n`);
      if (process.env.BENCH_TIMELINE === "1") {
        process.stdout.write(`  ${r.timeline.map((s) => `${s.w}/${s.g}/${s.l}/${s.x}`).join(" ")}\n`);
        const walls = [...r.stackWallsMs].sort((a, b) => a - b).map((ms) => (ms / 1000).toFixed(1));
        process.stdout.write(`  stacks (s): ${walls.join(" ")}\n`);
        const kinds = Object.entries(r.bytesByKind).sort((a, b) => b[1] - a[1]);
        process.stdout.write(
          `  KB/service by request: ${kinds.map(([k, b]) => `${k} ${(b / (r.k * SERVICES * 1000)).toFixed(2)}`).join(", ")}\n`,
        );
      }
    }
  } finally {
    clearInterval(alive);
    await removeTree(tree);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
