/**
 * The plugin's CPU per operation (issue 44): N services created, read (a refresh) and deleted
 * one after another against an emulator with instant transitions and no rate limit, through
 * each host, for this tree and for another (`main` by default: `BENCH_OPCPU_MAIN`), taking
 * turns; each figure in ms per operation and as a ratio to the other tree's in the same run.
 *
 * - `native`: the compiled plugin (`dist/provider/native/main.js` of the tree) as a process,
 *   driven over gRPC as the engine drives it (tests/native/support.ts); its CPU read from /proc
 *   before and after each phase, after one service created, read and deleted unmeasured (the
 *   parts the plugin loads at its first request), so its start and Configure are not counted.
 * - `dynamic`: Pulumi's dynamic-provider plugin under the harness's engine, as users run it;
 *   its CPU as the process tells it at its exit (bench/measure.ts). Each command starts a
 *   plugin: the figure is the growth from a stack of one service to one of N, over N - 1, so
 *   that the start and Configure (most of a command of few services) are not counted.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { JsonObject } from "../harness/protos";
import { startEmulatorProcess, type EmulatorProcess } from "../harness/emulatorProcess";
import { NativePlugin, urnOf } from "../tests/native/support";
import { benchStack, measure, PluginCpu } from "./measure";
import { ratio, type Report } from "./report";
import { usage } from "./scale";
import type { Tree } from "./trees";

/** The operations measured, in order. */
const OPS = ["create", "read", "delete"] as const;
type Op = (typeof OPS)[number];
/** Plugin CPU ms per operation. */
type PerOp = Record<Op, number>;

/** The native plugin's CPU ms so far (its process's, from /proc). */
function cpuMsOf(plugin: NativePlugin): number {
  const u = usage(plugin.pid);
  if (u === undefined) throw new Error(`the native plugin (pid ${plugin.pid}) is gone`);
  return u.cpuMs;
}

/** N creates, reads and deletes through `tree`'s compiled native plugin. */
async function nativeRun(tree: Tree, n: number, emu: EmulatorProcess): Promise<PerOp> {
  const journal = fs.mkdtempSync(path.join(os.tmpdir(), "bench-opcpu-"));
  const plugin = await NativePlugin.start(
    { CLOUDDB_JOURNAL_DIR: journal },
    { entry: path.join(tree.root, "dist", "provider", "native", "main.js") },
  );
  try {
    await plugin.configure({ apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId });
    const checked: { urn: string; inputs: JsonObject }[] = [];
    for (let i = 0; i <= n; i++) {
      const urn = urnOf("Service", `op-${i}`);
      checked.push({ urn, inputs: (await plugin.check(urn, { name: `op-${i}` })).inputs });
    }
    const made: { urn: string; id: string; outs: JsonObject; inputs: JsonObject }[] = [];
    const warm = checked.shift()!;
    const warmMade = await plugin.create(warm.urn, warm.inputs);
    await plugin.read(warm.urn, warmMade.id, warmMade.outs, warm.inputs);
    await plugin.delete(warm.urn, warmMade.id, warmMade.outs, warm.inputs);
    const phase = async (each: () => Promise<void>): Promise<number> => {
      const before = cpuMsOf(plugin);
      await each();
      return (cpuMsOf(plugin) - before) / checked.length;
    };
    const create = await phase(async () => {
      for (const c of checked) made.push({ ...c, ...(await plugin.create(c.urn, c.inputs)) });
    });
    const read = await phase(async () => {
      for (const m of made) await plugin.read(m.urn, m.id, m.outs, m.inputs);
    });
    const del = await phase(async () => {
      for (const m of made) await plugin.delete(m.urn, m.id, m.outs, m.inputs);
    });
    return { create, read, delete: del };
  } finally {
    await plugin.close();
    fs.rmSync(journal, { recursive: true, force: true });
  }
}

/** The plugin's CPU ms of `up`, `refresh` and `destroy` of N services through `tree`'s dynamic provider, one step at a time. */
async function dynamicCommands(tree: Tree, n: number, emu: EmulatorProcess, cpu: PluginCpu): Promise<PerOp> {
  const { stack, journal } = await benchStack(tree, 1, emu, cpu);
  const sdk = tree.sdk();
  const perOp = async (op: () => Promise<{ errors: unknown[] }>): Promise<number> => {
    const cost = await measure(stack, emu, cpu, op);
    if (cost.errors > 0 || cost.pluginCpuMs === undefined)
      throw new Error(`${tree.label}: ${cost.errors} error(s), plugin CPU ${String(cost.pluginCpuMs)}`);
    return cost.pluginCpuMs;
  };
  try {
    const create = await perOp(() =>
      stack.up(() => {
        for (let i = 0; i < n; i++) new sdk.Service(`op-${i}`, { name: `op-${i}` });
      }),
    );
    const read = await perOp(() => stack.refresh());
    const del = await perOp(() => stack.destroy());
    return { create, read, delete: del };
  } finally {
    await stack.close();
    fs.rmSync(journal, { recursive: true, force: true });
  }
}

/** The dynamic plugin's CPU per operation: from a stack of one service to one of N (see the module comment). */
async function dynamicRun(tree: Tree, n: number, emu: EmulatorProcess, cpu: PluginCpu): Promise<PerOp> {
  const one = await dynamicCommands(tree, 1, emu, cpu);
  const many = await dynamicCommands(tree, n, emu, cpu);
  const per = (op: Op): number => (many[op] - one[op]) / (n - 1);
  return { create: per("create"), read: per("read"), delete: per("delete") };
}

/**
 * Adds to `report` the plugin's CPU per create, read and delete of `current` beside `other`
 * (both built), through each host, N operations of each (`BENCH_OPCPU_N`, default 100).
 */
export async function opCpu(report: Report, current: Tree, other: Tree): Promise<void> {
  const n = Number(process.env.BENCH_OPCPU_N ?? 100);
  const emu = await startEmulatorProcess({ clockScale: 0 });
  const cpu = new PluginCpu();
  try {
    const limit = await emu.control("POST", "/rate-limit", { requestsPerSecond: 0 });
    if (!limit.ok) throw new Error(`the emulator's rate limit could not be turned off: ${limit.status}`);
    for (const host of ["native", "dynamic"] as const) {
      const of = (tree: Tree): Promise<PerOp> => (host === "native" ? nativeRun(tree, n, emu) : dynamicRun(tree, n, emu, cpu));
      // Taking turns: the other tree first, this one, then the other again; the other's figure is the mean of its two.
      const before1 = await of(other);
      const now = await of(current);
      const before2 = await of(other);
      for (const op of OPS) {
        const was = (before1[op] + before2[op]) / 2;
        report.row("plugin CPU per operation", `${host}: ${op}`, `${now[op].toFixed(1)} ms; ${ratio(now[op], was)} × ${other.label}'s`, {
          size: `N = ${n}`,
          before: `${was.toFixed(1)} ms`,
          target: "issue 44: cheaper than before",
          pass: null,
        });
      }
    }
  } finally {
    cpu.close();
    await emu.close();
  }
}
