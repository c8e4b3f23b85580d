/**
 * The fleets alone, in this tree alone, for a look while working on the pacing (`npm run
 * build` first): no baseline is built, so no figure is judged. One line per fleet, and with
 * `BENCH_TIMELINE=1` the API's answers second by second (writes / single reads / list reads / 429s) and each stack's `up` (s).
 *
 *   BENCH_FLEETS=1,20 BENCH_RETRY_AFTER=on npx ts-node --transpile-only bench/fleetQuick.ts
 *
 * `BENCH_FLEETS` the fleet sizes (default 20); `BENCH_RETRY_AFTER` `on`, `off` or both (the
 * default). `npm run bench` (or `BENCH_ONLY=fleet npm run bench`) gives the judged table.
 */
import { earliestMs, type FleetRun, measureFleets } from "./fleet";
import { thisTree } from "./trees";

const ks = (process.env.BENCH_FLEETS ?? "20").split(",").map(Number);
const mode = process.env.BENCH_RETRY_AFTER;
const modes = mode === "off" ? [false] : mode === "on" ? [true] : [false, true];

/** One fleet's figures on a line. */
function line(r: FleetRun): string {
  const share = r.limited / Math.max(1, r.limited + r.accepted);
  const spread = Math.max(...r.stackWallsMs) / Math.max(1, Math.min(...r.stackWallsMs));
  return (
    `K=${r.k} Retry-After=${r.retryAfter ? "on" : "off"}: 429 ${(share * 100).toFixed(1)} % (${r.limited}/${r.limited + r.accepted}), ` +
    `time ${(r.apiWallMs / earliestMs(r.k)).toFixed(2)} × earliest (${(r.apiWallMs / 1000).toFixed(1)} s), slowest/fastest ${spread.toFixed(2)}, ` +
    `${(r.bytes / (r.k * 10) / 1000).toFixed(1)} KB/service, ${r.errors.length} failed${r.errors.length > 0 ? `: ${r.errors[0]}` : ""}`
  );
}

async function main(): Promise<void> {
  // Between a fleet's steps nothing of this process may be pending (the stacks are child
  // processes, the waits their answers): without a timer of its own, it can end half-way.
  const alive = setInterval(() => undefined, 60_000);
  const runs = await measureFleets([thisTree], ks, (what) => process.stderr.write(`${what}\n`), modes).finally(() => clearInterval(alive));
  for (const r of runs.get(thisTree) ?? []) {
    process.stdout.write(`${line(r)}\n`);
    if (process.env.BENCH_TIMELINE === "1") {
      process.stdout.write(`  ${r.timeline.map((s) => `${s.w}/${s.g}/${s.l}/${s.x}`).join(" ")}\n`);
      process.stdout.write(
        `  stacks (s): ${[...r.stackWallsMs]
          .sort((a, b) => a - b)
          .map((ms) => (ms / 1000).toFixed(1))
          .join(" ")}\n`,
      );
    }
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exitCode = 1;
});
