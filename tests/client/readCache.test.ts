/**
 * The read cache against the emulator: the reads of one refresh, however long the engine
 * takes to ask for them all, are served by one list answer while each comes within
 * `listCacheMs` of the read before (issue 25: a refresh of 1,000 resources read the list
 * again every two seconds); a pause longer than that reads the list again.
 */
import { type Emu, clientOf, control, requestLog, startEmulator } from "./emulatorControl";

const path = (r: { path: string }): string => r.path.replace(/^.*\/projects\/[^/]+/, "");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the read cache", () => {
  let emu: Emu;
  let ids: string[];

  beforeAll(async () => {
    emu = await startEmulator({ port: 0, clockScale: 0 });
    const c = clientOf(emu);
    try {
      ids = (await Promise.all(Array.from({ length: 8 }, (_, i) => c.perform("createService", { body: { name: `cached-${i}` } })))).map(
        (s) => s.service_id,
      );
    } finally {
      await c.close();
    }
  });
  beforeEach(async () => {
    await control(emu, "DELETE", "/requests");
  });
  afterAll(async () => {
    await emu.close();
  });

  it("serves a burst of reads from one list answer, though the burst lasts longer than listCacheMs", async () => {
    // Reads 250 ms apart, a burst of 2 s: a timer late by most of a second on a loaded machine
    // still keeps each read within listCacheMs of the one before.
    const c = clientOf(emu, { listCacheMs: 1_000 });
    try {
      for (const id of ids) {
        expect((await c.perform("getService", { service: id })).service_id).toBe(id);
        await sleep(250);
      }
      expect((await requestLog(emu)).map((r) => `${r.method} ${path(r)}`)).toEqual(["GET /services"]);
    } finally {
      await c.close();
    }
  });

  it("reads the list again after a pause longer than listCacheMs", async () => {
    const c = clientOf(emu, { listCacheMs: 1_000 });
    try {
      await c.perform("getService", { service: ids[0] });
      await sleep(1_500);
      await c.perform("getService", { service: ids[1] });
      expect((await requestLog(emu)).map((r) => `${r.method} ${path(r)}`)).toEqual(["GET /services", "GET /services"]);
    } finally {
      await c.close();
    }
  });
});
