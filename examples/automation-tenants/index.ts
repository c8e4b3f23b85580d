/**
 * A database per tenant with the Automation API (tenants.ts), from the command line:
 *
 *   npx ts-node examples/automation-tenants/index.ts up --tenants 10 --parallel 5
 *   npx ts-node examples/automation-tenants/index.ts destroy --tenants 10
 *   npx ts-node examples/automation-tenants/index.ts up acme globex initech
 *   npx ts-node examples/automation-tenants/index.ts up --tenants 10 --workers 3 --parallel 2
 *
 * The API is the one `CLOUDDB_API_URL`, `CLOUDDB_API_KEY` and `CLOUDDB_PROJECT_ID` name
 * (`eval "$(npm run --silent emulator:env)"` for the local emulator); the Pulumi CLI is the
 * `pulumi` on PATH. The stacks' state is kept in `CLOUDDB_TENANTS_DIR` (default
 * `.clouddb/tenants` at the repository root). Prints a line per step of every tenant, then a summary; exits 1 when a
 * tenant failed.
 *
 * With `--workers N` the tenants are shared among N worker processes (workers.ts), each with
 * its own journal directory (`<CLOUDDB_TENANTS_DIR>/workers/worker-<k>/journal`) and
 * `--parallel` stacks at once, as N CI runners or operator pods would run them: every line a
 * worker prints is prefixed with `[w<k>]`, then each worker's result and every tenant's.
 */
import * as path from "path";
import { defaultStateDir, destroyTenants, type Progress, progressLine, provisionTenants, tenantNames, type TenantResult } from "./tenants";
import { runWorkers, tenantLine, WORKER_ENV, type WorkerReport, workerFailed, workerLine } from "./workers";

/** What the command line asks for. */
interface Command {
  action: "up" | "destroy";
  tenants: string[];
  parallel: number;
  /** How many worker processes share the tenants; undefined: this process runs them all. */
  workers?: number;
}

const USAGE = "usage: index.ts up|destroy [--tenants N | name ...] [--parallel P] [--workers W]";

function parse(argv: string[]): Command {
  const [action, ...rest] = argv;
  if (action !== "up" && action !== "destroy") throw new Error(USAGE);
  let count: number | undefined;
  let parallel = 4;
  let workers: number | undefined;
  const names: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === "--tenants" || arg === "--parallel" || arg === "--workers") {
      const n = Number(rest[++i]);
      if (!Number.isInteger(n) || n < 1) throw new Error(`${arg} takes a whole number of at least 1\n${USAGE}`);
      if (arg === "--tenants") count = n;
      else if (arg === "--parallel") parallel = n;
      else workers = n;
    } else if (arg.startsWith("-")) {
      throw new Error(`unknown option ${arg}\n${USAGE}`);
    } else {
      names.push(arg);
    }
  }
  const tenants = names.length > 0 ? names : tenantNames(count ?? 3);
  return { action, tenants, parallel, ...(workers === undefined ? {} : { workers }) };
}

function env(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === "") {
    throw new Error(`${name} is not set: for the local emulator, run \`eval "$(npm run --silent emulator:env)"\` first`);
  }
  return value;
}

/** Runs the tenants as `command.workers` worker processes; prints each worker's lines, then each worker's result and every tenant's. */
async function mainWorkers(command: Command & { workers: number }, apiUrl: string): Promise<void> {
  const t0 = Date.now();
  const stateDir = path.resolve(process.env.CLOUDDB_TENANTS_DIR || defaultStateDir());
  const n = Math.min(command.workers, command.tenants.length);
  process.stdout.write(
    `pulumi ${command.action} of ${command.tenants.length} tenant stack(s) in ${n} worker process(es), ${command.parallel} at a time each, against ${apiUrl}\n`,
  );
  const workers = await runWorkers({
    action: command.action,
    tenants: command.tenants,
    workers: n,
    parallel: command.parallel,
    root: path.join(stateDir, "workers"),
    onLine: (k, line) => process.stdout.write(`[w${k}] ${line}\n`),
  });
  const results = workers.flatMap((w) => w.results ?? []);
  const ok = results.filter((r) => r.ok).length;
  process.stdout.write(`\n${ok} of ${command.tenants.length} tenant(s) done in ${((Date.now() - t0) / 1000).toFixed(1)}s\n`);
  for (const w of workers) process.stdout.write(`${workerLine(w)}\n`);
  for (const r of results) process.stdout.write(`${tenantLine(r)}\n`);
  if (workers.some(workerFailed)) process.exitCode = 1;
}

async function main(): Promise<void> {
  const command = parse(process.argv.slice(2));
  const api = { apiUrl: env("CLOUDDB_API_URL"), apiKey: env("CLOUDDB_API_KEY"), projectId: env("CLOUDDB_PROJECT_ID") };
  if (command.workers !== undefined && process.env[WORKER_ENV] === undefined) {
    await mainWorkers({ ...command, workers: command.workers }, api.apiUrl);
    return;
  }
  const t0 = Date.now();
  let done = 0;
  const onProgress = (event: Progress): void => {
    if (event.kind === "finished") done++;
    if (event.kind !== "waiting") process.stdout.write(`${progressLine(event, t0, done, command.tenants.length)}\n`);
  };
  process.stdout.write(
    `pulumi ${command.action} of ${command.tenants.length} tenant stack(s), ${command.parallel} at a time, against ${api.apiUrl}\n`,
  );
  const run = command.action === "up" ? provisionTenants : destroyTenants;
  const results: TenantResult[] = await run({
    tenants: command.tenants,
    api,
    parallel: command.parallel,
    onProgress,
    ...(process.env.CLOUDDB_TENANTS_DIR ? { stateDir: process.env.CLOUDDB_TENANTS_DIR } : {}),
  });
  const failed = results.filter((r) => !r.ok);
  process.stdout.write(
    `\n${results.length - failed.length} of ${results.length} tenant(s) done in ${((Date.now() - t0) / 1000).toFixed(1)}s\n`,
  );
  for (const r of results) process.stdout.write(`${tenantLine(r)}\n`);
  if (failed.length > 0) process.exitCode = 1;
  // A worker (workers.ts) reports its results to the parent that started it.
  if (process.send !== undefined) {
    const report: WorkerReport = { results };
    await new Promise<void>((resolve) => process.send?.(report, undefined, {}, () => resolve()));
    process.disconnect?.();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});
