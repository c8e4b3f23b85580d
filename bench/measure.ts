/**
 * What one engine operation costs, on both sides of the gRPC connection: the wall time;
 * the CPU and the heap of this process, which runs the program and the engine's model (the
 * program side); the CPU of the plugin process, told by a preload that writes its
 * `process.cpuUsage()` when the engine ends it (SIGINT); the API requests the emulator saw.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as v8 from "v8";
import * as vm from "vm";
import { TestStack } from "../harness";
import { REQUEST_LOG_CAPACITY } from "../emulator/http/request-log";
import { defaultConfig, type EmulatorProcess, type LoggedRequest } from "../harness/emulatorProcess";
import type { Tree } from "./trees";

/** Node's collector, reachable without `--expose-gc` on the command line. */
export const gc: () => void = (() => {
  v8.setFlagsFromString("--expose-gc");
  return vm.runInNewContext("gc") as () => void;
})();

/** The plugin processes' CPU, as a preload writes it when each is ended. */
export class PluginCpu {
  private readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-plugin-cpu-"));
  private readonly preload = path.join(this.dir, "preload.js");

  constructor() {
    // Only in the provider process (the shim runs node once before it, to find the provider).
    fs.writeFileSync(
      this.preload,
      `if ((process.argv[1] || "").includes("dynamic-provider")) {
  const write = () => { try { require("fs").writeFileSync(${JSON.stringify(this.dir)} + "/" + process.pid + ".json", JSON.stringify(process.cpuUsage())); } catch {} };
  process.once("SIGINT", () => { write(); process.exit(130); });
  process.once("exit", write);
}
`,
    );
  }

  /** The plugin environment that makes plugins tell their CPU. */
  get env(): Record<string, string> {
    return { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --require ${this.preload}`.trim() };
  }

  /** CPU ms of the plugin process `pid` once it has ended (waits up to 5 s for it to say); undefined when it did not. */
  async of(pid: number | undefined): Promise<number | undefined> {
    if (pid === undefined) return undefined;
    const file = path.join(this.dir, `${pid}.json`);
    for (let i = 0; i < 100 && !fs.existsSync(file); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    if (!fs.existsSync(file)) return undefined;
    const usage = JSON.parse(fs.readFileSync(file, "utf8")) as NodeJS.CpuUsage;
    return (usage.user + usage.system) / 1000;
  }

  /** Removes its files. */
  close(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** What one operation cost. */
export interface Cost {
  /** Its wall time, ms. */
  wallMs: number;
  /** CPU of this process (program and engine model) during it, ms. */
  programCpuMs: number;
  /** The most this process's heap grew during it (sampled every 20 ms), bytes. */
  heapPeakBytes: number;
  /** CPU of the plugin process that served it, ms (undefined when it did not say). */
  pluginCpuMs: number | undefined;
  /** The requests the API saw. */
  log: LoggedRequest[];
  /** Errors the operation reported. */
  errors: number;
}

/** `text`, marked as a lower bound when the log it was counted from lost its oldest requests. */
export const atLeast = (t: { complete: boolean }, text: string): string =>
  t.complete ? text : `>= ${text} (the emulator keeps the last ${REQUEST_LOG_CAPACITY.toLocaleString("en-US")} requests)`;

/** Runs `op` on `stack` against `emu` (whose request log it clears first) and measures it. */
export async function measure(
  stack: TestStack,
  emu: EmulatorProcess,
  cpu: PluginCpu,
  op: () => Promise<{ errors: unknown[] }>,
): Promise<Cost> {
  await emu.clearRequests();
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  let heapPeak = heapBefore;
  let pid: number | undefined;
  const sampler = setInterval(() => {
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    pid ??= stack.plugin.pid;
  }, 20);
  const cpuBefore = process.cpuUsage();
  const started = Date.now();
  let result: { errors: unknown[] };
  try {
    result = await op();
  } finally {
    clearInterval(sampler);
  }
  const wallMs = Date.now() - started;
  const used = process.cpuUsage(cpuBefore);
  heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  return {
    wallMs,
    programCpuMs: (used.user + used.system) / 1000,
    heapPeakBytes: heapPeak - heapBefore,
    pluginCpuMs: await cpu.of(pid),
    log: await emu.requests(),
    errors: result.errors.length,
  };
}

/** Figures of a request log; `complete` false when it lost its oldest requests (then counts and spans are lower bounds). */
export function traffic(log: LoggedRequest[]) {
  const limited = log.filter((x) => x.status === 429).length;
  const accepted = log.length - limited;
  const writes = log.filter((x) => x.method !== "GET" && x.status !== 429).length;
  const apiWallMs = log.length ? Date.parse(log[log.length - 1].at) - Date.parse(log[0].at) : 0;
  return {
    limited,
    accepted,
    writes,
    reads: accepted - writes,
    apiWallMs,
    share429: log.length ? limited / log.length : 0,
    // A log as long as the emulator keeps lost its oldest requests: what is counted from it is a lower bound.
    complete: log.length < REQUEST_LOG_CAPACITY,
  };
}

/**
 * A stack of `tree`'s package against `emu`, running up to `n` steps at once, its plugin
 * measured by `cpu`, with a create journal of its own (`journal`: remove it when done).
 */
export async function benchStack(
  tree: Tree,
  n: number,
  emu: EmulatorProcess,
  cpu: PluginCpu,
): Promise<{ stack: TestStack; journal: string }> {
  const journal = fs.mkdtempSync(path.join(os.tmpdir(), "bench-journal-"));
  // What users run: the real plugin process (not the test harness's in-process host).
  const stack = await TestStack.create({
    host: "plugin",
    config: defaultConfig(emu),
    secretKeys: ["clouddb:apiKey"],
    cwd: tree.root,
    parallel: n,
    env: { ...cpu.env, CLOUDDB_JOURNAL_DIR: journal },
  });
  return { stack, journal };
}
