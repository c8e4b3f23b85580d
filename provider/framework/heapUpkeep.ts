/**
 * Keeps a provider plugin's memory flat over a large run (issue 44: at most 10 MB more at
 * 1,000 services than at 100). What a plugin keeps per operation is small (heap snapshots
 * after a full collection: 2.8 to 3.4 MB more live heap at 1,000 creates than at 100, a third
 * of it compiled code; docs/performance/large-stacks.md, "The plugin's memory"); its resident set grew by
 * 60 to 90 MB all the same, because V8 sizes its heap for speed, not for a process that
 * allocates fast and keeps little:
 * - the young generation doubles while most of what is allocated dies young (the
 *   dynamic-provider host's went 34 → 67 → 134 MB committed over 1,000 creates), and is
 *   never given back;
 * - the old generation collects only once it reaches a limit set for a large program (the
 *   native plugin's reached 69 MB in use, of which 15 to 24 MB live, before its first full
 *   collection).
 *
 * So, in a plugin process (never in a program that loads the SDK): the young generation
 * stops growing once it is {@link YOUNG_GENERATION_BOUND} (V8's
 * `--semi-space-growth-factor=1`, read at each growth: Node.js takes neither it nor
 * `--optimize-for-size` in `NODE_OPTIONS`, and the dynamic-provider host is `@pulumi/pulumi`'s
 * `node`, started without ours), and every {@link CHECK_EVERY_MS} the old generation's use is
 * compared with what the last full collection left: grown by more than a quarter of that, at
 * least {@link MIN_OLD_GROWTH}, the process collects (what V8 does when it reaches its own
 * limit, only sooner), taking at most {@link MAX_SHARE} of its time, and none in its first
 * {@link GRACE_MS}: a plugin starts it as it starts, and loads most of its code after, so what
 * the old generation gains then is modules, not garbage; the two or three full collections
 * that gain set off cost a refresh of 300 services about a tenth of the native plugin's CPU,
 * for nothing. No limit is lowered: a
 * heap that needs more grows as before, so no stack is too large for it; the cost is the full collections it starts (docs/performance/large-stacks.md, "The
 * plugin's memory": its figures).
 *
 * `CLOUDDB_HEAP_UPKEEP=off` in the environment leaves V8's sizing as it is.
 */
import * as v8 from "v8";
import * as vm from "vm";

/** The young generation's size (both semi-spaces, committed) from which it grows no more: what 8 MB semi-spaces make, as the native plugin's launcher sets them. */
export const YOUNG_GENERATION_BOUND = 16 * 1024 * 1024;
/** The least growth of the old generation's use since the last full collection that starts one. */
export const MIN_OLD_GROWTH = 4 * 1024 * 1024;
/** How often the heap is looked at, ms. */
export const CHECK_EVERY_MS = 250;
/**
 * The most of the process's time the collections it starts may take: after one that took
 * `t` ms, the next waits `t / MAX_SHARE` ms. A full collection it starts runs on the main
 * thread at once, where V8's own mark concurrently on other threads, and a large live heap
 * (the list of a project of 5,000 services) makes each longer: unbounded, they doubled the
 * native plugin's CPU for 5,000 creates.
 */
export const MAX_SHARE = 0.05;

/**
 * How long from its own start the upkeep starts no collection, ms; growth counts from
 * what is in use at its end. Longer would spare more of a short command's CPU and cost a long
 * one's memory: with 5 s, the native plugin's peak at 1,000 creates grew by 32 MB from 100
 * where it grew by 6 to 17 MB with 0 to 2 s (docs/performance/large-stacks.md, "The plugin's memory").
 */
export const GRACE_MS = 1_000;

/** What the upkeep of one process did. */
export interface HeapUpkeep {
  /** Looks at the heap now (the timer does it every {@link CHECK_EVERY_MS}). */
  check(): void;
  /** Full collections it started. */
  readonly collections: number;
  /** The time they took, ms, and the longest of them. */
  readonly collectingMs: number;
  readonly longestMs: number;
  /** Whether the young generation was stopped from growing. */
  readonly youngBounded: boolean;
  /** Stops the timer. */
  stop(): void;
}

let running: HeapUpkeep | undefined;

/** The bytes in use (or committed, `size`) of one of V8's heap spaces. */
function space(name: string, of: "space_used_size" | "space_size"): number {
  return v8.getHeapSpaceStatistics().find((s) => s.space_name === name)?.[of] ?? 0;
}

/** V8's full collection, without `--expose-gc` on the command line and without a `gc` global in this context. */
function fullCollection(): () => void {
  v8.setFlagsFromString("--expose-gc");
  try {
    return vm.runInNewContext("gc") as () => void;
  } finally {
    v8.setFlagsFromString("--no-expose-gc");
  }
}

/**
 * Starts the upkeep of this process's heap (see the module comment), once per process; returns
 * it, or undefined when `CLOUDDB_HEAP_UPKEEP=off`. Call only in a plugin process. Never throws.
 *
 * @param share - the most of the process's time its collections may take ({@link MAX_SHARE}).
 * @param graceMs - from now, how long it starts none ({@link GRACE_MS}).
 */
export function keepHeapFlat(env: NodeJS.ProcessEnv = process.env, share = MAX_SHARE, graceMs = GRACE_MS): HeapUpkeep | undefined {
  if (running !== undefined) return running;
  if (env.CLOUDDB_HEAP_UPKEEP?.trim().toLowerCase() === "off") return undefined;
  // Made at the first collection: a context costs a few milliseconds, not spent at the plugin's start.
  let gc: (() => void) | undefined;
  let collections = 0;
  let collectingMs = 0;
  let longestMs = 0;
  let notBefore = 0;
  let youngBounded = false;
  let left = space("old_space", "space_used_size");
  const graceEnds = performance.now() + graceMs;
  const check = (): void => {
    const used = space("old_space", "space_used_size");
    // In the grace, growth counts from what is in use (the start's modules are no garbage);
    // after it, from the least seen: less in use than before, V8 collected on its own.
    left = performance.now() < graceEnds ? used : Math.min(left, used);
    if (!youngBounded && space("new_space", "space_size") >= YOUNG_GENERATION_BOUND) {
      v8.setFlagsFromString("--semi-space-growth-factor=1");
      youngBounded = true;
    }
    if (used > left + Math.max(MIN_OLD_GROWTH, left / 4) && performance.now() >= Math.max(notBefore, graceEnds)) {
      gc ??= fullCollection();
      const started = performance.now();
      gc();
      const took = performance.now() - started;
      collections++;
      collectingMs += took;
      longestMs = Math.max(longestMs, took);
      notBefore = started + took / share;
      left = space("old_space", "space_used_size");
    }
  };
  const tryCheck = (): void => {
    try {
      check();
    } catch {
      // Only memory is at stake.
    }
  };
  const timer = setInterval(tryCheck, CHECK_EVERY_MS);
  timer.unref();
  running = {
    check,
    get collections() {
      return collections;
    },
    get collectingMs() {
      return collectingMs;
    },
    get longestMs() {
      return longestMs;
    },
    get youngBounded() {
      return youngBounded;
    },
    stop() {
      clearInterval(timer);
      running = undefined;
    },
  };
  tryCheck();
  return running;
}
