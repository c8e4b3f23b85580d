/**
 * The create journal and the learned transition times (provider/framework/journal.ts,
 * transitionPriors.ts), in this process with a stand-in for the API: one create's
 * bookkeeping with thousands of other creates' entries in the journal and with none (it
 * finds an entry in constant time); and what 500 creates at once cost the event loop in
 * file work (the journal's entry written, given its id and removed, the priors saved after
 * each), in this tree and in the code before it, which did that work synchronously: the
 * synchronous file system calls each create makes (counted, on the `fs` module), and the
 * event loop's busy time per create (which the machine's load moves a lot).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { performance } from "perf_hooks";
import { count, type Report } from "./report";
import type { Tree } from "./trees";

const OTHERS = 5_000;
const ROUNDS = 200;
const AT_ONCE = 500;

interface JournalModule {
  createOnce<T>(intent: object, recovery: object, send: () => Promise<T>): Promise<{ settled(): void }>;
}
interface PriorsModule {
  savePriors(apiUrl: string, samples: Record<string, number[]>): void;
}

const recovery = {
  get: async () => undefined,
  list: async () => [],
  fits: () => true,
  idOf: (r: { id: string }) => r.id,
};
const intent = (i: number) => ({
  apiUrl: "http://api",
  projectId: "p",
  kind: "Service",
  noun: "service",
  owner: `bench/stack/Service/db-${i}`,
  identity: { name: `db-${i}` },
  name: `db-${i}`,
  autonamed: false,
});

/** Runs `body` with the journal in `dir`. */
async function inJournal<T>(dir: string, body: () => Promise<T>): Promise<T> {
  const saved = process.env.CLOUDDB_JOURNAL_DIR;
  process.env.CLOUDDB_JOURNAL_DIR = dir;
  try {
    return await body();
  } finally {
    if (saved === undefined) delete process.env.CLOUDDB_JOURNAL_DIR;
    else process.env.CLOUDDB_JOURNAL_DIR = saved;
  }
}

/** ms of one create's bookkeeping, one create after the other. */
async function perCreateMs(journal: JournalModule, dir: string): Promise<number> {
  return inJournal(dir, async () => {
    const started = process.hrtime.bigint();
    for (let i = 0; i < ROUNDS; i++) (await journal.createOnce(intent(i), recovery, async () => ({ id: `id-${i}` }))).settled();
    return Number(process.hrtime.bigint() - started) / 1e6 / ROUNDS;
  });
}

/** Counts the calls of every synchronous function of the `fs` module while `body` runs (but reads of /proc, which touch no disk). */
async function countingSyncCalls<T>(body: () => Promise<T>): Promise<{ result: T; calls: number }> {
  // The module itself (what `import * as fs` reads through), not this file's view of it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const module = require("fs") as Record<string, unknown>;
  const saved = new Map<string, unknown>();
  let calls = 0;
  for (const [name, value] of Object.entries(module)) {
    if (!name.endsWith("Sync") || typeof value !== "function") continue;
    saved.set(name, value);
    module[name] = (...args: unknown[]) => {
      if (!(typeof args[0] === "string" && args[0].startsWith("/proc/"))) calls++;
      return (value as (...a: unknown[]) => unknown)(...args);
    };
  }
  try {
    return { result: await body(), calls };
  } finally {
    for (const [name, value] of saved) module[name] = value;
  }
}

/** Each of {@link AT_ONCE} creates at once (the API answers each in 20 ms): its event loop time in the journal and the priors, ms, and its synchronous file system calls. */
async function loopPerCreate(journal: JournalModule, priors: PriorsModule): Promise<{ ms: number; syncCalls: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-journal-"));
  try {
    return await inJournal(dir, async () => {
      const { result: ms, calls } = await countingSyncCalls(() => loopMs(journal, priors));
      return { ms, syncCalls: calls / AT_ONCE };
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function loopMs(journal: JournalModule, priors: PriorsModule): Promise<number> {
  const before = performance.eventLoopUtilization();
  await Promise.all(
    Array.from({ length: AT_ONCE }, async (_, i) => {
      const created = await journal.createOnce(intent(i), recovery, async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return { id: `id-${i}` };
      });
      created.settled();
      // As the provider does after each create: the client's measurements, one more each time.
      priors.savePriors("http://api", { "service:QUEUED->READY": [10_000 + i] });
    }),
  );
  // Writes still under way after the last create returned are file work too.
  await new Promise((resolve) => setTimeout(resolve, 200));
  return performance.eventLoopUtilization(before).active / AT_ONCE;
}

/** Adds the journal's rows. */
export async function journal(report: Report, current: Tree, before: Tree | undefined): Promise<void> {
  const load = (t: Tree) => ({
    journal: t.load<JournalModule>("provider/framework/journal")!,
    priors: t.load<PriorsModule>("provider/framework/transitionPriors")!,
  });
  const now = load(current);
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), "bench-journal-"));
  const full = fs.mkdtempSync(path.join(os.tmpdir(), "bench-journal-"));
  try {
    for (let i = 0; i < OTHERS; i++)
      fs.writeFileSync(path.join(full, `other-${i}.json`), JSON.stringify({ pid: 1, engine: [], startedAt: Date.now() }));
    await perCreateMs(now.journal, empty); // warm-up
    const a = await perCreateMs(now.journal, empty);
    const b = await perCreateMs(now.journal, full);
    report.raw.journal = { emptyMs: a, fullMs: b, others: OTHERS };
    report.row(
      "4 file work: the journal",
      `one create's bookkeeping, ${count(OTHERS)} other entries / none`,
      `${b.toFixed(3)} ms / ${a.toFixed(3)} ms = ${(b / a).toFixed(2)}`,
      {
        target: "<= 2 (constant time)",
        pass: b / a <= 2,
      },
    );
  } finally {
    fs.rmSync(empty, { recursive: true, force: true });
    fs.rmSync(full, { recursive: true, force: true });
  }
  const old = before ? load(before) : undefined;
  await loopPerCreate(now.journal, now.priors); // warm-up
  const mine = await loopPerCreate(now.journal, now.priors);
  const theirs = old ? await loopPerCreate(old.journal, old.priors) : undefined;
  report.raw.journalLoop = { mine, before: theirs, atOnce: AT_ONCE };
  const S = `4 file work: the journal and priors, ${AT_ONCE} creates at once`;
  report.row(S, "synchronous file system calls per create on the event loop (journal and priors; /proc aside)", mine.syncCalls.toFixed(2), {
    ...(theirs ? { before: theirs.syncCalls.toFixed(2) } : {}),
    target: "<= 1 (the entry's removal, before the engine hears of the create)",
    pass: mine.syncCalls <= 1.05,
  });
  report.row(S, "event loop busy time per create", `${mine.ms.toFixed(3)} ms`, {
    ...(theirs ? { before: `${theirs.ms.toFixed(3)} ms`, target: "<= before", pass: mine.ms <= theirs.ms } : {}),
  });
}
