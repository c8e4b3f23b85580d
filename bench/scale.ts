/**
 * `npm run bench:scale -- --n 20,100,300 [--repeats 3] [--hosts floor,floor-yaml,node-floor-yaml,dynamic,native-ts,native-yaml]`:
 * large stacks under the real CLI (the one `npm run pulumi:build` built), against the floor
 * of what the engine itself costs (issue 44). For each N and host, taking turns, a fresh
 * stack (bench/scalePrograms.ts: its own file backend, `PULUMI_HOME` and passphrase) runs
 * `up`, `preview` (no change), `refresh` and `destroy` of N services against one emulator
 * the bench starts (transitions instant: clock scale 0; no rate limit).
 *
 * The floor holds N `noop:index:Thing`s of the no-op Go provider (bench/noop-provider,
 * Pulumi's Go SDK alone), each with a Service's outputs: 19 of them, `password` and
 * `connectionString` secret; it makes no call, so what it costs is the engine's, the
 * language host's and the program's own work for N resources of that shape. There are two:
 * `floor` from TypeScript (against which `dynamic` and `native-ts` are measured) and
 * `floor-yaml` from YAML (against which `native-yaml` is); a floor host is always run.
 * `node-floor-yaml` is `floor-yaml`'s program with the same Thing served from Node.js
 * (bench/noop-provider-node), measured against `floor-yaml`: Node.js's own part of a
 * plugin's cost, before any provider's work.
 *
 * Each command's figures:
 * - wall: from the CLI's start to its exit;
 * - engine CPU: the `pulumi` process's own user + system time;
 * - program CPU: the processes under it that are not plugins (the language host, and the
 *   Node.js program it starts; for YAML the host is the program);
 * - plugin CPU and peak memory (VmHWM): the resource plugin's processes (the no-op provider,
 *   the dynamic-provider host, the native plugin's launcher and its Node.js, the Node.js floor's
 *   `pulumi-resource-noop.js`).
 * The CPU times are read from /proc every 100 ms while the CLI runs (the last tenth of a
 * second of a process may be missed: a few ms). State per service: the stack's checkpoint
 * file in bytes after `up`, divided by N. With `--repeats` above 1, the median of each.
 *
 * The programs run on Node.js 24 (the newest `@pulumi/pulumi`, which the native SDK is built
 * with, needs it): run on another Node.js, the bench starts itself again on Node.js 24.
 * Prints a Markdown table (ratios to the floor, the floor's own figures once; docs/performance/large-stacks.md,
 * "Large stacks against the floor") and writes the raw figures to bench/results/scale-<time>.json.
 */
import * as fs from "fs";
import { processesUnder } from "../harness/cli/processes";
import { isSecretWrapper } from "../harness/secrets";
import type { EmulatorProcess } from "../harness/emulatorProcess";
import { median } from "./firstCall";
import { bytes, ratio, secs } from "./report";
import { floorOf, HOSTS, scaleStack, type Host, type Prepared } from "./scalePrograms";
import {
  flagReader,
  hostsWithFloors,
  onNode24,
  repeatsFlag,
  runProgram,
  sizesFlag,
  tableHead,
  withScaleEmulator,
  writeResults,
} from "./scaleRun";

/** The commands each stack runs, in order. */
export const COMMANDS = ["up", "preview", "refresh", "destroy"] as const;
/** One of {@link COMMANDS}. */
export type Command = (typeof COMMANDS)[number];

/** Each command's arguments, as the bench runs it. */
export const ARGS: Record<Command, string[]> = {
  up: ["up", "--yes", "--skip-preview"],
  preview: ["preview"],
  refresh: ["refresh", "--yes", "--skip-preview"],
  destroy: ["destroy", "--yes", "--skip-preview"],
};

/** What one command cost. */
export interface Figures {
  wallMs: number;
  engineCpuMs: number;
  programCpuMs: number;
  pluginCpuMs: number;
  /** The plugin processes' peak resident set (VmHWM), the largest of them, MB. */
  pluginPeakMb: number;
}

/** One stack's run: its host, N, and each command's figures. */
export interface ScaleRun {
  host: Host;
  n: number;
  commands: Record<Command, Figures>;
  /** The checkpoint file after `up`, bytes per resource. */
  statePerService: number;
  /** The shape of a resource's outputs in that checkpoint, the provider's own records left out. */
  outputShape: Shape;
}

const TICK_MS = 1000 / 100; // USER_HZ on Linux

/** What {@link usage} reads of a process. */
export interface Usage {
  /** Its own CPU so far (user + system), ms. */
  cpuMs: number;
  /** Its peak resident set (VmHWM), MB. */
  hwmMb: number;
  /** Its resident set now (VmRSS), MB. */
  rssMb: number;
  /** Whether it is a resource plugin (the dynamic-provider host or a `pulumi-resource-*`). */
  plugin: boolean;
  /** Its command line, NUL-separated. */
  cmdline: string;
}

/** What /proc says of process `pid` ({@link Usage}), or undefined once it is gone. */
export function usage(pid: number): Usage | undefined {
  try {
    const stat = fs
      .readFileSync(`/proc/${pid}/stat`, "utf8")
      .replace(/^.*\) /, "")
      .split(" ");
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
    return {
      cpuMs: (Number(stat[11]) + Number(stat[12])) * TICK_MS,
      hwmMb: Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024,
      rssMb: Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024,
      plugin: /dynamic-provider|pulumi-resource-/.test(cmdline),
      cmdline,
    };
  } catch {
    return undefined;
  }
}

/** Runs `args` on the stack, sampling the CLI's process tree; fails with the CLI's output unless it succeeds. */
export async function measured(stack: Awaited<ReturnType<typeof scaleStack>>, args: string[]): Promise<Figures> {
  const seen = new Map<number, { cpuMs: number; hwmMb: number; kind: "engine" | "plugin" | "program"; cmd: string }>();
  const sample = (): void => {
    const cli = stack.processes.current();
    if (cli === undefined) return;
    for (const pid of [cli, ...processesUnder(cli)]) {
      const u = usage(pid);
      if (u === undefined) continue;
      // A process's figures only grow; a plugin stays one (an ended process, not yet reaped, shows no command line and no memory).
      const before = seen.get(pid);
      const kind = pid === cli ? "engine" : u.plugin || before?.kind === "plugin" ? "plugin" : "program";
      seen.set(pid, {
        cpuMs: Math.max(u.cpuMs, before?.cpuMs ?? 0),
        hwmMb: Math.max(u.hwmMb, before?.hwmMb ?? 0),
        kind,
        cmd: before?.cmd || u.cmdline.slice(0, 150),
      });
    }
  };
  const timer = setInterval(sample, 100);
  const started = Date.now();
  const r = await stack.project.run(args);
  const wallMs = Date.now() - started;
  clearInterval(timer);
  if (process.env.BENCH_SCALE_DEBUG)
    for (const [pid, s] of seen)
      process.stderr.write(`${args[0]} ${pid} ${s.kind} ${s.cpuMs} ${s.hwmMb.toFixed(0)} ${s.cmd.replace(/\0/g, " ").slice(0, 110)}\n`);
  if (r.code !== 0)
    throw new Error(`pulumi ${args.join(" ")} exited ${String(r.code)}:\n${r.stdout.slice(-4000)}\n${r.stderr.slice(-4000)}`);
  const of = (kind: string) => [...seen.values()].filter((s) => s.kind === kind);
  const sum = (kind: string) => of(kind).reduce((t, s) => t + s.cpuMs, 0);
  return {
    wallMs,
    engineCpuMs: sum("engine"),
    programCpuMs: sum("program"),
    pluginCpuMs: sum("plugin"),
    pluginPeakMb: Math.max(0, ...of("plugin").map((s) => s.hwmMb)),
  };
}

/** The managed resources (not the stack, not a provider) in the checkpoint `file`. */
function resourcesIn(file: string): { type: string; outputs?: Record<string, unknown> }[] {
  const doc = JSON.parse(fs.readFileSync(file, "utf8")) as {
    checkpoint?: { latest?: { resources?: { type: string; custom?: boolean; outputs?: Record<string, unknown> }[] } };
  };
  return (doc.checkpoint?.latest?.resources ?? []).filter((r) => r.custom && !r.type.startsWith("pulumi:providers:"));
}

/** A value's shape as a checkpoint records it: `"secret"`, a list of its first item's shape, an object of its keys' shapes, or its JSON type. */
export type Shape = string | Shape[] | { [key: string]: Shape };

/** The shape of `v` (see {@link Shape}). */
function shapeOf(v: unknown): Shape {
  if (Array.isArray(v)) return v.length === 0 ? [] : [shapeOf(v[0])];
  if (v === null) return "null";
  if (typeof v !== "object") return typeof v;
  // A checkpoint's secret carries the wire's signature, with its ciphertext in place of the value.
  if (isSecretWrapper(v)) return "secret";
  const o = v as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, shapeOf(o[k])]),
  );
}

/**
 * The shape of the outputs of the first of a checkpoint's managed `resources`, without the
 * provider's own records (keys that start with `__`): what a floor's resource must match for its
 * engine costs to compare with ours (the engine's CPU follows the outputs' shape).
 */
function outputShape(resources: ReturnType<typeof resourcesIn>): Shape {
  const outputs = resources[0]?.outputs ?? {};
  return shapeOf(Object.fromEntries(Object.entries(outputs).filter(([k]) => !k.startsWith("__"))));
}

/** One stack of `host` with `n` services: its four commands, measured. */
export async function scaleRun(host: Host, n: number, p: Prepared, emu: EmulatorProcess): Promise<ScaleRun> {
  const stack = await scaleStack(host, n, p, emu);
  try {
    const commands = {} as Record<Command, Figures>;
    let statePerService = 0;
    let shape: Shape = {};
    for (const c of COMMANDS) {
      commands[c] = await measured(stack, ARGS[c]);
      if (c === "up") {
        const file = stack.stateFile();
        if (file === undefined) throw new Error(`${host}: no checkpoint after up`);
        const resources = resourcesIn(file);
        if (resources.length !== n) throw new Error(`${host}: ${resources.length} resources in state after up, not ${n}`);
        statePerService = fs.statSync(file).size / n;
        shape = outputShape(resources);
      }
    }
    process.stderr.write(
      `  ${host} N=${n}: ${COMMANDS.map((c) => `${c} ${secs(commands[c].wallMs)}`).join(", ")}; ${bytes(statePerService)}/service\n`,
    );
    return { host, n, commands, statePerService, outputShape: shape };
  } finally {
    await stack.remove();
  }
}

/** Options of {@link runScale}. */
export interface ScaleOptions {
  ns: number[];
  hosts: Host[];
  repeats: number;
}

/** Runs every N, repeat and host (taking turns) against one emulator; every run's figures. */
export async function runScale(opts: ScaleOptions): Promise<ScaleRun[]> {
  return withScaleEmulator(opts.hosts, async (p, emu) => {
    const runs: ScaleRun[] = [];
    for (const n of opts.ns)
      for (let r = 0; r < opts.repeats; r++) for (const host of opts.hosts) runs.push(await scaleRun(host, n, p, emu));
    return runs;
  });
}

type Metric = { label: string; of: (r: ScaleRun) => number; show: (v: number) => string };

const mb = (v: number): string => `${v.toFixed(0)} MB`;
const METRICS: Metric[] = [
  ...COMMANDS.flatMap((c): Metric[] => [
    { label: `${c}: wall`, of: (r) => r.commands[c].wallMs, show: secs },
    { label: `${c}: engine CPU`, of: (r) => r.commands[c].engineCpuMs, show: secs },
    { label: `${c}: program CPU`, of: (r) => r.commands[c].programCpuMs, show: secs },
    { label: `${c}: plugin CPU`, of: (r) => r.commands[c].pluginCpuMs, show: secs },
  ]),
  { label: "up: plugin peak memory", of: (r) => r.commands.up.pluginPeakMb, show: mb },
  { label: "state per service", of: (r) => r.statePerService, show: bytes },
];

/**
 * The Markdown table: per N and figure, the floors' own values and each other host's ratio to
 * its floor (`native-yaml` to `floor-yaml`, the TypeScript hosts to `floor`); medians of the repeats.
 */
export function scaleTable(runs: ScaleRun[]): string {
  const hosts = HOSTS.filter((h) => runs.some((r) => r.host === h));
  const floors = hosts.filter((h) => floorOf(h) === h);
  const others = hosts.filter((h) => floorOf(h) !== h);
  const ns = [...new Set(runs.map((r) => r.n))];
  const med = (host: Host, n: number, m: Metric): number | undefined => {
    const values = runs.filter((r) => r.host === host && r.n === n).map(m.of);
    return values.length ? median(values) : undefined;
  };
  const lines = [
    `| N | figure | ${floors.join(" | ")} | ${others.map((h) => `${h} ÷ ${floorOf(h)}`).join(" | ")} |`,
    `|---|---|${[...floors, ...others].map(() => "---").join("|")}|`,
  ];
  for (const n of ns)
    for (const m of METRICS) {
      const own = floors.map((f) => {
        const v = med(f, n, m);
        return v === undefined ? "" : m.show(v);
      });
      const cells = others.map((h) => {
        const v = med(h, n, m);
        const floor = med(floorOf(h), n, m);
        return v === undefined || floor === undefined || floor === 0 ? "" : `${ratio(v, floor)} ×`;
      });
      lines.push(`| ${n.toLocaleString("en-US")} | ${m.label} | ${[...own, ...cells].join(" | ")} |`);
    }
  return lines.join("\n");
}

/** `--n 20,100 --repeats 1 --hosts floor,dynamic`. */
export function parseArgs(argv: string[]): ScaleOptions {
  const value = flagReader(argv);
  return { ns: sizesFlag(value, "20,100,300"), hosts: hostsWithFloors(value), repeats: repeatsFlag(value, 1) };
}

async function main(): Promise<void> {
  onNode24(__filename);
  const opts = parseArgs(process.argv.slice(2));
  const started = new Date();
  const runs = await runScale(opts);
  writeResults("scale", started, tableHead(started, `, ${opts.repeats} repeat(s)`), scaleTable(runs), opts, runs);
}

if (require.main === module) runProgram("bench:scale", main);
