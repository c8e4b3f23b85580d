/**
 * What a provider process keeps of the operations it finished (issue 44: the plugin's memory
 * at most 10 MB more at 1,000 services than at 100). Measured as the process's live heap
 * after a full garbage collection, before and after K operations, so that whatever keeps
 * something per operation shows, whichever map it is in.
 */
import { randomBytes } from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as v8 from "v8";
import * as vm from "vm";
import { createOnce, type Recovery } from "../../provider/framework/journal";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

/** The live heap after two full collections, bytes. */
function liveHeap(): number {
  gc();
  gc();
  return v8.getHeapStatistics().used_heap_size;
}

let dir: string;
const journalDir = process.env.CLOUDDB_JOURNAL_DIR;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "plugin-memory-"));
  process.env.CLOUDDB_JOURNAL_DIR = dir;
});
afterEach(() => {
  if (journalDir === undefined) delete process.env.CLOUDDB_JOURNAL_DIR;
  else process.env.CLOUDDB_JOURNAL_DIR = journalDir;
  fs.rmSync(dir, { recursive: true, force: true });
});

type Made = { id: string; name: string };

/** The intent of a create of the service `resource` (its URN's name) named `name`, on one API and project. */
function serviceIntent(resource: string, name: string) {
  return {
    apiUrl: "https://api.example.com/public/api/v1",
    projectId: "p1",
    kind: "Service",
    noun: "service",
    owner: `urn:pulumi:test::memory::clouddb:index:Service::${resource}`,
    identity: { name },
    name,
    autonamed: false,
    listLagMs: 0,
    requestTimeoutMs: 1_000,
  };
}

/** The live heap each of `k` calls of `create` (its indexes 0 to k - 1) left, bytes; `create(-1)` first, for the modules' own first-use allocations. */
async function heapPerCreate(k: number, create: (i: number) => Promise<void>): Promise<number> {
  await create(-1);
  const before = liveHeap();
  for (let i = 0; i < k; i++) await create(i);
  return (liveHeap() - before) / k;
}

describe("the creates a process handed to the engine", () => {
  it("are kept without the look-alikes listed before each: K creates in a project of M services keep O(K), not O(K × M)", async () => {
    // A project of M services of another name: each create's journal entry lists them as there before it.
    const M = 2_000;
    const K = 300;
    const project: Made[] = Array.from({ length: M }, (_, i) => ({ id: `svc-${String(i).padStart(6, "0")}`, name: `other-${i}` }));
    const create = async (i: number): Promise<void> => {
      const made = { id: `new-${i}`, name: `db-${i}` };
      const recovery: Recovery<Made> = {
        get: (id) => Promise.resolve(id === made.id ? made : project.find((s) => s.id === id)),
        list: () => Promise.resolve({ items: project, sentAt: Date.now() }),
        fits: () => true,
        nameOf: (s) => s.name,
        idOf: (s) => s.id,
      };
      const intent = serviceIntent(`db-${i}`, made.name);
      const created = await createOnce(intent, recovery, () => Promise.resolve(made));
      expect(created.resource).toBe(made);
      // Returned to the engine: the process keeps what tells the same create sent again.
      created.settled();
    };
    const perCreate = await heapPerCreate(K, create);
    // Each entry's look-alikes alone are M pointers (16 KB): kept, they would be more than 16 KB per create.
    expect(perCreate).toBeLessThan(4_000);
    // The journal's files went as each create returned.
    expect(fs.readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith(".json"))).toEqual([]);
  });

  it("are kept by id and what only the answer carried, not the answer: K creates of 20 KB answers keep far less than 20 KB each", async () => {
    type Answer = Made & { detail: string; initial_password?: string };
    const K = 200;
    const create = async (i: number): Promise<void> => {
      // An answer of 20 KB (a long field), its own bytes, with a first-only field of 24 characters.
      const made: Answer = {
        id: `big-${i}`,
        name: `db-${i}`,
        detail: randomBytes(10_000).toString("hex"),
        initial_password: `pw-${i}`.padEnd(24, "x"),
      };
      const recovery: Recovery<Answer> = {
        get: (id) => Promise.resolve(id === made.id ? { id: made.id, name: made.name, detail: made.detail } : undefined),
        list: () => Promise.resolve({ items: [], sentAt: Date.now() }),
        fits: () => true,
        nameOf: (s) => s.name,
        idOf: (s) => s.id,
        firstOnly: (s) => ({ initial_password: s.initial_password }),
      };
      const intent = serviceIntent(`big-${i}`, made.name);
      const created = await createOnce(intent, recovery, () => Promise.resolve(made));
      created.settled();
      // Sent again (an onError hook's retry): resumed from a read, with the first answer's password.
      const again = await createOnce(intent, recovery, () => Promise.reject(new Error("sent twice")));
      expect(again).toMatchObject({ takenOver: true, resource: { id: made.id, initial_password: made.initial_password } });
    };
    expect(await heapPerCreate(K, create)).toBeLessThan(4_000);
  });
});
