/**
 * `npm run bench:plugin-memory -- [--n 100,1000] [--hosts floor,dynamic,native-ts] [--node-options <options>] [--snapshots <dir>] [--variants "<env>;<env>"] [--parts]`:
 * the resource plugin's memory over a large `up` under the real CLI (issue 44: at most 10 MB
 * more at 1,000 services than at 100). Each host's program of bench/scalePrograms.ts, in a
 * fresh stack against one emulator (transitions instant, no rate limit), with a last resource
 * that holds the stack's plugins up once every service is made; `PULUMI_SKIP_CHECKPOINTS`
 * is set (it changes the engine's cost, not the plugin's).
 *
 * Per host and N, of the plugin's process (the no-op provider for `floor`, the
 * dynamic-provider host for `dynamic`, the native plugin's Node.js for `native-ts`), read
 * from /proc every 200 ms (bench/scale.ts `usage`): its peak resident set (VmHWM) and its
 * resident set once the last service is made (VmRSS, the plugin idle). With `--snapshots`,
 * the Node.js plugins run with `--heapsnapshot-signal=SIGUSR2` and write a heap snapshot
 * into that folder while held (V8 collects garbage first), for comparing what they hold
 * (Chrome's DevTools, Memory tab, "Comparison"). `--node-options` is the `NODE_OPTIONS` the
 * CLI runs with, as a user would set it (it reaches the program and both plugins).
 * `--variants "-;MALLOC_ARENA_MAX=2;NODE_OPTIONS=--v8-pool-size=1"` runs each host and N once
 * per variant (`;` between variants, spaces between a variant's `NAME=value`s, `-` for none),
 * in turn, each with those variables added to the CLI's environment (a user's own: they reach
 * the plugins; a `NODE_OPTIONS` joins `--node-options`'s): one run's figures side by side.
 * `--parts` splits the plugin's resident set while held (bench/memoryParts.ts: glibc's arenas,
 * V8's heap, the rest), loading bench/memoryProbe.js into the Node.js processes.
 *
 * Prints a Markdown table (docs/performance/large-stacks.md, "The plugin's memory") and writes the figures,
 * with the resident set over time, to bench/results/plugin-memory-<time>.json.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { pluginProcesses } from "../harness/cli/processes";
import { memoryParts, partsLine, type MemoryParts } from "./memoryParts";
import type { EmulatorProcess } from "../harness/emulatorProcess";
import { until } from "../harness/until";
import { usage } from "./scale";
import { scaleStack, type Host, type Prepared } from "./scalePrograms";
import { flagReader, hostsFlag, onNode24, runProgram, sizesFlag, tableHead, withScaleEmulator, writeResults } from "./scaleRun";

/** The hosts this bench can measure (TypeScript programs: they can hold their plugins). */
export const MEMORY_HOSTS = ["floor", "dynamic", "native-ts"] as const satisfies readonly Host[];
/** One of {@link MEMORY_HOSTS}. */
export type MemoryHost = (typeof MEMORY_HOSTS)[number];

/** The command line of the plugin measured for each host. */
const PLUGIN: Record<MemoryHost, RegExp> = {
  floor: /pulumi-resource-noop/,
  dynamic: /dynamic-provider/,
  "native-ts": /pulumi-resource-clouddb/,
};

/** One `up`'s figures. */
export interface MemoryRun {
  host: MemoryHost;
  n: number;
  /** The variant's variables (`--variants`), "" for none. */
  variant: string;
  /** What the resident set was made of while held (`--parts`). */
  parts?: MemoryParts;
  /** The plugin's peak resident set (VmHWM), MB. */
  peakMb: number;
  /** The plugin's resident set once every service was made, idle (VmRSS), MB. */
  heldMb: number;
  /** The plugin's CPU (user + system) until every service was made, ms. */
  cpuMs: number;
  /** The heap snapshot written while held, when asked. */
  snapshot?: string;
  /** The plugin's resident set over the `up`: [ms since the start, MB]. */
  rss: [number, number][];
}

/** The pid of the plugin of `host` under the stack's CLI, once it runs. */
function pluginPid(stack: Awaited<ReturnType<typeof scaleStack>>, host: MemoryHost): number | undefined {
  return pluginProcesses(stack.processes.current()).find((pid) => PLUGIN[host].test(usage(pid)?.cmdline ?? ""));
}

/** The file V8 writes a heap snapshot of `pid` to in `dir` (Heap.<date>.<time>.<pid>.<thread>.<seq>.heapsnapshot), once complete. */
async function snapshotOf(pid: number, dir: string): Promise<string> {
  const file = await until(
    `the heap snapshot of ${pid}`,
    () => Promise.resolve(fs.readdirSync(dir).find((f) => f.endsWith(".heapsnapshot") && f.split(".").includes(String(pid)))),
    120_000,
  );
  // Complete once its size stops changing and it parses as JSON's end (the last bytes "]}" and a newline or not).
  let size = -1;
  await until(
    `the heap snapshot ${file} to be written`,
    async () => {
      await new Promise((r) => setTimeout(r, 1_000));
      const now = fs.statSync(path.join(dir, file)).size;
      const done = now === size && now > 0 && /\]\}\s*$/.test(tail(path.join(dir, file)));
      size = now;
      return done || undefined;
    },
    300_000,
  );
  return path.join(dir, file);
}

function tail(file: string): string {
  const fd = fs.openSync(file, "r");
  try {
    const size = fs.fstatSync(fd).size;
    const buf = Buffer.alloc(Math.min(16, size));
    fs.readSync(fd, buf, 0, buf.length, Math.max(0, size - buf.length));
    return buf.toString("utf8");
  } finally {
    fs.closeSync(fd);
  }
}

/** One `up` of `n` services of `host`, its plugin held once they are made. */
export async function memoryRun(
  host: MemoryHost,
  n: number,
  p: Prepared,
  emu: EmulatorProcess,
  opts: Pick<MemoryOptions, "snapshots" | "nodeOptions" | "parts"> = {},
  variant = "",
): Promise<MemoryRun> {
  const { snapshots } = opts;
  const hold = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-hold-"));
  const probeDir = opts.parts ? fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-probe-")) : undefined;
  const { NODE_OPTIONS: variantOptions, ...variantEnv } = variantVariables(variant);
  const env: Record<string, string> = { PULUMI_SKIP_CHECKPOINTS: "true", ...variantEnv };
  const nodeOptions = [
    opts.nodeOptions,
    variantOptions,
    snapshots && `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${snapshots}`,
    probeDir && `--require ${path.join(__dirname, "memoryProbe.js")}`,
  ].filter(Boolean);
  if (nodeOptions.length > 0) env.NODE_OPTIONS = nodeOptions.join(" ");
  if (probeDir !== undefined) env.CLOUDDB_MEMORY_PROBE_DIR = probeDir;
  const stack = await scaleStack(host, n, p, emu, { hold, env });
  try {
    const rss: [number, number][] = [];
    let peakMb = 0;
    let held = false;
    const started = Date.now();
    const timer = setInterval(() => {
      const pid = pluginPid(stack, host);
      const u = pid === undefined ? undefined : usage(pid);
      if (held || u === undefined || u.rssMb === 0) return;
      rss.push([Date.now() - started, Math.round(u.rssMb * 10) / 10]);
      peakMb = Math.max(peakMb, u.hwmMb);
    }, 200);
    const up = stack.project.run(["up", "--yes", "--skip-preview"]);
    let heldMb = 0;
    let cpuMs = 0;
    let snapshot: string | undefined;
    let parts: MemoryParts | undefined;
    try {
      await Promise.race([
        until("the hold", () => Promise.resolve(fs.existsSync(path.join(hold, "ready")) || undefined), 3_600_000),
        up.then((r) => {
          throw new Error(`pulumi up ended (${String(r.code)}) before the hold:\n${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`);
        }),
      ]);
      // Idle a moment (the last create's answer on its way), then read.
      await new Promise((r) => setTimeout(r, 2_000));
      const pid = pluginPid(stack, host);
      if (pid === undefined) throw new Error(`${host}: no plugin process while held`);
      const u = usage(pid);
      // The peak before the snapshot (which itself takes memory).
      held = true;
      heldMb = u?.rssMb ?? 0;
      cpuMs = u?.cpuMs ?? 0;
      peakMb = Math.max(peakMb, u?.hwmMb ?? 0);
      parts = opts.parts ? memoryParts(pid, probeDir) : undefined;
      if (snapshots !== undefined && host !== "floor") {
        process.kill(pid, "SIGUSR2");
        snapshot = await snapshotOf(pid, snapshots);
      }
    } finally {
      fs.writeFileSync(path.join(hold, "release"), "");
    }
    const r = await up;
    clearInterval(timer);
    if (r.code !== 0) throw new Error(`pulumi up exited ${String(r.code)}:\n${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`);
    process.stderr.write(
      `  ${host}${variant ? ` [${variant}]` : ""} N=${n}: peak ${peakMb.toFixed(0)} MB, held ${heldMb.toFixed(0)} MB, CPU ${(cpuMs / 1000).toFixed(1)} s${snapshot ? `, ${snapshot}` : ""}${parts ? `\n    ${partsLine(parts)}` : ""}\n`,
    );
    return { host, n, variant, parts, peakMb, heldMb, cpuMs, snapshot, rss };
  } finally {
    await stack.remove();
    fs.rmSync(hold, { recursive: true, force: true });
    if (probeDir !== undefined) fs.rmSync(probeDir, { recursive: true, force: true });
  }
}

/** Options of {@link runPluginMemory}. */
export interface MemoryOptions {
  ns: number[];
  hosts: MemoryHost[];
  /** Where the Node.js plugins' heap snapshots go, when asked. */
  snapshots?: string;
  /** The `NODE_OPTIONS` the CLI runs with. */
  nodeOptions?: string;
  /** The variants (`--variants`), each its `NAME=value`s; [""] for none. */
  variants?: string[];
  /** Whether to split the resident set while held (`--parts`). */
  parts?: boolean;
}

/** A variant's `NAME=value`s (`MALLOC_ARENA_MAX=2 NODE_OPTIONS=--v8-pool-size=1`) as variables. */
export function variantVariables(variant: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const kv of variant.split(/\s+/).filter((v) => v !== "" && v !== "-")) {
    const eq = kv.indexOf("=");
    if (eq < 1) throw new Error(`--variants: "${kv}" is not NAME=value`);
    env[kv.slice(0, eq)] = kv.slice(eq + 1);
  }
  return env;
}

/** Every N and host, one `up` at a time, against one emulator. */
export async function runPluginMemory(opts: MemoryOptions): Promise<MemoryRun[]> {
  return withScaleEmulator(opts.hosts, async (p, emu) => {
    const runs: MemoryRun[] = [];
    for (const n of opts.ns)
      for (const host of opts.hosts)
        for (const variant of opts.variants ?? [""]) runs.push(await memoryRun(host, n, p, emu, opts, variant));
    return runs;
  });
}

/** The Markdown table: per host (and variant), peak and held resident set at each N, the growth from the first N to the last, and the plugin's CPU at the last. */
export function memoryTable(runs: MemoryRun[]): string {
  const ns = [...new Set(runs.map((r) => r.n))];
  const variants = [...new Set(runs.map((r) => r.variant))];
  const rows = MEMORY_HOSTS.flatMap((h) => variants.map((v) => [h, v] as const)).filter(([h, v]) =>
    runs.some((r) => r.host === h && r.variant === v),
  );
  const at = (host: MemoryHost, v: string, n: number): MemoryRun | undefined =>
    runs.find((r) => r.host === host && r.variant === v && r.n === n);
  const mb = (value: number | undefined): string => (value === undefined ? "" : `${value.toFixed(0)} MB`);
  const last = ns[ns.length - 1];
  const grown = (host: MemoryHost, v: string, of: (r: MemoryRun) => number): string => {
    const [first, end] = [at(host, v, ns[0]), at(host, v, last)];
    if (first === undefined || end === undefined || ns.length < 2) return "";
    const d = of(end) - of(first);
    return `${d >= 0 ? "+" : ""}${d.toFixed(0)} MB`;
  };
  const span = ns.length < 2 ? "" : `${ns[0].toLocaleString("en-US")} → ${last.toLocaleString("en-US")}`;
  const label = (h: MemoryHost, v: string): string => (v === "" ? h : `${h}, ${v}`);
  const cpu = (h: MemoryHost, v: string): string => {
    const r = at(h, v, last);
    return r === undefined ? "" : `${(r.cpuMs / 1000).toFixed(1)} s`;
  };
  const lines = [
    `| host | ${ns.map((n) => `N = ${n.toLocaleString("en-US")}: peak / held`).join(" | ")} | ${span}: peak / held | CPU at N = ${last.toLocaleString("en-US")} |`,
    `|---|${ns.map(() => "---").join("|")}|---|---|`,
  ];
  for (const [h, v] of rows)
    lines.push(
      `| ${label(h, v)} | ${ns.map((n) => `${mb(at(h, v, n)?.peakMb)} / ${mb(at(h, v, n)?.heldMb)}`).join(" | ")} | ${grown(h, v, (r) => r.peakMb)} / ${grown(h, v, (r) => r.heldMb)} | ${cpu(h, v)} |`,
    );
  return lines.join("\n");
}

/** `--n 100,1000 --hosts floor,dynamic --snapshots <dir>`. */
export function parseMemoryArgs(argv: string[]): MemoryOptions {
  const value = flagReader(argv);
  const ns = sizesFlag(value, "100,1000");
  const hosts = hostsFlag(value, MEMORY_HOSTS);
  const snapshots = value("--snapshots");
  if (snapshots !== undefined) fs.mkdirSync(snapshots, { recursive: true });
  return {
    ns,
    hosts: MEMORY_HOSTS.filter((h) => hosts.includes(h)),
    snapshots: snapshots && path.resolve(snapshots),
    nodeOptions: value("--node-options"),
    variants: (value("--variants") ?? "")
      .split(";")
      .map((v) => v.trim())
      .map((v) => (v === "-" ? "" : v))
      .filter((v, i, all) => all.indexOf(v) === i && variantVariables(v) !== undefined),
    parts: argv.includes("--parts"),
  };
}

async function main(): Promise<void> {
  onNode24(__filename);
  const opts = parseMemoryArgs(process.argv.slice(2));
  const started = new Date();
  const runs = await runPluginMemory(opts);
  const head = tableHead(started, opts.nodeOptions ? `, NODE_OPTIONS="${opts.nodeOptions}"` : "");
  writeResults("plugin-memory", started, head, memoryTable(runs), opts, runs);
}

if (require.main === module) runProgram("bench:plugin-memory", main);
