/**
 * The create journal finds a create's entry in constant time: one create's bookkeeping
 * (look for an interrupted create of the same intent, write the entry, drop it) with an
 * empty journal and with thousands of other creates' entries in it.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { createOnce, type Recovery } from "../provider/framework/journal";
import { Report } from "./report";

const OTHERS = 5_000;
const ROUNDS = 200;

async function perCreateMs(dir: string): Promise<number> {
  process.env.CLOUDDB_JOURNAL_DIR = dir;
  const recovery: Recovery<{ id: string }> = {
    get: async () => undefined,
    list: async () => [],
    fits: () => true,
    idOf: (r) => r.id,
    createdAt: () => 0,
  };
  const started = process.hrtime.bigint();
  for (let i = 0; i < ROUNDS; i++) {
    const intent = {
      apiUrl: "http://api",
      projectId: "p",
      kind: "Service",
      noun: "service",
      owner: "bench/stack/Service/db",
      identity: { name: `db-${i}` },
      name: `db-${i}`,
      autonamed: false,
    };
    const created = await createOnce(intent, recovery, async () => ({ id: `id-${i}` }));
    created.settled();
  }
  return Number(process.hrtime.bigint() - started) / 1e6 / ROUNDS;
}

/** Adds the journal's row. */
export async function journal(report: Report): Promise<void> {
  const saved = process.env.CLOUDDB_JOURNAL_DIR;
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), "bench-journal-"));
  const full = fs.mkdtempSync(path.join(os.tmpdir(), "bench-journal-"));
  try {
    for (let i = 0; i < OTHERS; i++)
      fs.writeFileSync(path.join(full, `other-${i}.json`), JSON.stringify({ pid: 1, engine: [], startedAt: Date.now() }));
    await perCreateMs(empty); // warm-up
    const a = await perCreateMs(empty);
    const b = await perCreateMs(full);
    report.raw.journal = { emptyMs: a, fullMs: b, others: OTHERS };
    report.row(
      "5 journal",
      `one create's bookkeeping, ${OTHERS} other entries / none`,
      `${b.toFixed(3)} ms / ${a.toFixed(3)} ms = ${(b / a).toFixed(2)}`,
      "<= 2 (constant time)",
      b / a <= 2,
    );
  } finally {
    if (saved === undefined) delete process.env.CLOUDDB_JOURNAL_DIR;
    else process.env.CLOUDDB_JOURNAL_DIR = saved;
    fs.rmSync(empty, { recursive: true, force: true });
    fs.rmSync(full, { recursive: true, force: true });
  }
}
