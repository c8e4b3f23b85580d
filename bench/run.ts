/**
 * `npm run bench`: every figure of docs/performance/benchmarks.md, measured in
 * one run through Pulumi's real dynamic-provider plugin (the harness, as the engine drives
 * it) against the emulator CLI in a child process, as curves (N creates and their refresh,
 * L services in the project, Q requests queued), for this tree beside a baseline commit it
 * checks out and builds itself (`BENCH_BASE`, default the first version: trees.ts `FIRST_VERSION`) and, for
 * the figures the baseline has no counterpart of, the commit this work started from
 * (`BENCH_BEFORE`, default 1d11c8a; `none` skips it), and beside the anchors' schedules
 * computed for the same readiness time, each figure with its target: met, or not and why.
 * Prints the table, writes bench/results/bench-<time>.json (and latest.json), and exits
 * non-zero when a target is missed. About 9 to 11 minutes on a 2-core machine; `BENCH_QUICK=1`
 * shortens the curves (bench/sizes.ts); `BENCH_NODE` names a Node 22.10+ binary for the
 * compile cache's figures (bench/compileCache.ts). The fleets (bench/fleet.ts) also set the
 * code this work started from beside this tree (`BENCH_FLEET_BEFORE`, default b004f5a, the
 * pacing of one machine's shared schedule before fleets across machines; `none` leaves it out),
 * and print their own table at the end; `BENCH_ONLY=fleet` measures the fleets alone. The
 * plugin's CPU per create, read and delete (bench/opCpu.ts) is set beside `BENCH_OPCPU_MAIN`'s
 * (default `main`); `BENCH_ONLY=opcpu` measures it alone.
 */
import { execFileSync } from "child_process";
import { REPO_ROOT } from "../harness";
import { bigProject } from "./bigProject";
import { compileCache } from "./compileCache";
import { convergence } from "./convergence";
import { creates } from "./creates";
import { fleet } from "./fleetReport";
import { footprint } from "./footprint";
import { journal } from "./journal";
import { leanStart } from "./leanStart";
import { micro } from "./micro";
import { opCpu } from "./opCpu";
import { rateLimited } from "./rateLimited";
import { Report } from "./report";
import { schedule } from "./schedule";
import { sizes as sizesOf } from "./sizes";
import { baselineRef, baseTree, removeTree, thisTree, type Tree } from "./trees";

/** The tree whose plugin CPU per operation this tree's is set beside (bench/opCpu.ts). */
const opCpuRef = process.env.BENCH_OPCPU_MAIN ?? "main";

const say = (what: string, since: number) => process.stderr.write(`bench: ${what} (${((Date.now() - since) / 1000).toFixed(0)} s in)\n`);

async function run(): Promise<void> {
  const started = new Date();
  const t0 = started.getTime();
  const report = new Report();
  const sizes = sizesOf();
  const baseRef = baselineRef();
  const only = process.env.BENCH_ONLY;
  if (only !== undefined && only !== "fleet" && only !== "opcpu")
    throw new Error(`BENCH_ONLY=${only}: the parts that run alone are "fleet" and "opcpu"`);
  if (only === "opcpu") return opCpuAlone(report, started);
  const beforeRef = only === "fleet" ? "none" : (process.env.BENCH_BEFORE ?? "1d11c8a");
  const fleetBeforeRef = process.env.BENCH_FLEET_BEFORE ?? "b004f5a";
  const commit = execFileSync("git", ["-C", REPO_ROOT, "describe", "--always", "--dirty"]).toString().trim();
  const extra = [beforeRef, fleetBeforeRef].filter((r) => r !== "none");
  say(`building ${[baseRef, ...extra].join(" and ")} beside this tree (${commit})${sizes.quick ? ", quick curves" : ""}`, t0);
  const trees: Tree[] = [];
  let fleetTableText: string | undefined;
  const built = (ref: string): Promise<Tree | undefined> =>
    ref === "none" ? Promise.resolve(undefined) : baseTree(ref).then((t) => (trees.push(t), t));
  try {
    const [baseline, before, fleetBefore, opCpuTree] = (await Promise.all([
      built(baseRef),
      built(beforeRef),
      built(fleetBeforeRef),
      built(only === "fleet" ? "none" : opCpuRef),
    ])) as [Tree, Tree | undefined, Tree | undefined, Tree];
    if (only !== "fleet") {
      say("the serialized provider; the poll schedule, computed", t0);
      footprint(report, thisTree);
      schedule(report, baseline);
      say("inner loops: the pacer's queue and the poll hub's tick", t0);
      await micro(report, thisTree, before, sizes);
      say("the create journal", t0);
      await journal(report, thisTree, before);
      say("lean start and the compile cache", t0);
      await leanStart(report, baseline, sizes);
      await compileCache(report, sizes);
      say("convergence (one service, T = 30 s, twice)", t0);
      await convergence(report);
      say("N creates without a rate limit, and their refresh", t0);
      await creates(report, thisTree, baseline, sizes);
      say("creates against a rate limit", t0);
      await rateLimited(report, thisTree, baseline, sizes);
      say("one create in a project of L services", t0);
      await bigProject(report, { current: thisTree, baseline, ...(before ? { before } : {}) }, sizes);
      say(`the plugin's CPU per create, read and delete, beside ${opCpuRef}`, t0);
      await opCpu(report, thisTree, opCpuTree);
    }
    say(`fleets of ${sizes.fleets.join(", ")} stacks, on one machine and on as many`, t0);
    fleetTableText = await fleet(report, { current: thisTree, baseline, ...(fleetBefore ? { before: fleetBefore } : {}) }, sizes, (what) =>
      say(what, t0),
    );
  } finally {
    await Promise.all(trees.map(removeTree));
  }
  const beforeLabel = only === "fleet" ? `before ${fleetBeforeRef}` : `before ${beforeRef} (fleets: ${fleetBeforeRef})`;
  process.stdout.write(`\n${report.table(`baseline ${baseRef}`, beforeLabel)}\n`);
  if (fleetTableText !== undefined) {
    process.stdout.write(
      `\nFleets (each cell: this tree / ${fleetBeforeRef === "none" ? "–" : fleetBeforeRef} / ${baseRef}):\n\n${fleetTableText}\n`,
    );
  }
  const file = report.write(started, {
    commit,
    baseline: baseRef,
    before: beforeRef,
    fleetBefore: fleetBeforeRef,
    quick: sizes.quick,
    only,
  });
  process.stdout.write(
    `\n${commit}, Node ${process.version}, ${started.toISOString().slice(0, 10)}, ${((Date.now() - t0) / 60_000).toFixed(1)} min${sizes.quick ? " (quick curves)" : ""}\n`,
  );
  process.stdout.write(`written to ${file} (and bench/results/latest.json)\n`);
  const missed = report.rows.filter((r) => r.pass === false);
  if (missed.length > 0) {
    process.stdout.write(`${missed.length} target(s) not met\n`);
    process.exitCode = 1;
  }
}

/** `BENCH_ONLY=opcpu`: the plugin's CPU per operation alone, beside `BENCH_OPCPU_MAIN`'s. */
async function opCpuAlone(report: Report, started: Date): Promise<void> {
  const other = await baseTree(opCpuRef);
  try {
    await opCpu(report, thisTree, other);
  } finally {
    await removeTree(other);
  }
  process.stdout.write(`\n${report.table("", opCpuRef)}\n`);
  process.stdout.write(`\nwritten to ${report.write(started, { only: "opcpu", other: opCpuRef })}\n`);
}

// The plugin and emulator child processes are unref'd (so a forgotten close never keeps a
// test run alive): hold the event loop open while the bench runs.
const keepAlive = setInterval(() => undefined, 60_000);
run()
  .catch((e: unknown) => {
    process.stderr.write(`bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  })
  .finally(() => clearInterval(keepAlive));
