/**
 * A fleet's first second against the emulator over HTTP: the clients of one key on this
 * machine (one pacing directory, as the providers of a fleet of stacks share) that list their
 * project at once before their first write (a create's look-alikes) read it once for them all
 * (provider/client/machineReads.ts); a client that has written reads it itself.
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
