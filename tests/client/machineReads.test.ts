/**
 * A fleet's first second against the emulator over HTTP: the clients of one key on this
 * machine (one pacing directory, as the providers of a fleet of stacks share) that list their
 * project at once before their first write (a create's look-alikes) read it once for them all
 * (provider/client/machineReads.ts); a client that has written reads it itself, unless it takes
 * an older answer (`sharedMaxAgeMs`: the look-alikes before a create, framework/lookAlikeList.ts).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { type Emu, clientOf, control, requestLog, startEmulator } from "./emulatorControl";

const listReads = async (emu: Emu): Promise<number> =>
  (await requestLog(emu)).filter((r) => r.method === "GET" && /\/services$/.test(r.path)).length;

describe("a project's list asked for at once by the machine's clients of a key", () => {
  let emu: Emu;
  let dir: string;

  beforeAll(async () => {
    emu = await startEmulator({ port: 0 });
  });
  beforeEach(async () => {
    await control(emu, "POST", "/reset");
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "machine-reads-"));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });
  afterAll(async () => {
    await emu.close();
  });

  it("is read once for five clients that have written nothing, and each sees the same services", async () => {
    const seed = clientOf(emu);
    try {
      await seed.perform("createService", { body: { name: "there-before" } });
    } finally {
      await seed.close();
    }
    await control(emu, "DELETE", "/requests");
    const clients = Array.from({ length: 5 }, () => clientOf(emu, { pacingDir: dir }));
    try {
      const lists = await Promise.all(clients.map((c) => c.perform("listServices")));
      expect(await listReads(emu)).toBe(1);
      for (const l of lists) expect(l.items.map((s) => s.name)).toEqual(["there-before"]);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  });

  it("asked for with sharedMaxAgeMs, is read once for clients that ask within that age, even one that has written", async () => {
    const first = clientOf(emu, { pacingDir: dir });
    const later = clientOf(emu, { pacingDir: dir });
    try {
      await later.perform("createService", { body: { name: "made-after" } });
      await control(emu, "DELETE", "/requests");
      const before = await first.perform("listServices", { sharedMaxAgeMs: 60_000 });
      // Another process of the machine, later (a fleet's stacks start over several seconds): it takes the list read for the machine.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const afterwards = await later.perform("listServices", { sharedMaxAgeMs: 60_000 });
      expect(await listReads(emu)).toBe(1);
      expect(afterwards.items.map((s) => s.service_id)).toEqual(before.items.map((s) => s.service_id));
      // Without the age, the same client reads the list itself.
      await later.perform("listServices");
      expect(await listReads(emu)).toBe(2);
    } finally {
      await Promise.all([first.close(), later.close()]);
    }
  });

  it("asked for with sharedMaxAgeMs, is read again once the answer kept for the machine is older than that", async () => {
    const first = clientOf(emu, { pacingDir: dir });
    const later = clientOf(emu, { pacingDir: dir });
    try {
      await first.perform("listServices", { sharedMaxAgeMs: 200 });
      await new Promise((resolve) => setTimeout(resolve, 400));
      await later.perform("listServices", { sharedMaxAgeMs: 200 });
      expect(await listReads(emu)).toBe(2);
    } finally {
      await Promise.all([first.close(), later.close()]);
    }
  });

  it("is read by a client that has written, which sees what it made", async () => {
    const writer = clientOf(emu, { pacingDir: dir });
    const reader = clientOf(emu, { pacingDir: dir });
    try {
      await writer.perform("createService", { body: { name: "mine" } });
      await control(emu, "DELETE", "/requests");
      const [ofWriter, ofReader] = await Promise.all([writer.perform("listServices"), reader.perform("listServices")]);
      expect(ofWriter.items.map((s) => s.name)).toEqual(["mine"]);
      expect(ofReader.items.map((s) => s.name)).toEqual(["mine"]);
      expect(await listReads(emu)).toBe(2);
    } finally {
      await Promise.all([writer.close(), reader.close()]);
    }
  });
});
