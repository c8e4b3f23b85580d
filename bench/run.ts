/**
 * `npm run bench`: every figure of the README's Performance section, measured in one run
 * through Pulumi's real dynamic-provider plugin (the harness, as the engine drives it)
 * against the emulator CLI in a child process. Prints a
 * table, writes bench/results/bench-<time>.json (and latest.json), and exits non-zero when
 * a target is missed.
 */
import { convergence } from "./convergence";
import { journal } from "./journal";
import { leanStart } from "./leanStart";
import { Report } from "./report";
import { scale } from "./scale";
import { schedule } from "./schedule";

async function run(): Promise<void> {
  const started = new Date();
  const report = new Report();
  process.stderr.write("bench: the poll schedule, computed\n");
  schedule(report);
  process.stderr.write("bench: convergence and API economy (one service, T = 30 s, twice)\n");
  await convergence(report);
  process.stderr.write("bench: scale (40 services at 10 req/s; 100 services + 100 replica sets at 20 req/s)\n");
  await scale(report);
  process.stderr.write("bench: lean start (this tree against the base commit)\n");
  await leanStart(report);
  process.stderr.write("bench: the create journal\n");
  await journal(report);
  process.stdout.write(`\n${report.table()}\n`);
  const file = report.write(started);
  process.stdout.write(`\nwritten to ${file} (and bench/results/latest.json)\n`);
  const missed = report.rows.filter((r) => r.pass === false);
  if (missed.length > 0) {
    process.stdout.write(`${missed.length} target(s) missed\n`);
    process.exitCode = 1;
  }
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
