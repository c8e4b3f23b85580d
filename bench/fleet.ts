/**
 * Fleets: K stacks of S services each, created at once, every stack its own plugin process
 * (bench/fleetStacks.ts), all with one API key that the API limits to 10 requests a second (the
 * emulator's per-key limit), T = 10 s; on one machine (every stack sharing one journal
 * directory, as this user's processes on one machine do) or on K machines (each stack its own
 * directory, sharing nothing but the key: a CI matrix, Automation API workers on several hosts).
 * The API's 429s in four ways ({@link FleetMode}): bare; with `Retry-After: 1`; with it and the
 * IETF `RateLimit` fields on every answer; and with `Retry-After: 1` while a gateway sprinkles
 * two 429s of `Retry-After: 5` every 5 s. Figures: the answers that were 429; the first to the
 * last request against the earliest the last service can be seen ready (all K × S writes at the
 * limit, then T); the slowest stack's `up` against the fastest's (both from the fleet's start);
 * the stacks not done within the cap; the bytes of the answers per service (a proxy counts
 * them); the operations that failed. In this tree, in the code this work started from
 * (`BENCH_FLEET_BEFORE`) and in the first version (which shares nothing between processes: it
 * runs on one machine only, its figures being the same on K).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { type EmulatorProcess, type LoggedRequest, startEmulatorProcess } from "../harness/emulatorProcess";
import { startByteCounter, type ByteCounter } from "./byteCounter";
import { type ServiceTemplate, serviceTemplate, startFleet } from "./fleetStacks";
import { traffic } from "./measure";
import type { Tree } from "./trees";

export const LIMIT = 10;
export const SERVICES = 10;
const T = 10_000;
const NOMINAL_MS = 7_000;

/** How the API refuses: bare 429s; with `Retry-After: 1`; and the `RateLimit` fields; and a gateway's sprinkled `Retry-After: 5`. */
export type FleetMode = "bare" | "retry-after" | "fields" | "sprinkled";

/** One fleet to run: K stacks on `machines` machines (1, or K: each its own directory), the API refusing as `mode` says. */
export interface FleetCase {
  readonly k: number;
  readonly machines: number;
  readonly mode: FleetMode;
}

/** What one fleet's run gave. */
export interface FleetRun extends FleetCase {
  limited: number;
  accepted: number;
  complete: boolean;
  apiWallMs: number;
  /** Answer bytes the proxy counted. */
  bytes: number;
  /** The same by kind of request (byteCounter.ts `kindOf`). */
  bytesByKind: Record<string, number>;
  /** Each done stack's `up`, from the fleet's start, ms. */
  stackWallsMs: number[];
  /** Stacks not done within the cap. */
  notDone: number;
  /** Every failed operation's message. */
  errors: string[];
  /** The API's answers second by second from the first: writes, single reads, list reads and 429s. */
  timeline: { w: number; g: number; l: number; x: number }[];
}

/** The log second by second: writes, single reads, list reads and 429s. */
function timelineOf(log: LoggedRequest[]): FleetRun["timeline"] {
  const start = log.length > 0 ? Date.parse(log[0].at) : 0;
  const out: FleetRun["timeline"] = [];
  for (const e of log) {
    const second = Math.floor((Date.parse(e.at) - start) / 1000);
    while (out.length <= second) out.push({ w: 0, g: 0, l: 0, x: 0 });
    const slot = out[second];
    if (e.status === 429) slot.x++;
    else if (e.method !== "GET") slot.w++;
    else if (/\/services$/.test(e.path)) slot.l++;
    else slot.g++;
  }
  return out;
}

/** The earliest the last service of K stacks can be seen ready: K × S writes at the limit, then T. */
export const earliestMs = (k: number): number => ((k * SERVICES) / LIMIT) * 1000 + T;

/** How long a fleet may take before its stacks that are not done are counted so (the issue measured at 200 s). */
export const capMs = (k: number): number => Math.max(200_000, 5 * earliestMs(k));

/**
 * A gateway that sprinkles 429s of `Retry-After: 5`: in each period of 5 s, from a moment at
 * random in it, the next two requests (whichever they are), from now until stopped; those it did
 * not answer in a period lapse at its end.
 */
function sprinkle(emu: EmulatorProcess): () => void {
  const timers: NodeJS.Timeout[] = [];
  const period = (): void => {
    void emu.control("DELETE", "/faults").catch(() => undefined);
    const at = setTimeout(
      () => void emu.control("POST", "/faults", { path: ".*", status: 429, count: 2, retryAfter: 5 }).catch(() => undefined),
      Math.random() * 5_000,
    );
    timers.push(at);
  };
  period();
  const every = setInterval(period, 5_000);
  return () => {
    clearInterval(every);
    for (const t of timers) clearTimeout(t);
  };
}

async function runFleet(tree: Tree, template: ServiceTemplate, c: FleetCase, emu: EmulatorProcess, proxy: ByteCounter): Promise<FleetRun> {
  const journal = fs.mkdtempSync(path.join(os.tmpdir(), "bench-fleet-journal-"));
  const stacks = await startFleet(tree, c.k, template, `${proxy.url}/public/api/v1`, emu, journal, c.machines);
  try {
    // The warm-up's requests say nothing of the fleet's: a schedule idle for 2 s starts its slow start again.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await emu.controls.rateLimit(LIMIT, { retryAfter: c.mode !== "bare", headers: c.mode === "fields" });
    await emu.clearRequests();
    proxy.reset();
    const startedAt = Date.now();
    const stop = c.mode === "sprinkled" ? sprinkle(emu) : () => undefined;
    const runs = await Promise.all(stacks.map((s) => s.up(SERVICES, startedAt, capMs(c.k)))).finally(stop);
    const log = await emu.requests();
    const t = traffic(log);
    return {
      ...c,
      limited: t.limited,
      accepted: t.accepted,
      complete: t.complete,
      apiWallMs: t.apiWallMs,
      bytes: proxy.bytes,
      bytesByKind: { ...proxy.byKind },
      stackWallsMs: runs.flatMap((r) => (r.wallMs === undefined ? [] : [r.wallMs])),
      notDone: runs.filter((r) => r.wallMs === undefined).length,
      errors: runs.flatMap((r) => r.errors),
      timeline: timelineOf(log),
    };
  } finally {
    await Promise.all(stacks.map((s) => s.close().catch(() => undefined)));
    await emu.control("POST", "/reset");
    fs.rmSync(journal, { recursive: true, force: true });
  }
}

/**
 * The fleets the bench runs for the sizes `ks` (`BENCH_FLEET_MODES`, e.g. `retry-after,fields`,
 * narrows the modes): at K = 20 every mode on one machine and on K; at other K, `Retry-After`
 * (and, with one stack, bare 429s), on one machine and on K.
 */
export function fleetCases(ks: readonly number[], env: NodeJS.ProcessEnv = process.env): FleetCase[] {
  const only = env.BENCH_FLEET_MODES?.split(",").filter((m): m is FleetMode => ["bare", "retry-after", "fields", "sprinkled"].includes(m));
  const cases: FleetCase[] = [];
  for (const k of ks) {
    const modes: FleetMode[] =
      k === 20 ? ["bare", "retry-after", "fields", "sprinkled"] : k === 1 ? ["bare", "retry-after"] : ["retry-after"];
    for (const mode of modes.filter((m) => only === undefined || only.includes(m))) {
      for (const machines of k === 1 ? [1] : [1, k]) cases.push({ k, machines, mode });
    }
  }
  return cases;
}

/**
 * The fleets {@link measureFleets} runs, in order: each case in each tree, the trees taking
 * turns going first; a tree of `shareless` (the first version: its processes share nothing, so
 * its figures are the same on K machines as on one) runs each K and mode once, on one machine,
 * at the first case of them, whichever machines that case names. Pure.
 */
export function fleetPlan<T>(
  trees: readonly T[],
  cases: readonly FleetCase[],
  shareless: readonly T[] = [],
): { tree: T; run: FleetCase }[] {
  const plan: { tree: T; run: FleetCase }[] = [];
  const ran = new Set<string>();
  cases.forEach((c, turn) => {
    for (let i = 0; i < trees.length; i++) {
      const tree = trees[(turn + i) % trees.length];
      if (!shareless.includes(tree)) {
        plan.push({ tree, run: c });
        continue;
      }
      const key = `${trees.indexOf(tree)} ${c.k} ${c.mode}`;
      if (ran.has(key)) continue;
      ran.add(key);
      plan.push({ tree, run: { ...c, machines: 1 } });
    }
  });
  return plan;
}

/** Runs the fleets {@link fleetPlan} plans for `trees`, `cases` and `shareless`. The raw runs by tree. */
export async function measureFleets(
  trees: readonly Tree[],
  cases: readonly FleetCase[],
  say: (what: string) => void,
  shareless: readonly Tree[] = [],
): Promise<Map<Tree, FleetRun[]>> {
  const emu = await startEmulatorProcess({ clockScale: T / NOMINAL_MS });
  const proxy = await startByteCounter(emu.url);
  const runs = new Map<Tree, FleetRun[]>(trees.map((t) => [t, []]));
  try {
    const templates = new Map<Tree, ServiceTemplate>();
    for (const tree of trees) templates.set(tree, await serviceTemplate(tree, emu));
    await emu.control("POST", "/reset");
    for (const { tree, run } of fleetPlan(trees, cases, shareless)) {
      say(`${run.k} stack(s) on ${run.machines} machine(s), ${run.mode}: ${tree.label}`);
      runs.get(tree)!.push(await runFleet(tree, templates.get(tree)!, run, emu, proxy));
    }
  } finally {
    await proxy.close();
    await emu.close();
  }
  return runs;
}
