/**
 * The plugin's heap upkeep (provider/framework/heapUpkeep.ts; issue 44: the plugin's memory
 * flat from 100 to 1,000 services). Each case runs in a fresh Node.js process, as a plugin
 * starts (a young generation of 1 MB, V8's own limits), that keeps a few MB and allocates
 * hundreds of MB more that live just long enough to reach the old generation, as a plugin
 * serving many creates does; it reports the most V8 held of each generation at its looks,
 * and what a full collection leaves at the loop's end while the loop's objects are still
 * held (the live heap the upkeep's rule is measured from).
 */
import { execFileSync } from "child_process";
import * as path from "path";
import { MAX_SHARE, MIN_OLD_GROWTH, YOUNG_GENERATION_BOUND } from "../../provider/framework/heapUpkeep";

interface Held {
  /** The young generation's most committed size, bytes. */
  young: number;
  /** The old generation's most in use, bytes. */
  old: number;
  /** The old generation's most in use at the looks after the upkeep's first collection, bytes. */
  oldOnceCollected: number;
  /** When the last look before the upkeep's first collection was, ms into the loop. */
  firstCollectionAfterMs: number;
  /** The old generation in use after a full collection at the loop's end, while its objects (the kept ones and the last 50,000 made) were still held: what was live while it ran. */
  live: number;
  collections: number;
  /** What the collections the upkeep started took, and the loop's time, ms. */
  collectingMs: number;
  longestMs: number;
  elapsedMs: number;
}

const CHILD = `
const v8 = require("v8");
const vm = require("vm");
const { keepHeapFlat } = require(${JSON.stringify(path.resolve(__dirname, "../../provider/framework/heapUpkeep.ts"))});
const space = (name, of) => v8.getHeapSpaceStatistics().find((s) => s.space_name === name)[of];
const started = performance.now();
// No grace unless asked.
const upkeep = keepHeapFlat(process.env, Number(process.env.SHARE ?? "0.05"), Number(process.env.GRACE ?? "0"));
const kept = Array.from({ length: 100000 }, (_, i) => ({ i, text: "kept " + i }));
const ring = new Array(50000);
let young = 0, old = 0, oldOnceCollected = 0, lastLookBeforeCollecting = -1;
for (let i = 0; i < 3000000; i++) {
  ring[i % ring.length] = { values: [i, i + 1, i + 2], text: "made " + i };
  if (i % 10000 === 0) {
    // What the upkeep's timer does every 250 ms (this loop never yields to it).
    upkeep?.check();
    young = Math.max(young, space("new_space", "space_size"));
    old = Math.max(old, space("old_space", "space_used_size"));
    if ((upkeep?.collections ?? 0) > 0) oldOnceCollected = Math.max(oldOnceCollected, space("old_space", "space_used_size"));
    else lastLookBeforeCollecting = performance.now() - started;
  }
}
const elapsedMs = performance.now() - started;
// With the ring still held (it is read below): what the loop kept live.
v8.setFlagsFromString("--expose-gc");
vm.runInNewContext("gc")();
process.stdout.write(JSON.stringify({ young, old, oldOnceCollected, firstCollectionAfterMs: lastLookBeforeCollecting, live: space("old_space", "space_used_size"), ring: ring.length, collections: upkeep?.collections ?? 0, collectingMs: upkeep?.collectingMs ?? 0, longestMs: upkeep?.longestMs ?? 0, elapsedMs, kept: kept.length }));
`;

/**
 * Runs the child with V8's collections on its main thread only: with marking on other threads, how far the old generation
 * grows between two looks depends on how busy the machine is (under load it passed the bound on Node.js 24 with the upkeep,
 * and stayed under it without), not on the upkeep. The upkeep's rules are the same either way.
 */
function run(env: Record<string, string> = {}): Held {
  const out = execFileSync(process.execPath, ["--single-threaded-gc", "-r", "ts-node/register/transpile-only", "-e", CHILD], {
    encoding: "utf8",
    env: { ...process.env, ...env, NODE_OPTIONS: "" },
    timeout: 120_000,
  });
  return JSON.parse(out) as Held;
}

/** The longest the loop may run between two looks (10,000 iterations), ms: generous, for a loaded machine. */
const CHECK_EVERY_LOOK_MS = 100;

/**
 * The most the old generation may hold at a look under the upkeep's rule: what a full collection leaves (the loop's live
 * objects, the last 50,000 made included: the upkeep measures growth from what its last collection left, and they were
 * live then too), grown by a quarter of it, at least {@link MIN_OLD_GROWTH}; plus 1 MB for what one collection in the loop
 * keeps that the one at its end does not (the few objects the look itself made). Measured from what the process kept once
 * the loop let its objects go (7 MB less), the bound failed whenever the loop ran long in V8's unoptimized code, whose
 * objects reach the old generation sooner: always with `--no-opt`, and now and then on a loaded machine, where the
 * optimizing compiler (another thread) finishes late.
 */
function allowedOld(held: Held): number {
  return held.live + Math.max(MIN_OLD_GROWTH, held.live / 4) + 1024 * 1024;
}

describe("the plugin's heap upkeep", () => {
  it("stops the young generation growing at its bound and collects the old one once it grew by a quarter (at least 4 MB) since the last collection", () => {
    // Collections as often as the growth asks (the share of time they may take is the next case's).
    const held = run({ SHARE: "1" });
    expect(held.young).toBeLessThanOrEqual(YOUNG_GENERATION_BOUND + 1024 * 1024);
    expect(held.old).toBeLessThanOrEqual(allowedOld(held));
    expect(held.collections).toBeGreaterThan(0);
  });

  it("takes at most 5 % of the process's time collecting (the next collection waits 20 times what the last one took)", () => {
    const held = run();
    expect(held.collections).toBeGreaterThan(0);
    // Each waited its turn: the share of the time up to the last one's start, plus the last one (at most the longest).
    expect(held.collectingMs).toBeLessThanOrEqual(MAX_SHARE * held.elapsedMs + held.longestMs + 1);
  });

  it("starts no collection in its grace (a plugin's start, when the old generation grows by the modules it loads, not by garbage)", () => {
    const held = run({ GRACE: "600000" });
    expect(held.collections).toBe(0);
  });

  it("after its grace, keeps the rule: the first collection comes once the grace is over, and the old generation stays within it from then on", () => {
    const held = run({ GRACE: "300", SHARE: "1" });
    expect(held.collections).toBeGreaterThan(0);
    expect(held.firstCollectionAfterMs).toBeGreaterThanOrEqual(300 - CHECK_EVERY_LOOK_MS);
    expect(held.oldOnceCollected).toBeLessThanOrEqual(allowedOld(held));
  });

  it("CLOUDDB_HEAP_UPKEEP=off leaves V8's sizing as it is: the same process holds more of both", () => {
    const held = run({ CLOUDDB_HEAP_UPKEEP: "off" });
    expect(held.collections).toBe(0);
    expect(held.young).toBeGreaterThan(YOUNG_GENERATION_BOUND + 1024 * 1024);
    expect(held.old).toBeGreaterThan(allowedOld(held));
  });
});
