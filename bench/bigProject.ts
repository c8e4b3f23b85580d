/**
 * One create in a project that already holds L services (T = 10 s): the bytes its waiting
 * downloads (counted by a proxy in front of the emulator) and the plugin's CPU, in this
 * tree, in the code before it (which polled the project's whole service list every tick),
 * and in the baseline. The reference for the target is this tree's own create in an empty
 * project, where nothing but the service itself is read: per-resource reads. The anchors
 * read the service by its own GET on their schedules: their bytes are their polls (and the
 * create's answer) times the size of one service's answer, measured here.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { TestStack } from "../harness";
import { type EmulatorProcess, startEmulatorProcess } from "../harness/emulatorProcess";
import { ClouddbClient } from "../provider/client";
import { startByteCounter, type ByteCounter } from "./byteCounter";
import { around, plural, terraform, tiger } from "./anchors";
import { measure, PluginCpu } from "./measure";
import { bytes, count, ratio, type Report } from "./report";
import type { Sizes } from "./sizes";
import type { Tree } from "./trees";

const T = 10_000;
const NOMINAL_MS = 7_000;

/** What one create cost. */
interface Run {
  bytes: number;
  requests: number;
  pluginCpuMs: number | undefined;
  /** The id of the service it created. */
  id: string;
}

async function seed(emu: EmulatorProcess, n: number): Promise<void> {
  if (n <= 0) return;
  const client = new ClouddbClient({ apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId });
  try {
    const batch = 200;
    for (let i = 0; i < n; i += batch) {
      await Promise.all(
        Array.from({ length: Math.min(batch, n - i) }, (_, j) =>
          client.perform("createService", { body: { name: `seed-${Date.now()}-${i + j}` } }),
        ),
      );
    }
  } finally {
    await client.close();
  }
}

async function oneCreate(tree: Tree, name: string, emu: EmulatorProcess, proxy: ByteCounter, cpu: PluginCpu): Promise<Run> {
  const journal = fs.mkdtempSync(path.join(os.tmpdir(), "bench-journal-"));
  // What users run: the real plugin process (not the test harness's in-process host).
  const stack = await TestStack.create({
    host: "plugin",
    config: { "clouddb:apiUrl": `${proxy.url}/public/api/v1`, "clouddb:apiKey": emu.pat, "clouddb:projectId": emu.projectId },
    secretKeys: ["clouddb:apiKey"],
    cwd: tree.root,
    env: { ...cpu.env, CLOUDDB_JOURNAL_DIR: journal },
  });
  const sdk = tree.sdk();
  try {
    proxy.reset();
    const cost = await measure(stack, emu, cpu, () => stack.up(() => void new sdk.Service("one", { name })));
    if (cost.errors > 0) throw new Error(`the create of ${name} failed`);
    return { bytes: proxy.bytes, requests: cost.log.length, pluginCpuMs: cost.pluginCpuMs, id: stack.resource("one").id };
  } finally {
    await stack.close();
    fs.rmSync(journal, { recursive: true, force: true });
  }
}

/** Bytes of the answer to a GET of service `id`. */
async function oneServiceBytes(emu: EmulatorProcess, id: string): Promise<number> {
  const answer = await fetch(`${emu.baseUrl}/projects/${emu.projectId}/services/${id}`, {
    headers: { authorization: `Bearer ${emu.pat}` },
  });
  if (!answer.ok) throw new Error(`GET of service ${id}: ${answer.status}`);
  return Buffer.byteLength(await answer.text());
}

/** Adds the rows of one create in a project of L services. */
export async function bigProject(report: Report, trees: { current: Tree; baseline: Tree; before?: Tree }, sizes: Sizes): Promise<void> {
  const LS = sizes.projectSizes;
  const emu = await startEmulatorProcess({ clockScale: T / NOMINAL_MS });
  const proxy = await startByteCounter(emu.url);
  const cpu = new PluginCpu();
  const order = [trees.current, ...(trees.before ? [trees.before] : []), trees.baseline];
  const runs: Record<number, Map<Tree, Run>> = {};
  let serviceBytes = 0;
  try {
    let seeded = 0;
    for (const [i, l] of LS.entries()) {
      await seed(emu, l - seeded);
      seeded = l;
      runs[l] = new Map();
      // Rotating which tree goes first.
      for (let k = 0; k < order.length; k++) {
        const tree = order[(i + k) % order.length];
        runs[l].set(tree, await oneCreate(tree, `one-${l}-${k}`, emu, proxy, cpu));
      }
    }
    serviceBytes = await oneServiceBytes(emu, runs[LS[0]].get(trees.current)!.id);
  } finally {
    cpu.close();
    await proxy.close();
    await emu.close();
  }
  report.raw.bigProject = Object.fromEntries(
    Object.entries(runs).map(([l, m]) => [l, Object.fromEntries([...m].map(([t, r]) => [t.label, r]))]),
  );
  const ref = runs[0].get(trees.current)!;
  const S = "2 one create in a project of L services, T = 10 s";
  const anchor = (polls: number) => `${bytes((polls + 1) * serviceBytes)} (${plural(polls, "GET")})`;
  const last = LS[LS.length - 1];
  const cells = (l: number, f: (r: Run) => string) => ({
    baseline: f(runs[l].get(trees.baseline)!),
    ...(trees.before ? { before: f(runs[l].get(trees.before)!) } : {}),
  });
  for (const l of LS) {
    const now = runs[l].get(trees.current)!;
    report.row(
      S,
      "bytes its waiting downloaded (requests)",
      `${bytes(now.bytes)} (${now.requests}); ${ratio(now.bytes, ref.bytes)} × per-resource reads`,
      {
        size: `L = ${count(l)}`,
        ...cells(l, (r) => `${bytes(r.bytes)} (${r.requests}; ${ratio(r.bytes, ref.bytes)} ×)`),
        terraform: anchor(around(T, terraform).polls),
        tiger: anchor(around(T, tiger).polls),
        ...(l === last ? { target: "<= 2 × per-resource reads (L = 0)", pass: now.bytes <= 2 * ref.bytes } : {}),
      },
    );
  }
  const ms = (r: Run) => (r.pluginCpuMs === undefined ? "n/a" : `${r.pluginCpuMs.toFixed(0)} ms`);
  for (const l of LS) {
    const now = runs[l].get(trees.current)!;
    const both = now.pluginCpuMs !== undefined && ref.pluginCpuMs !== undefined;
    report.row(
      S,
      "plugin CPU of the `up`",
      `${ms(now)}${both ? `; ${ratio(now.pluginCpuMs!, ref.pluginCpuMs!)} × per-resource reads` : ""}`,
      {
        size: `L = ${count(l)}`,
        ...cells(
          l,
          (r) =>
            `${ms(r)}${r.pluginCpuMs !== undefined && ref.pluginCpuMs !== undefined ? ` (${ratio(r.pluginCpuMs, ref.pluginCpuMs)} ×)` : ""}`,
        ),
        ...(l === last ? { target: "<= 2 × per-resource reads (L = 0)", pass: both && now.pluginCpuMs! <= 2 * ref.pluginCpuMs! } : {}),
      },
    );
  }
}
