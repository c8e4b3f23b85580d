/**
 * The tenants run as N worker processes, as N CI runners or N operator pods would run them:
 * each worker is a Node process of its own running index.ts (the Automation API) for its
 * share of the tenants, with its own journal directory (`CLOUDDB_JOURNAL_DIR`, which holds the
 * provider's pacing files), all with the one API key. The workers share nothing but the key
 * and the stacks' state backend (as a fleet's runners share a Pulumi backend). Each is told the
 * fleet's size (`CLOUDDB_FLEET_MACHINES`: N) and its number in it (`CLOUDDB_FLEET_MACHINE_INDEX`:
 * k − 1), unless the count is set already, so that, once the key's limit is known
 * (`CLOUDDB_KEY_RATE_LIMIT`, or the API's `RateLimit-Policy`), each sends in the slot of its
 * number; else each learns the key's limit from the API's answers alone (README, "Stacks on many
 * machines, one API key").
 */
import { fork } from "child_process";
import * as fs from "fs";
import * as path from "path";
import type { TenantResult } from "./tenants";

/** Set in a worker's environment: its number (1 to N); index.ts then runs its tenants in-process and reports to the parent. */
export const WORKER_ENV = "CLOUDDB_TENANTS_WORKER";

/** What a worker sends its parent before it exits. */
export interface WorkerReport {
  results: TenantResult[];
}

/** What the parent knows of a worker once it has exited. */
export interface WorkerResult {
  /** 1 to N. */
  worker: number;
  tenants: string[];
  /** Its `CLOUDDB_JOURNAL_DIR`. */
  journalDir: string;
  /** Its exit code (null when a signal ended it). */
  code: number | null;
  /** What it reported; undefined when it exited without a report (it crashed). */
  results?: TenantResult[];
  ms: number;
}

/** Options of {@link runWorkers}. */
export interface WorkersOptions {
  action: "up" | "destroy";
  tenants: readonly string[];
  /** How many workers; at most one per tenant. */
  workers: number;
  /** How many stacks each worker runs at once. */
  parallel: number;
  /** The folder under which each worker's journal directory is made: `<root>/worker-<k>/journal`. */
  root: string;
  /** Told of every line a worker prints, with its number. */
  onLine: (worker: number, line: string) => void;
}

/** The share of worker `k` (0-based) of `n`: every n-th tenant, so that a tenant keeps its worker (and its journal) from run to run while n stays the same. */
export function shareOf(tenants: readonly string[], k: number, n: number): string[] {
  return tenants.filter((_, i) => i % n === k);
}

/** Calls `onLine` with each whole line of `stream`, and with what is left at its end. */
function eachLine(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let rest = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) onLine(line);
  });
  stream.on("end", () => {
    if (rest !== "") onLine(rest);
  });
}

/** How a worker runs index.ts: under ts-node when this is the TypeScript source, else as compiled. */
function workerArgs(): { script: string; execArgv: string[] } {
  const ext = path.extname(__filename);
  const script = path.join(__dirname, `index${ext}`);
  return { script, execArgv: ext === ".ts" ? ["-r", require.resolve("ts-node/register/transpile-only")] : [] };
}

/**
 * What worker `k` of `workers` is told of the fleet: the count set already (its fleet is wider
 * than these workers: its number is not known here), else `workers`, and its number in them
 * (0 to N − 1), the slot of the grid that is its own.
 */
function fleetOf(k: number, workers: number): Record<string, string> {
  const set = process.env.CLOUDDB_FLEET_MACHINES;
  if (set) return { CLOUDDB_FLEET_MACHINES: set };
  return { CLOUDDB_FLEET_MACHINES: String(workers), CLOUDDB_FLEET_MACHINE_INDEX: String(k - 1) };
}

/** Starts worker `k` (1-based) and resolves when it has exited. Never rejects. */
function runWorker(k: number, tenants: string[], opts: WorkersOptions): Promise<WorkerResult> {
  const journalDir = path.join(opts.root, `worker-${k}`, "journal");
  fs.mkdirSync(journalDir, { recursive: true, mode: 0o700 });
  const { script, execArgv } = workerArgs();
  const started = Date.now();
  return new Promise((resolve) => {
    let results: TenantResult[] | undefined;
    const child = fork(script, [opts.action, ...tenants, "--parallel", String(opts.parallel)], {
      execArgv,
      env: {
        ...process.env,
        [WORKER_ENV]: String(k),
        CLOUDDB_JOURNAL_DIR: journalDir,
        ...fleetOf(k, opts.workers),
      },
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    });
    if (child.stdout) eachLine(child.stdout, (line) => opts.onLine(k, line));
    if (child.stderr) eachLine(child.stderr, (line) => opts.onLine(k, line));
    child.on("message", (m: WorkerReport) => {
      results = m.results;
    });
    const done = (code: number | null): void => resolve({ worker: k, tenants, journalDir, code, results, ms: Date.now() - started });
    child.on("error", () => done(1));
    child.on("exit", (code) => done(code));
  });
}

/** Runs `opts.action` for the tenants as `opts.workers` worker processes at once; each worker's result once all have exited. */
export function runWorkers(opts: WorkersOptions): Promise<WorkerResult[]> {
  const n = Math.max(1, Math.min(opts.workers, opts.tenants.length));
  return Promise.all(Array.from({ length: n }, (_, k) => runWorker(k + 1, shareOf(opts.tenants, k, n), opts)));
}

/** Whether a worker failed: it exited non-zero, reported nothing, or a tenant of its failed. */
export function workerFailed(w: WorkerResult): boolean {
  return w.code !== 0 || w.results === undefined || w.results.some((r) => !r.ok);
}

/** The summary line of a worker: `worker 1: 2 of 2 tenant(s) done in 31.2s (journal .../worker-1/journal)`. */
export function workerLine(w: WorkerResult): string {
  const secs = `${(w.ms / 1000).toFixed(1)}s`;
  const ok = w.results?.filter((r) => r.ok).length ?? 0;
  const how =
    w.results === undefined
      ? `FAILED: exited with ${w.code === null ? "a signal" : `code ${w.code}`} before reporting its ${w.tenants.length} tenant(s)`
      : `${ok} of ${w.tenants.length} tenant(s) done`;
  return `worker ${w.worker}: ${how} in ${secs} (journal ${w.journalDir})`;
}

/** The summary line of a tenant: `  tenant-01    ok        9.5s  host:5432`. */
export function tenantLine(r: TenantResult): string {
  const where = r.outputs === undefined ? "" : `  ${String(r.outputs.host)}:${String(r.outputs.port)}`;
  return `  ${r.tenant.padEnd(12)} ${r.ok ? "ok    " : "FAILED"} ${(r.ms / 1000).toFixed(1).padStart(6)}s${where}${r.message ? `  ${r.message}` : ""}`;
}
