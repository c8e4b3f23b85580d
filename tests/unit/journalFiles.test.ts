/**
 * The journal's and the priors' files, written off the event loop (framework/journalStore.ts
 * `EntryFile`, framework/transitionPriors.ts): writes land whole and in order; removing an
 * entry is final, whatever write is under way; the priors are written again only when the
 * client measured something new (a refresh of 1,000 resources offered them 1,000 times, and
 * each offer rewrote the file on the event loop).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { EntryFile, type JournalEntry, readEntry } from "../../provider/framework/journalStore";
import { loadPriors, savePriors } from "../../provider/framework/transitionPriors";

const entry = (startedAt: number): JournalEntry => ({ v: 2, pid: process.pid, engine: [], startedAt, identity: { name: "db" } });
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "journal-files-"));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("an entry's file", () => {
  it("holds the last of several writes asked for at once, whole", async () => {
    const file = new EntryFile(path.join(dir, "e.json"));
    await Promise.all([file.write(entry(1)), file.write(entry(2)), file.write(entry(3))]);
    expect(readEntry(file.path)).toMatchObject({ kind: "entry", entry: { startedAt: 3 } });
    expect(fs.readdirSync(dir)).toEqual(["e.json"]);
  });

  it("is gone for good once removed, whatever write was under way or asked for after", async () => {
    for (let k = 0; k < 12; k++) {
      const file = new EntryFile(path.join(dir, `e${k}.json`));
      await file.write(entry(1));
      const writing = file.write(entry(2));
      await turns(k);
      file.remove();
      const later = file.write(entry(3));
      await Promise.all([writing, later]);
      await turns(3);
      expect(fs.readdirSync(dir)).toEqual([]);
    }
  });
});

describe("the learned transition durations", () => {
  const url = "http://api.example/public/api/v1";
  let saved: string | undefined;
  beforeEach(() => {
    saved = process.env.CLOUDDB_JOURNAL_DIR;
    process.env.CLOUDDB_JOURNAL_DIR = dir;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.CLOUDDB_JOURNAL_DIR;
    else process.env.CLOUDDB_JOURNAL_DIR = saved;
  });

  const priorsFiles = () => fs.readdirSync(dir).filter((f) => f.startsWith("durations-"));

  /** Waits until the priors file holds `key`. */
  async function written(key: string): Promise<void> {
    for (let i = 0; i < 500 && !(key in loadPriors(url)); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(Object.keys(loadPriors(url))).toContain(key);
  }

  it("are written again only when something new was measured", async () => {
    void savePriors(url, { "service:QUEUED->READY": [1_000] });
    await written("service:QUEUED->READY");
    // Gone from disk: offering the same measurements again writes nothing...
    for (const f of priorsFiles()) fs.rmSync(path.join(dir, f));
    for (let i = 0; i < 50; i++) void savePriors(url, { "service:QUEUED->READY": [1_000] });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(priorsFiles()).toEqual([]);
    // ...and a new measurement writes them all.
    void savePriors(url, { "service:QUEUED->READY": [1_000], "replica set:creating->active": [2_000] });
    await written("replica set:creating->active");
    expect(loadPriors(url)).toEqual({ "service:QUEUED->READY": [1_000], "replica set:creating->active": [2_000] });
  });

  it("are on disk once the save resolves (the engine may end the plugin right after the operation)", async () => {
    await Promise.all([savePriors(url, { "service:QUEUED->READY": [1_500] }), savePriors(url, { "service:QUEUED->READY": [1_500, 900] })]);
    expect(loadPriors(url)).toEqual({ "service:QUEUED->READY": [1_500, 900] });
  });
});
