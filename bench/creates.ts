/**
 * N services created at once without a rate limit (T = 10 s, `--parallel N`), then
 * refreshes of them, in this tree and in the baseline, alternating (each tree has an
 * emulator of its own, so that both stacks stand side by side): the `up`'s wall time, the
 * requests it cost, the program side's CPU and heap per resource (this process runs the
 * program), the plugin's CPU, the refresh's wall time (the median of three at the largest
 * N) and requests, and the state each resource leaves. The anchors' figures are their
 * schedules' for the same T.
 */
import * as fs from "fs";
import { TestStack } from "../harness";
import { defaultConfig, type EmulatorProcess, startEmulatorProcess } from "../harness/emulatorProcess";
import { around, terraform, tiger } from "./anchors";
import { atLeast, benchStack, type Cost, gc, measure, PluginCpu, traffic } from "./measure";
import { count, ratio, type Report, secs } from "./report";
import type { Sizes } from "./sizes";
import type { Tree } from "./trees";

/** Readiness time of a create. */
const T = 10_000;
/** Nominal create in the emulator: 2 s QUEUED + 5 s CONFIGURING. */
const NOMINAL_MS = 7_000;

/** What one tree's run of N creates gave. */
interface Run {
  up: DeclaringCost;
  /** The median refresh. */
  refresh: Cost;
  refreshWallsMs: number[];
  stateBytesPerResource: number;
  providerBytes: number;
}

/** A tree's stack of N services against its emulator. */
interface Side {
  tree: Tree;
  emu: EmulatorProcess;
  stack: TestStack;
  journal: string;
}

async function side(tree: Tree, n: number, emu: EmulatorProcess, cpu: PluginCpu): Promise<Side> {
  const { stack, journal } = await benchStack(tree, n, emu, cpu);
  return { tree, emu, stack, journal };
}

/** An `up`'s cost, with the heap its program's resources hold once declared. */
interface DeclaringCost extends Cost {
  /**
   * What the program's heap grew by while it declared its N resources, from its first line
   * to its last, both after a full collection, bytes: what declaring them holds (their
   * objects, and Pulumi's outputs and promises for each property), whenever the collector
   * would have run. The peak growth (`heapPeakBytes`) also counts garbage not yet collected,
   * and moves with the collector's timing: the first version's went from 269 to 381 KB a
   * resource in three runs of the same code.
   */
  declaredBytes: number;
}

async function up(s: Side, n: number, cpu: PluginCpu): Promise<DeclaringCost> {
  const sdk = s.tree.sdk();
  let declaredBytes = 0;
  let collectingMs = 0;
  /** The heap after a full collection, whose CPU is the bench's, not the program's. */
  const collected = (): number => {
    const before = process.cpuUsage();
    gc();
    const used = process.cpuUsage(before);
    collectingMs += (used.user + used.system) / 1000;
    return process.memoryUsage().heapUsed;
  };
  const cost = await measure(s.stack, s.emu, cpu, () =>
    s.stack.up(() => {
      const start = collected();
      for (let i = 0; i < n; i++) new sdk.Service(`svc-${i}`, { name: `bench-${i}` });
      declaredBytes = collected() - start;
    }),
  );
  return { ...cost, programCpuMs: cost.programCpuMs - collectingMs, declaredBytes };
}

async function close(s: Side): Promise<void> {
  await s.stack.close();
  await s.emu.control("POST", "/reset");
  fs.rmSync(s.journal, { recursive: true, force: true });
}

/** N creates and their refreshes in both trees, alternating which goes first. */
async function runBoth(
  n: number,
  order: [Tree, Tree],
  emus: Map<Tree, EmulatorProcess>,
  cpu: PluginCpu,
  refreshes: number,
): Promise<Map<Tree, Run>> {
  const sides = [await side(order[0], n, emus.get(order[0])!, cpu), await side(order[1], n, emus.get(order[1])!, cpu)];
  try {
    const ups = [await up(sides[0], n, cpu), await up(sides[1], n, cpu)];
    const walls: Cost[][] = [[], []];
    for (let r = 0; r < refreshes; r++) {
      for (const [i, s] of sides.entries()) walls[i].push(await measure(s.stack, s.emu, cpu, () => s.stack.refresh()));
    }
    return new Map(
      sides.map((s, i) => {
        const sorted = [...walls[i]].sort((a, b) => a.wallMs - b.wallMs);
        return [
          s.tree,
          {
            up: ups[i],
            refresh: sorted[Math.floor(sorted.length / 2)],
            refreshWallsMs: walls[i].map((c) => c.wallMs),
            stateBytesPerResource: JSON.stringify(s.stack.exportCheckpoint()).length / n,
            providerBytes: String(s.stack.resource("svc-0").inputs.__provider).length,
          },
        ];
      }),
    );
  } finally {
    for (const s of sides) await close(s);
  }
}

/** Warms this process and the plugin's files up for `tree` (its SDK loaded, Pulumi's runtime run once). */
async function warmUp(tree: Tree, emu: EmulatorProcess): Promise<void> {
  // What users run: the real plugin process (not the test harness's in-process host).
  const stack = await TestStack.create({ host: "plugin", config: defaultConfig(emu), secretKeys: ["clouddb:apiKey"], cwd: tree.root });
  const sdk = tree.sdk();
  try {
    await stack.up(() => void new sdk.Vpc("warm", { name: "warm", cidr: "10.0.0.0/16", regionCode: "us-east-1" }));
  } finally {
    await stack.close();
    await emu.control("POST", "/reset");
  }
}

/** Adds the rows of N creates and their refresh. */
export async function creates(report: Report, current: Tree, baseline: Tree, sizes: Sizes): Promise<void> {
  const NS = sizes.creates;
  const emus = new Map<Tree, EmulatorProcess>();
  const cpu = new PluginCpu();
  try {
    for (const tree of [current, baseline]) emus.set(tree, await startEmulatorProcess({ clockScale: T / NOMINAL_MS }));
    await warmUp(baseline, emus.get(baseline)!);
    await warmUp(current, emus.get(current)!);
    const runs: Record<number, { now: Run; base: Run }> = {};
    for (const [i, n] of NS.entries()) {
      // Alternating which goes first, so that neither always meets the machine's load first.
      const order: [Tree, Tree] = i % 2 === 0 ? [current, baseline] : [baseline, current];
      const both = await runBoth(n, order, emus, cpu, n === NS[NS.length - 1] ? sizes.refreshes : 1);
      runs[n] = { now: both.get(current)!, base: both.get(baseline)! };
    }
    report.raw.creates = Object.fromEntries(Object.entries(runs).map(([n, r]) => [n, { now: strip(r.now), base: strip(r.base) }]));
    rows(report, runs, NS, sizes.refreshes);
  } finally {
    cpu.close();
    for (const emu of emus.values()) await emu.close();
  }
}

function strip(r: Run) {
  const { log: upLog, ...up } = r.up;
  const { log: refreshLog, ...refresh } = r.refresh;
  return { ...r, up: { ...up, ...traffic(upLog) }, refresh: { ...refresh, requests: refreshLog.length } };
}

function rows(report: Report, runs: Record<number, { now: Run; base: Run }>, NS: readonly number[], refreshes: number): void {
  const S = "4 creates, no rate limit, T = 10 s";
  const last = NS[NS.length - 1];
  const size = (n: number) => `N = ${count(n)}`;
  for (const n of NS) {
    const { now, base } = runs[n];
    const judged = n === last;
    report.row(S, "`up` wall time, all at once", `${secs(now.up.wallMs)} (${ratio(now.up.wallMs, base.up.wallMs)} × baseline)`, {
      size: size(n),
      baseline: secs(base.up.wallMs),
      terraform: `T + up to ${secs(around(T, terraform).delayMs)} a create`,
      tiger: `T + up to ${secs(around(T, tiger).delayMs)} a create`,
      ...(judged ? { target: "<= 1.1 × baseline", pass: now.up.wallMs <= 1.1 * base.up.wallMs } : {}),
    });
  }
  for (const n of NS) {
    const { now, base } = runs[n];
    const [a, b] = [traffic(now.up.log), traffic(base.up.log)];
    report.row(S, "first to last request the API saw", atLeast(a, secs(a.apiWallMs)), {
      size: size(n),
      baseline: atLeast(b, secs(b.apiWallMs)),
    });
  }
  for (const n of NS) {
    const { now, base } = runs[n];
    const [a, b] = [traffic(now.up.log), traffic(base.up.log)];
    report.row(S, "requests per service beyond its write", atLeast(a, (a.reads / n).toFixed(2)), {
      size: size(n),
      baseline: atLeast(b, (b.reads / n).toFixed(2)),
      terraform: String(around(T, terraform).polls),
      tiger: String(around(T, tiger).polls),
    });
  }
  /** A figure per resource at each N against the baseline's, judged (<= 1.1 ×) at the largest N when `judged`. */
  const perResource = (figure: string, of: (c: DeclaringCost) => number, show: (v: number) => string, judged: boolean): void => {
    for (const n of NS) {
      const { now, base } = runs[n];
      const [a, b] = [of(now.up) / n, of(base.up) / n];
      report.row(S, figure, `${show(a)} (${ratio(a, b)} × baseline)`, {
        size: size(n),
        baseline: show(b),
        ...(judged && n === last ? { target: "<= 1.1 × baseline", pass: a <= 1.1 * b } : {}),
      });
    }
  };
  perResource(
    "program side: CPU per resource (this process)",
    (c) => c.programCpuMs,
    (ms) => `${ms.toFixed(2)} ms`,
    true,
  );
  perResource(
    "program side: heap a declared resource holds (after a full collection)",
    (c) => c.declaredBytes,
    (bytes) => `${(bytes / 1024).toFixed(1)} KB`,
    true,
  );
  perResource(
    "program side: heap per resource (peak growth, garbage included)",
    (c) => c.heapPeakBytes,
    (bytes) => `${(bytes / 1024).toFixed(0)} KB`,
    false,
  );
  for (const n of NS) {
    const { now, base } = runs[n];
    const cell = (r: Run) => (r.up.pluginCpuMs === undefined ? "n/a" : `${(r.up.pluginCpuMs / n).toFixed(2)} ms`);
    report.row(S, "plugin: CPU per resource", cell(now), { size: size(n), baseline: cell(base) });
  }
  for (const n of NS) {
    const { now, base } = runs[n];
    const one = now.refresh.log.length === 1;
    const walls = ratio(now.refresh.wallMs, base.refresh.wallMs);
    report.row(
      "4 refresh of the N services",
      `wall time${n === last && refreshes > 1 ? ` (median of ${refreshes})` : ""}, requests`,
      `${secs(now.refresh.wallMs)}, ${now.refresh.log.length} (${walls} × baseline)`,
      {
        size: size(n),
        baseline: `${secs(base.refresh.wallMs)}, ${base.refresh.log.length}`,
        terraform: `${count(n)} GETs (a read per resource)`,
        tiger: "no state to refresh",
        ...(n === last
          ? {
              target: "<= 1.1 × baseline, 1 request",
              pass: now.refresh.wallMs <= 1.1 * base.refresh.wallMs && one,
              why: `every refresh: ${now.refreshWallsMs.map(secs).join(", ")} against ${base.refreshWallsMs.map(secs).join(", ")}`,
            }
          : { target: "1 request", pass: one }),
      },
    );
  }
  for (const n of NS) {
    const { now, base } = runs[n];
    report.row(
      "1 state",
      "checkpoint bytes per resource",
      `${now.stateBytesPerResource.toFixed(0)} B (${ratio(now.stateBytesPerResource, base.stateBytesPerResource)} × baseline)`,
      {
        size: size(n),
        baseline: `${base.stateBytesPerResource.toFixed(0)} B`,
      },
    );
  }
  const { now, base } = runs[last];
  report.row("1 state", "serialized provider (`__provider`) of a Service, in its state", `${now.providerBytes} B`, {
    baseline: `${base.providerBytes} B`,
    target: "<= 512 B",
    pass: now.providerBytes <= 512,
  });
}
