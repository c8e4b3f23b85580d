/**
 * Fleets: K stacks of S services each, created at once on one machine, every stack its own
 * plugin process (bench/fleetStacks.ts), all with one API key that the API limits to 10
 * requests a second (the emulator's per-key limit), T = 10 s; once with 429s that carry
 * `Retry-After` and once with bare 429s. In this tree, in the code this work started from
 * (`BENCH_FLEET_BEFORE`, default 2b69d06; `none` leaves it out) and in the baseline, each
 * stack of a run sharing one journal directory (this user's, as on one machine). Figures:
 * the answers that were 429; the first to the last request against the earliest the last
 * service can be seen ready (all K × S writes at the limit, then T); the slowest stack's `up`
 * against the fastest's (both from the fleet's start); the bytes of the answers per service
 * (a proxy counts them); the operations that failed.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { type EmulatorProcess, type LoggedRequest, startEmulatorProcess } from "../harness/emulatorProcess";
import { startByteCounter, type ByteCounter } from "./byteCounter";
import { type ServiceTemplate, serviceTemplate, startFleet } from "./fleetStacks";
import { atLeast, traffic } from "./measure";
import { bytes, type Report, secs } from "./report";
import type { Sizes } from "./sizes";
import type { Tree } from "./trees";

const LIMIT = 10;
const SERVICES = 10;
const T = 10_000;
const NOMINAL_MS = 7_000;
/** The fleet size the targets are set at. */
const JUDGED = 20;

/** What one fleet's run gave. */
export interface FleetRun {
  k: number;
  retryAfter: boolean;
  limited: number;
  accepted: number;
  complete: boolean;
  apiWallMs: number;
  /** Answer bytes the proxy counted. */
  bytes: number;
  /** Each stack's `up`, from the fleet's start, ms. */
  stackWallsMs: number[];
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

async function runFleet(
  tree: Tree,
  template: ServiceTemplate,
  k: number,
  retryAfter: boolean,
  emu: EmulatorProcess,
  proxy: ByteCounter,
): Promise<FleetRun> {
  const journal = fs.mkdtempSync(path.join(os.tmpdir(), "bench-fleet-journal-"));
  const stacks = await startFleet(tree, k, template, `${proxy.url}/public/api/v1`, emu, journal);
  try {
    // The warm-up's requests say nothing of the fleet's: a schedule idle for 2 s starts its slow start again.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await emu.controls.rateLimit(LIMIT, { retryAfter });
    await emu.clearRequests();
    proxy.reset();
    const startedAt = Date.now();
    const runs = await Promise.all(stacks.map((s) => s.up(SERVICES, startedAt)));
    const log = await emu.requests();
    const t = traffic(log);
    return {
      k,
      retryAfter,
      limited: t.limited,
      accepted: t.accepted,
      complete: t.complete,
      apiWallMs: t.apiWallMs,
      bytes: proxy.bytes,
      stackWallsMs: runs.map((r) => r.wallMs),
      errors: runs.flatMap((r) => r.errors),
      timeline: timelineOf(log),
    };
  } finally {
    await Promise.all(stacks.map((s) => s.close().catch(() => undefined)));
    await emu.control("POST", "/reset");
    fs.rmSync(journal, { recursive: true, force: true });
  }
}

/** The fleets of every size, with and without Retry-After, in each tree (taking turns going first); the raw runs by tree label. */
export async function measureFleets(
  trees: readonly Tree[],
  ks: readonly number[],
  say: (what: string) => void,
  modes: readonly boolean[] = [false, true],
): Promise<Map<Tree, FleetRun[]>> {
  const emu = await startEmulatorProcess({ clockScale: T / NOMINAL_MS });
  const proxy = await startByteCounter(emu.url);
  const runs = new Map<Tree, FleetRun[]>(trees.map((t) => [t, []]));
  try {
    const templates = new Map<Tree, ServiceTemplate>();
    for (const tree of trees) templates.set(tree, await serviceTemplate(tree, emu));
    await emu.control("POST", "/reset");
    let turn = 0;
    for (const k of ks) {
      for (const retryAfter of modes) {
        for (let i = 0; i < trees.length; i++) {
          const tree = trees[(turn + i) % trees.length];
          say(`${k} stack(s), ${retryAfter ? "429s with Retry-After" : "bare 429s"}: ${tree.label}`);
          runs.get(tree)!.push(await runFleet(tree, templates.get(tree)!, k, retryAfter, emu, proxy));
        }
        turn++;
      }
    }
  } finally {
    await proxy.close();
    await emu.close();
  }
  return runs;
}

const share = (r: FleetRun): string =>
  atLeast(r, `${r.limited} of ${r.limited + r.accepted} = ${((r.limited / Math.max(1, r.limited + r.accepted)) * 100).toFixed(1)} %`);
const timeRatio = (r: FleetRun): number => r.apiWallMs / earliestMs(r.k);
const spread = (r: FleetRun): number => Math.max(...r.stackWallsMs) / Math.max(1, Math.min(...r.stackWallsMs));
const perService = (r: FleetRun): number => r.bytes / (r.k * SERVICES);

/** A target and whether a run meets it. */
type Judge = (r: FleetRun, b: FleetRun, p: FleetRun | undefined) => { target: string; pass: boolean } | undefined;

/** Adds the fleet rows: this tree's runs beside the baseline's and, when measured, the code before. */
export function fleetRows(report: Report, now: FleetRun[], base: FleetRun[], before: FleetRun[] | undefined, beforeRef: string): void {
  const find = (list: FleetRun[] | undefined, r: FleetRun) => list?.find((x) => x.k === r.k && x.retryAfter === r.retryAfter);
  for (const retryAfter of [false, true]) {
    const S = `5 fleets: K stacks of ${SERVICES} services, one key limited to ${LIMIT}/s, T = 10 s, ${retryAfter ? "429s with Retry-After" : "bare 429s"}${before ? ` (before: ${beforeRef})` : ""}`;
    const row = (metric: string, cell: (r: FleetRun) => string, judge: Judge) => {
      for (const r of now.filter((x) => x.retryAfter === retryAfter)) {
        const b = find(base, r)!;
        const p = find(before, r);
        report.row(S, metric, cell(r), {
          size: `K = ${r.k}`,
          baseline: cell(b),
          ...(p ? { before: cell(p) } : {}),
          ...(judge(r, b, p) ?? {}),
        });
      }
    };
    /** At K = 20, `target`; with one stack, no worse than the code before (when it was measured). */
    const judged =
      (target: string, meets: (r: FleetRun, b: FleetRun) => boolean, figure: (r: FleetRun) => number): Judge =>
      (r, b, p) => {
        if (r.k === JUDGED) return { target, pass: meets(r, b) };
        if (r.k === 1 && p !== undefined) return { target: "<= before (+5 %)", pass: figure(r) <= figure(p) * 1.05 + 0.005 };
        return undefined;
      };
    const share429 = (r: FleetRun) => r.limited / Math.max(1, r.limited + r.accepted);
    row(
      "answers that were 429",
      share,
      judged("<= 10 %", (r) => r.complete && share429(r) <= 0.1, share429),
    );
    row(
      "first to last request / the earliest possible (K × 10 writes at the limit, then T)",
      (r) => `${secs(r.apiWallMs)} / ${secs(earliestMs(r.k))} = ${timeRatio(r).toFixed(2)}`,
      judged("<= 1.15", (r) => timeRatio(r) <= 1.15, timeRatio),
    );
    row(
      "slowest stack / fastest stack (each `up` from the fleet's start)",
      (r) => `${secs(Math.max(...r.stackWallsMs))} / ${secs(Math.min(...r.stackWallsMs))} = ${spread(r).toFixed(2)}`,
      judged(
        "<= 1.3",
        (r) => spread(r) <= 1.3,
        () => 0,
      ),
    );
    row(
      "bytes read per service (every answer's body)",
      (r) => bytes(perService(r)),
      judged("<= baseline", (r, b) => perService(r) <= perService(b), perService),
    );
    row(
      "errors (failed operations)",
      (r) => `${r.errors.length}${r.errors.length > 0 ? `: ${r.errors[0].slice(0, 160)}` : ""}`,
      (r) => ({ target: "0", pass: r.errors.length === 0 }),
    );
  }
}

/** Adds the fleet section: measures, then the rows. */
export async function fleet(
  report: Report,
  trees: { current: Tree; baseline: Tree; before?: Tree },
  sizes: Sizes,
  say: (what: string) => void,
): Promise<void> {
  const order = [trees.current, ...(trees.before ? [trees.before] : []), trees.baseline];
  const runs = await measureFleets(order, sizes.fleets, say);
  report.raw.fleet = Object.fromEntries([...runs].map(([t, r]) => [t.label, r]));
  fleetRows(
    report,
    runs.get(trees.current)!,
    runs.get(trees.baseline)!,
    trees.before ? runs.get(trees.before) : undefined,
    trees.before?.label ?? "",
  );
}
