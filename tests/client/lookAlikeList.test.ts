/**
 * The look-alikes a create's journal entry records (framework/lookAlikeList.ts), against the
 * emulator over HTTP, with the journal and the pacing directory of a fleet's machine: a list
 * another process of the machine read within `CLOUDDB_LOOKALIKE_LIST_MS` serves the create (no
 * read of its own), and a service another party made after that list was read, which the list
 * therefore does not show, is never taken over by the recovery of the create's lost answer: the
 * recovery stops and names it.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { Service } from "../../contract";
import { ConfigurationError } from "../../provider/client/errors";
import type { CreateIntent } from "../../provider/framework/createIntent";
import { InputConflictError } from "../../provider/framework/errors";
import { createOnce, listedOf, type Recovery } from "../../provider/framework/journal";
import { journalEntries } from "../../harness/cloud";
import { DEFAULT_LOOKALIKE_LIST_MS, lookAlikeListMaxAgeMs } from "../../provider/framework/lookAlikeList";
import type { ClouddbClient } from "../../provider/client";
import { type Emu, clientOf, control, requestLog, startEmulator } from "./emulatorControl";

const listReads = async (emu: Emu): Promise<number> =>
  (await requestLog(emu)).filter((r) => r.method === "GET" && /\/services$/.test(r.path)).length;

/** How a create of a service named `db` finds what an interrupted one made, through `api`. */
function recoveryOf(api: ClouddbClient): Recovery<Service> {
  return {
    get: async (id) => api.perform("getService", { service: id, fresh: true }).catch(() => undefined),
    list: async (opts) => listedOf(await api.perform("listServices", { sharedMaxAgeMs: opts?.sharedMaxAgeMs })),
    sharedList: "services",
    fits: () => true,
    nameOf: (s) => s.name,
    idOf: (s) => s.service_id,
  };
}

describe("the look-alikes before a create", () => {
  let emu: Emu;
  let dir: string;
  const saved = { ...process.env };

  beforeAll(async () => {
    emu = await startEmulator({ port: 0 });
  });
  beforeEach(async () => {
    await control(emu, "POST", "/reset");
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "look-alikes-"));
    process.env.CLOUDDB_JOURNAL_DIR = path.join(dir, "journal");
  });
  afterEach(() => {
    process.env = { ...saved };
    fs.rmSync(dir, { recursive: true, force: true });
  });
  afterAll(async () => {
    await emu.close();
  });

  const intent = (owner: string): CreateIntent => ({
    apiUrl: emu.baseUrl,
    projectId: emu.projectId,
    kind: "Service",
    noun: "service",
    owner,
    identity: { name: "db" },
    name: "db",
    autonamed: false,
    listLagMs: 1_000,
    requestTimeoutMs: 5_000,
  });

  it("are taken from a list another process of the machine read within the age, and a service made after it is never taken over", async () => {
    const pacingDir = path.join(dir, "pacing");
    const otherProcess = clientOf(emu, { pacingDir });
    const thisProcess = clientOf(emu, { pacingDir });
    const otherParty = clientOf(emu);
    try {
      // Another stack's process of this machine reads the project for its own creates: nothing there yet.
      await otherProcess.perform("listServices", { sharedMaxAgeMs: DEFAULT_LOOKALIKE_LIST_MS });
      // Then another party makes a service this create's could be taken for (the name is the program's).
      const theirs = await otherParty.perform("createService", { body: { name: "db" } });
      await control(emu, "DELETE", "/requests");
      // This stack's create: its look-alikes are the machine's list; its answer is lost (nothing sent, as far as it knows).
      const lost = createOnce(intent("stack-a::db"), recoveryOf(thisProcess), () => Promise.reject(new Error("socket hang up")));
      await expect(lost).rejects.toThrow("socket hang up");
      expect(await listReads(emu)).toBe(0);
      const [entry] = journalEntries(process.env.CLOUDDB_JOURNAL_DIR!);
      expect(JSON.parse(fs.readFileSync(path.join(process.env.CLOUDDB_JOURNAL_DIR!, entry), "utf8"))).toMatchObject({ before: [] });
      // The next create looks for what that one made: the other party's service is new to that list, but not proof.
      let sent = false;
      const again = createOnce(intent("stack-a::db"), recoveryOf(thisProcess), () => {
        sent = true;
        return Promise.reject(new Error("not to be sent"));
      });
      await expect(again).rejects.toThrow(InputConflictError);
      await expect(again).rejects.toThrow(theirs.service_id);
      expect(sent).toBe(false);
      expect((await otherParty.perform("listServices")).items.map((s) => s.service_id)).toEqual([theirs.service_id]);
    } finally {
      await Promise.all([otherProcess.close(), thisProcess.close(), otherParty.close()]);
    }
  });

  it("are not read for a service whose name is its own: that name proves what a lost create made", async () => {
    const thisProcess = clientOf(emu);
    const otherParty = clientOf(emu);
    const own: CreateIntent = { ...intent("stack-c::db"), identity: { name: "db-1a2b3c4" }, name: "db-1a2b3c4", autonamed: true };
    try {
      // Another stack's service, fitting this create in every fixed field but the name.
      const theirs = await otherParty.perform("createService", { body: { name: "db" } });
      await control(emu, "DELETE", "/requests");
      const lost = createOnce(own, recoveryOf(thisProcess), () => Promise.reject(new Error("socket hang up")));
      await expect(lost).rejects.toThrow("socket hang up");
      expect(await listReads(emu)).toBe(0);
      const [entry] = journalEntries(process.env.CLOUDDB_JOURNAL_DIR!);
      expect(JSON.parse(fs.readFileSync(path.join(process.env.CLOUDDB_JOURNAL_DIR!, entry), "utf8"))).not.toHaveProperty("before");
      // What it made (its request was carried out after all) is taken over by its name, never the other stack's.
      const made = await otherParty.perform("createService", { body: { name: "db-1a2b3c4" } });
      let sent = false;
      const again = await createOnce(own, recoveryOf(thisProcess), () => {
        sent = true;
        return Promise.reject(new Error("not to be sent"));
      });
      again.settled();
      expect(sent).toBe(false);
      expect(again).toMatchObject({ takenOver: true, resource: { service_id: made.service_id } });
      expect(again.resource.service_id).not.toBe(theirs.service_id);
    } finally {
      await Promise.all([thisProcess.close(), otherParty.close()]);
    }
  });

  it("are read by the create itself with CLOUDDB_LOOKALIKE_LIST_MS=0, and a bad value is refused naming it", async () => {
    const pacingDir = path.join(dir, "pacing");
    const otherProcess = clientOf(emu, { pacingDir });
    const thisProcess = clientOf(emu, { pacingDir });
    try {
      await otherProcess.perform("listServices", { sharedMaxAgeMs: DEFAULT_LOOKALIKE_LIST_MS });
      await control(emu, "DELETE", "/requests");
      process.env.CLOUDDB_LOOKALIKE_LIST_MS = "0";
      const made = await createOnce(intent("stack-b::db"), recoveryOf(thisProcess), () =>
        thisProcess.perform("createService", { body: { name: "db" } }),
      );
      made.settled();
      expect(await listReads(emu)).toBe(1);
      expect(() => lookAlikeListMaxAgeMs({ CLOUDDB_LOOKALIKE_LIST_MS: "a minute" })).toThrow(ConfigurationError);
      expect(() => lookAlikeListMaxAgeMs({ CLOUDDB_LOOKALIKE_LIST_MS: "-1" })).toThrow(/CLOUDDB_LOOKALIKE_LIST_MS.*"-1".*0 or more/);
      expect(lookAlikeListMaxAgeMs({})).toBe(DEFAULT_LOOKALIKE_LIST_MS);
    } finally {
      await Promise.all([otherProcess.close(), thisProcess.close()]);
    }
  });
});
