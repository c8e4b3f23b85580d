/**
 * The inner loops, in this process: the pacer's work per request with Q requests queued,
 * and the poll hub's work per wait per tick with W waits on a list of L items (W = L), in
 * this tree and in the code before it. CPU time, not wall time: the timers the hub and the
 * pacer wait on are not work.
 *
 * Work per item that does not depend on the number of items still costs more per item
 * when the items no longer fit the processor's caches and outlive the young generation of
 * the heap: merely holding 100,000 pending requests (a promise, its resolver and a record
 * each, in an array, let go in order) costs several times per request what holding 1,000
 * does, and a bare loop over 100,000 objects shaped as waits 2 to 3 × per object. Each
 * curve is printed beside such a reference, and "flat" is judged against it: from the
 * smallest size to the largest, the cost per item grows at most 1.5 × as much as the
 * reference's (work that grows with the number of items grows 100 × more from 1,000 to
 * 100,000: the code before this work, 10 × from 1,000 to 10,000 already).
 */
import { gc } from "./measure";
import { count, type Report } from "./report";
import type { Sizes } from "./sizes";
import type { Tree } from "./trees";

/** The code before this work made a tick cost waits × items: beyond this it is not run. */
const BEFORE_MAX_W = 10_000;
/** Items measured at each size at least, so that small sizes are measured as surely as big ones. */
const ITEMS = 300_000;
/** How much more than its reference a curve may grow and still be flat. */
const SLACK = 1.5;
/**
 * Each figure of this tree and of a reference is the least of several measurements (the
 * one the machine's other work and the collector disturbed least), taken in rounds that go
 * through every size and both the code and its reference in turn, so that a burst of other
 * work spoils one round of each rather than every measurement of one: this many rounds of
 * the pacer and its queue, which take a fraction of a second...
 */
const PACER_ROUNDS = 7;
/** ...and this many of the hub and its loop, which take seconds at 100,000 waits. */
const HUB_ROUNDS = 3;

/** For each of `sizes`, the least of `rounds` results of each measurement, the rounds going through every size and measurement in turn. */
async function leastOver(
  rounds: number,
  sizes: readonly number[],
  measures: readonly ((size: number) => Promise<number> | number)[],
): Promise<number[][]> {
  const best = measures.map(() => sizes.map(() => Infinity));
  for (let r = 0; r < rounds; r++) {
    for (const [i, size] of sizes.entries()) {
      for (const [m, measure] of measures.entries()) best[m][i] = Math.min(best[m][i], await measure(size));
    }
  }
  return best;
}

type Priority = "write" | "read" | "poll";
interface PacerLike {
  acquire(priority: Priority, waitUntil?: number): Promise<boolean>;
  close(): void;
}
type PacerModule = { Pacer: new (now: () => number) => PacerLike };

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** µs of CPU per request of `round` with `q` requests, over `items` requests at least. */
async function perRequestUs(round: (q: number) => Promise<number>, q: number, items = ITEMS): Promise<number> {
  const rounds = Math.ceil(items / q);
  let total = 0;
  for (let i = 0; i < rounds; i++) {
    // A big round starts on a clean heap (the garbage of the round before is not its work); small ones share one.
    if (i === 0 || rounds <= 10) gc();
    total += await round(q);
  }
  return (total * 1000) / rounds / q;
}

/** ms of CPU to hold `q` pending requests and let them go in order without a pacer: a promise, its resolver and a record each, in an array (the reference of the pacer's curve). */
async function bareQueueRound(q: number): Promise<number> {
  const queue: { release: (send: boolean) => void; waitUntil: number }[] = [];
  const released: Promise<boolean>[] = [];
  let spent = cpuMs();
  for (let i = 0; i < q; i++) released.push(new Promise<boolean>((resolve) => queue.push({ release: resolve, waitUntil: Infinity })));
  for (const waiting of queue) waiting.release(true);
  spent = cpuMs() - spent;
  await Promise.all(released);
  return spent;
}

/** ms of CPU the pacer itself spends to queue `q` requests and let them go: its calls, not the callers' promises settling after. */
async function pacerRound(mod: PacerModule, q: number): Promise<number> {
  let clock = 1_000_000;
  let stepping = false;
  // Frozen, the clock keeps every request but the first queued; stepping a second a call, each is due.
  const pacer = new mod.Pacer(() => (stepping ? (clock += 1_000) : clock));
  const released: Promise<boolean>[] = [];
  let spent = cpuMs();
  for (let i = 0; i < q; i++) released.push(pacer.acquire(i % 10 === 0 ? "poll" : "write"));
  stepping = true;
  // This call's turn at the pacer lets every queued request go, in order, before it returns.
  released.push(pacer.acquire("poll"));
  spent = cpuMs() - spent;
  await Promise.all(released);
  pacer.close();
  return spent;
}

interface Reading {
  items: { service_id: string; status: string }[];
  rejected: unknown[];
}
type Lookup = { found: unknown } | { rejected: unknown } | { absent: true };

/** µs of CPU per wait per tick of a hub with `w` waits on a list of `w` items (the ticks after the first; 300,000 waits' ticks at least). */
async function hubUs(tree: Tree, w: number): Promise<number> {
  const ticks = Math.max(5, Math.ceil(ITEMS / w));
  type Hub = { watch(spec: unknown): Promise<unknown>; close(): void };
  const { PollHub } = tree.load<{ PollHub: new (durations: unknown) => Hub }>("provider/client/pollHub")!;
  const { TransitionDurations } = tree.load<{ TransitionDurations: new () => unknown }>("provider/client/transitionDurations")!;
  // As resourceWaits.ts finds a service in the answer: by the index where there is one, else by a search.
  const indexed = tree.load<{ lookUpById(r: Reading, field: string, id: string): Lookup }>("provider/client/listIndex");
  const searched = tree.load<{ lookUp(r: Reading, id: string, idOf: (s: { service_id: string }) => string): Lookup }>(
    "provider/client/listReading",
  )!;
  const find = indexed
    ? (a: Reading, id: string) => indexed.lookUpById(a, "service_id", id)
    : (a: Reading, id: string) => searched.lookUp(a, id, (s) => s.service_id);
  const answer: Reading = { items: Array.from({ length: w }, (_, i) => ({ service_id: `s${i}`, status: "QUEUED" })), rejected: [] };
  const hub = new PollHub(new TransitionDurations());
  const at: number[] = [];
  let done!: () => void;
  const enough = new Promise<void>((resolve) => (done = resolve));
  const source = {
    key: "services",
    size: (a: Reading) => a.items.length,
    fetch: async () => {
      // The setting up's garbage is not a tick's.
      if (at.length === 1) gc();
      at.push(cpuMs());
      if (at.length === ticks + 2) done();
      return { answer, sentAt: Date.now() };
    },
  };
  const spec = (id: string) => ({
    resource: { kind: "service", id, projectId: "p" },
    operation: "waitForService",
    goal: { status: ["READY"] },
    timeoutMs: 3_600_000,
    schedule: { initialMs: 1, maxMs: 1 },
    source,
    locate: async (a: Reading) => {
      const hit = find(a, id);
      return "found" in hit ? { present: true, value: hit.found } : { present: false };
    },
    own: async () => {
      throw new Error("a wait on a list as long as its waits reads the list");
    },
  });
  const waits = Array.from({ length: w }, (_, i) => hub.watch(spec(`s${i}`)).catch(() => undefined));
  await enough;
  hub.close();
  await Promise.all(waits);
  // From the second fetch to the last: whole ticks (delivery, rescheduling, arming) and nothing else.
  return ((at[at.length - 1] - at[1]) * 1000) / ticks / w;
}

/** For profiling. @internal */
export const __hubUs = (tree: Tree, w: number): Promise<number> => hubUs(tree, w);

/**
 * µs per object of a bare loop over `n` objects shaped as waits (each with its own nested
 * objects, a closure and a timer): finding each in a map and writing two fields. The cost
 * of reaching `n` objects at all.
 */
function bareLoopUs(n: number): number {
  const byId = new Map<string, { status: string }>();
  const waits = new Set<{
    spec: { goal: { status: string[] }; locate: (m: typeof byId) => { status: string } | undefined };
    nextDueAt: number;
    lastSeen: unknown;
    timer: NodeJS.Timeout;
  }>();
  for (let i = 0; i < n; i++) {
    const id = `s${i}`;
    byId.set(id, { status: "QUEUED" });
    waits.add({
      spec: { goal: { status: ["READY"] }, locate: (m) => m.get(id) },
      nextDueAt: 0,
      lastSeen: undefined,
      timer: setTimeout(() => undefined, 3_600_000),
    });
  }
  const rounds = Math.max(5, Math.ceil(ITEMS / n));
  let best = Infinity;
  // The fastest of two: the first may still be compiling.
  for (let pass = 0; pass < 2; pass++) best = Math.min(best, bareRounds(waits, byId, rounds));
  for (const w of waits) clearTimeout(w.timer);
  return (best * 1000) / rounds / n;
}

function bareRounds(
  waits: Set<{
    spec: { goal: { status: string[] }; locate: (m: Map<string, { status: string }>) => { status: string } | undefined };
    nextDueAt: number;
    lastSeen: unknown;
  }>,
  byId: Map<string, { status: string }>,
  rounds: number,
): number {
  const started = cpuMs();
  for (let r = 0; r < rounds; r++) {
    for (const w of waits) {
      const seen = { present: true, value: w.spec.locate(byId) };
      if (seen.value?.status !== w.spec.goal.status[0]) {
        w.lastSeen = seen.value;
        w.nextDueAt = Date.now() + 1_000;
      }
    }
  }
  return cpuMs() - started;
}

/** Growth of a curve from its first point to its last. */
const growth = (xs: readonly number[]): number => xs[xs.length - 1] / xs[0];

/** The target of a curve judged against its reference, and its verdict. */
function flat(mine: readonly number[], reference: readonly number[], sizes: readonly number[], what: string) {
  const [g, r] = [growth(mine), growth(reference)];
  return {
    target: `growth ${count(sizes[0])} → ${count(sizes[sizes.length - 1])} <= ${SLACK} × the ${what}'s`,
    pass: g <= SLACK * Math.max(1, r),
    why: `× ${g.toFixed(1)} against × ${r.toFixed(1)}`,
  };
}

/** Adds the rows of the pacer's and the hub's curves; `before` is the code this work started from. */
export async function micro(report: Report, current: Tree, before: Tree | undefined, sizes: Sizes): Promise<void> {
  const QS = sizes.queues;
  const pacers = [current, ...(before ? [before] : [])].map((t) => ({
    tree: t,
    mod: (t.load<PacerModule>("provider/client/shaping/pacer") ?? t.load<PacerModule>("provider/client/pacer"))!,
  }));
  for (const { mod } of pacers) await perRequestUs((q) => pacerRound(mod, q), 10_000); // warm-up
  await perRequestUs(bareQueueRound, 10_000);
  const pacer: Record<string, number[]> = {};
  const [now, bareQueue] = await leastOver(PACER_ROUNDS, QS, [
    (q) => perRequestUs((n) => pacerRound(pacers[0].mod, n), q),
    (q) => perRequestUs(bareQueueRound, q),
  ]);
  pacer[current.label] = now;
  // The code before spends up to 50 µs a request: 30,000 requests of each size (one round of 100,000) are enough to show it.
  for (const { tree, mod } of pacers.slice(1)) {
    const old: number[] = [];
    for (const q of QS) old.push(await perRequestUs((n) => pacerRound(mod, n), q, Math.max(q, 30_000)));
    pacer[tree.label] = old;
  }
  report.raw.pacer = { QS, usPerRequest: pacer, bareQueueUsPerRequest: bareQueue };
  const S = "3 inner loops";
  for (const [i, q] of QS.entries()) {
    const last = i === QS.length - 1;
    report.row(S, "pacer: CPU per request, Q queued, then let go in order", `${now[i].toFixed(2)} µs`, {
      size: `Q = ${count(q)}`,
      ...(before ? { before: `${pacer[before.label][i].toFixed(2)} µs` } : {}),
      baseline: "no pacer",
      ...(last ? flat(now, bareQueue, QS, "bare queue") : {}),
    });
  }
  report.row(
    S,
    "reference: a bare queue of Q pending requests let go in order (what holding that many costs)",
    bareQueue.map((b) => `${b.toFixed(2)} µs`).join(" / "),
    {
      size: `Q = ${QS.map(count).join(" / ")}`,
    },
  );
  const WS = sizes.queues;
  const hub: Record<string, (number | undefined)[]> = {};
  await hubUs(current, 1_000); // warm-up
  bareLoopUs(1_000);
  const [ours, bare] = await leastOver(HUB_ROUNDS, WS, [(w) => hubUs(current, w), (w) => bareLoopUs(w)]);
  hub[current.label] = ours;
  if (before) {
    const old: (number | undefined)[] = [];
    for (const w of WS) old.push(w <= BEFORE_MAX_W ? await hubUs(before, w) : undefined);
    hub[before.label] = old;
  }
  report.raw.hub = { WS, usPerWaitPerTick: hub, bareLoopUsPerObject: bare };
  const mine = hub[current.label] as number[];
  for (const [i, w] of WS.entries()) {
    const last = i === WS.length - 1;
    const old = before ? hub[before.label][i] : undefined;
    report.row(S, "poll hub: CPU per wait per tick, W waits on a list of L = W", `${mine[i].toFixed(2)} µs`, {
      size: `W = L = ${count(w)}`,
      ...(before ? { before: old === undefined ? `not run (W × L = ${count(w * w)} a tick)` : `${old.toFixed(2)} µs` } : {}),
      baseline: "no shared polls (a GET per wait)",
      ...(last ? flat(mine, bare, WS, "bare loop") : {}),
    });
  }
  report.row(
    S,
    "reference: a bare loop over W objects shaped as waits (what reaching that many costs)",
    bare.map((b) => `${b.toFixed(3)} µs`).join(" / "),
    { size: `W = ${WS.map(count).join(" / ")}` },
  );
}
