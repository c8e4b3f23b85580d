/**
 * `npm run bench`: convergence overhead, API economy, scale under a rate limit, and
 * footprint, all measured in one run through the real dynamic-provider plugin (the test
 * harness's TestStack) against the emulator CLI in a child process. Prints a table and
 * writes it to bench/results/bench-<time>.json (and latest.json).
 *
 * Not compiled by `npm run build` (tsconfig.build.json excludes bench/): it runs under
 * ts-node and uses the test harness; `npm run typecheck` checks it.
 */
import * as fs from "fs";
import * as path from "path";
import * as clouddb from "pulumi-clouddb";
import { pollIntervalMs } from "../provider/client/waiters";
import { expectNoErrors, TestStack, type UpResult } from "../tests/harness";
import {
  defaultConfig,
  startEmulatorProcess,
  type EmulatorProcess,
  type LoggedRequest,
} from "../tests/resilience/support/emulatorProcess";

/** One row of the table. */
interface Row {
  section: string;
  metric: string;
  value: string;
  target: string;
  pass: boolean | null;
}

const rows: Row[] = [];
const raw: Record<string, unknown> = {};

function row(section: string, metric: string, value: string, target = "", pass: boolean | null = null): void {
  rows.push({ section, metric, value, target, pass });
  process.stderr.write(`  ${section} | ${metric}: ${value}${target ? ` (target ${target}: ${pass ? "ok" : "MISSED"})` : ""}\n`);
}

const secs = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const isWrite = (r: LoggedRequest): boolean => r.method !== "GET";
const at = (r: LoggedRequest): number => Date.parse(r.at);

/** Polls the waiter's schedule makes until `readyAfterMs` (defaults of provider/client/config.ts: 250 ms, 10 s). */
function expectedPolls(readyAfterMs: number, initialMs = 250, maxMs = 10_000): number {
  let t = initialMs;
  let polls = 1;
  while (t < readyAfterMs) {
    t += pollIntervalMs(t, initialMs, maxMs);
    polls++;
  }
  return polls;
}

/** Peak resident memory (VmHWM) of a process, in MiB. */
function peakMemoryMiB(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const m = /VmHWM:\s+(\d+) kB/.exec(status);
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

function summarize(r: UpResult): string {
  const counts: Record<string, number> = {};
  for (const s of r.steps) counts[s.op] = (counts[s.op] ?? 0) + 1;
  return Object.entries(counts)
    .map(([k, v]) => `${v} ${k}`)
    .join(", ");
}

// ------------------------------------------------------------------ 1 + 2a/2b

async function convergence(): Promise<void> {
  // Nominal create: 2 s QUEUED + 5 s CONFIGURING = 7 s; scale so that T = 10 s.
  const T = 10_000;
  const scale = T / 7_000;
  const emu = await startEmulatorProcess({ clockScale: scale });
  const stack = await TestStack.create({ config: defaultConfig(emu), secretKeys: ["clouddb:apiKey"] });
  try {
    const program = () => {
      const db = new clouddb.Service("db", { name: "bench-convergence" });
      return { id: db.serviceId, status: db.status };
    };
    await emu.clearRequests();
    const started = Date.now();
    const r = expectNoErrors(await stack.up(program));
    const wall = Date.now() - started;
    const log = await emu.requests();
    const post = log.find((x) => x.method === "POST" && /\/services$/.test(x.path));
    if (!post) throw new Error("no create request in the log");
    // T as the emulator provisions: from the POST's arrival to READY.
    const providerWall = at(log[log.length - 1]!) - at(post);
    const overshoot = wall - T;
    const allowed = Math.max(1_000, 0.05 * T);
    raw.convergence = { T, scale, upWallMs: wall, postToLastRequestMs: providerWall, requests: log, steps: r.steps };
    row("1 convergence", "provisioning time T (emulated)", secs(T));
    row("1 convergence", "`up` wall time (check + create + wait)", `${secs(wall)} = ${(wall / T).toFixed(3)} T`);
    row("1 convergence", "overshoot past T", secs(overshoot), `<= ${secs(allowed)}`, overshoot <= allowed);
    row("1 convergence", "of which API side: create POST to last read", `${secs(providerWall)} = ${(providerWall / T).toFixed(3)} T`);

    const writes = log.filter(isWrite);
    const gets = log.filter((x) => x.method === "GET");
    const expected = expectedPolls(T) + 1; // + the final fresh read of converge()
    raw.perCreate = { writes: writes.length, gets: gets.length, expectedGets: expected };
    row("2 API economy", "writes per create", String(writes.length), "1", writes.length === 1);
    row(
      "2 API economy",
      "reads per create (waiter polls + final read)",
      `${gets.length} (schedule allows ${expected})`,
      `<= ${expected}`,
      gets.length <= expected,
    );

    await emu.clearRequests();
    const noop = expectNoErrors(await stack.up(program));
    const noopLog = await emu.requests();
    raw.noop = { steps: noop.steps, requests: noopLog };
    row(
      "2 API economy",
      "no-op `up`: writes (all requests)",
      `${noopLog.filter(isWrite).length} (${noopLog.length})`,
      "0 writes",
      noopLog.filter(isWrite).length === 0,
    );
    row("4 footprint", "plugin peak memory (VmHWM), one service", `${peakMemoryMiB(stack.plugin.pid)?.toFixed(1) ?? "?"} MiB`);
    expectNoErrors(await stack.destroy());
  } finally {
    await stack.close();
    await emu.close();
  }
}

// ------------------------------------------------------------------ 3, 2c, 4

async function scale(): Promise<void> {
  const N = 100;
  const clockScale = 0.1; // create 0.7 s, replica set 0.3 s, delete 0.2 s / 0.3 s
  const RPS = 20;
  const emu = await startEmulatorProcess({ clockScale });
  const stack = await TestStack.create({ config: defaultConfig(emu), secretKeys: ["clouddb:apiKey"] });
  try {
    const program = () => {
      for (let i = 0; i < N; i++) {
        const svc = new clouddb.Service(`svc-${i}`, { name: `bench-svc-${i}` });
        new clouddb.ReadReplicaSet(`rs-${i}`, {
          serviceId: svc.serviceId,
          name: `bench-rs-${i}`,
          nodes: 1,
          cpuMillis: 500,
          memoryGbs: 2,
        });
      }
    };
    const limit = await emu.control("POST", "/rate-limit", { requestsPerSecond: RPS });
    if (limit.status !== 204) throw new Error(`rate-limit: HTTP ${limit.status}`);
    await emu.clearRequests();
    const started = Date.now();
    const up = await stack.up(program);
    const wall = Date.now() - started;
    const log = await emu.requests();
    const limited = log.filter((x) => x.status === 429).length;
    const accepted = log.length - limited;
    const bound = (accepted / RPS) * 1000;
    const created = up.steps.filter((s) => s.op === "create").length;
    const live = await (
      await fetch(`${emu.baseUrl}/projects/${emu.projectId}/services`, { headers: { authorization: `Bearer ${emu.pat}` } })
    ).json() as Array<{ status: string; read_replica_sets?: Array<{ status: string }> }>;
    const ready = live.filter((s) => s.status === "READY").length;
    const activeSets = live.reduce((n, s) => n + (s.read_replica_sets ?? []).filter((r) => r.status === "active").length, 0);
    raw.scaleUp = { wallMs: wall, requests: log.length, accepted, limited, errors: up.errors, steps: summarize(up) };
    row("3 scale", "harness parallelism", "registrations: unbounded; deletes: in parallel once dependents are gone; refresh: one at a time");
    row(
      "3 scale",
      `create ${N} services + ${N} replica sets @ ${RPS} req/s`,
      `${created}/${2 * N} created, ${up.errors.length + up.checkFailures.length} failures; live: ${ready} READY, ${activeSets} active`,
      "all converge, 0 failures",
      created === 2 * N && up.errors.length === 0 && ready === N && activeSets === N,
    );
    row("3 scale", "create: requests (accepted + 429)", `${log.length} (${accepted} + ${limited})`);
    row(
      "3 scale",
      "create: wall time / rate-limit bound",
      `${secs(wall)} / ${secs(bound)} = ${(wall / bound).toFixed(2)}`,
    );
    row("4 footprint", `plugin peak memory (VmHWM) after creating ${2 * N}`, `${peakMemoryMiB(stack.plugin.pid)?.toFixed(1) ?? "?"} MiB`);

    // 2c: refresh of N services (and their N replica sets), read cache at its default.
    await emu.control("POST", "/rate-limit", { requestsPerSecond: 0 });
    await emu.clearRequests();
    const refreshStarted = Date.now();
    const refreshed = expectNoErrors(await stack.refresh());
    const refreshWall = Date.now() - refreshStarted;
    const refreshLog = await emu.requests();
    const perService = refreshLog.length / N;
    raw.refresh = { wallMs: refreshWall, requests: refreshLog, steps: refreshed.steps.length };
    row(
      "2 API economy",
      `refresh of ${N} services + ${N} replica sets: requests per service`,
      `${refreshLog.length} requests / ${N} = ${perService.toFixed(2)} (in ${secs(refreshWall)})`,
      "<= 0.2",
      perService <= 0.2,
    );

    // 4: serialized provider sizes.
    const sizeOf = (name: string): number => String(stack.resource(name).inputs.__provider).length;
    const footprint = await footprintStack(emu);
    const sizes: Record<string, number> = { Service: sizeOf("svc-0"), ReadReplicaSet: sizeOf("rs-0"), ...footprint };
    raw.providerSizes = sizes;
    for (const [type, bytes] of Object.entries(sizes)) {
      row("4 footprint", `serialized provider: ${type}`, `${bytes} B`, "< 2048 B", bytes < 2048);
    }

    await emu.control("POST", "/rate-limit", { requestsPerSecond: RPS });
    await emu.clearRequests();
    const destroyStarted = Date.now();
    const destroyed = await stack.destroy();
    const destroyWall = Date.now() - destroyStarted;
    const dlog = await emu.requests();
    const dlimited = dlog.filter((x) => x.status === 429).length;
    const dbound = ((dlog.length - dlimited) / RPS) * 1000;
    raw.scaleDestroy = { wallMs: destroyWall, requests: dlog.length, limited: dlimited, errors: destroyed.errors };
    row(
      "3 scale",
      `destroy ${2 * N} @ ${RPS} req/s`,
      `${destroyed.steps.filter((s) => s.op === "delete").length}/${2 * N} deleted, ${destroyed.errors.length} failures, ${stack.resources().length} left`,
      "all deleted, 0 failures",
      destroyed.errors.length === 0 && stack.resources().length === 0,
    );
    row(
      "3 scale",
      "destroy: wall time / rate-limit bound",
      `${secs(destroyWall)} / ${secs(dbound)} = ${(destroyWall / dbound).toFixed(2)} (${dlog.length} requests, ${dlimited} 429; deletes in parallel)`,
    );
    row("4 footprint", `plugin peak memory (VmHWM), whole ${2 * N}-resource run`, `${peakMemoryMiB(stack.plugin.pid)?.toFixed(1) ?? "?"} MiB`);
  } finally {
    await stack.close();
    await emu.close();
  }
}

/** A VPC and a peering, for their serialized provider sizes. */
async function footprintStack(emu: EmulatorProcess): Promise<Record<string, number>> {
  const stack = await TestStack.create({ config: defaultConfig(emu), secretKeys: ["clouddb:apiKey"] });
  try {
    const program = () => {
      const vpc = new clouddb.Vpc("net", { name: "bench-net", cidr: "10.0.0.0/16", regionCode: "us-east-1" });
      new clouddb.VpcPeering("peer", { vpcId: vpc.vpcId, peerAccountId: "123456789012", peerRegionCode: "us-east-1", peerVpcId: "vpc-1" });
    };
    expectNoErrors(await stack.up(program));
    const sizes = {
      Vpc: String(stack.resource("net").inputs.__provider).length,
      VpcPeering: String(stack.resource("peer").inputs.__provider).length,
    };
    expectNoErrors(await stack.destroy());
    return sizes;
  } finally {
    await stack.close();
  }
}

// ------------------------------------------------------------------ main

function table(): string {
  const head = ["section", "metric", "value", "target", ""];
  const body = rows.map((r) => [r.section, r.metric, r.value, r.target, r.pass === null ? "" : r.pass ? "ok" : "MISSED"]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(head), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...body.map(line)].join("\n");
}

async function main(): Promise<void> {
  // The plugin and emulator child processes are unref'd (so a forgotten close never keeps
  // a test run alive): hold the event loop open ourselves while the bench runs.
  const keepAlive = setInterval(() => undefined, 60_000);
  try {
    await run();
  } finally {
    clearInterval(keepAlive);
  }
}

async function run(): Promise<void> {
  const started = new Date();
  process.stderr.write("bench: 1+2 convergence and API economy (one service, T = 10 s)\n");
  await convergence();
  process.stderr.write("bench: 3+2+4 scale, refresh and footprint (100 services + 100 replica sets)\n");
  await scale();
  const text = table();
  process.stdout.write(`\n${text}\n`);
  const result = {
    startedAt: started.toISOString(),
    durationMs: Date.now() - started.getTime(),
    node: process.version,
    cpus: require("os").cpus().length as number,
    rows,
    raw,
  };
  const dir = path.join(__dirname, "results");
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `bench-${started.toISOString().replace(/[:.]/g, "-")}.json`);
  fs.writeFileSync(file, JSON.stringify(result, null, 2));
  fs.writeFileSync(path.join(dir, "latest.json"), JSON.stringify(result, null, 2));
  process.stdout.write(`\nwritten to ${path.relative(process.cwd(), file)} (and bench/results/latest.json)\n`);
  const missed = rows.filter((r) => r.pass === false);
  if (missed.length > 0) {
    process.stdout.write(`${missed.length} target(s) missed\n`);
    process.exitCode = 1;
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
