/**
 * On a told fleet's grid (fleetSlots.ts) a request is a slot of the machine's, one a cycle: a
 * client's waits read the project's list where it serves two of them (readCost.ts `listPays`,
 * price `slot`), where a client paced by its own rules reads a service each once the list is
 * longer than its waits' own reads. Over real HTTP against the emulator, the key limited to 10
 * requests a second, in a project that others' services fill.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator } from "../../emulator";
import { EmulatorControl } from "../../emulator/control-client";
import type { ClouddbClientOptions } from "../../provider/client";
import { clientOf, type Emu } from "./emulatorControl";

/** Services already in the project (other stacks'): a list of them costs more than 4 waits' own reads. */
const OTHERS = 60;
/** Services the client creates at once, each waited for as a provider's create waits. */
const MINE = 4;

describe("waits on a told fleet's grid", () => {
  let emu: Emu;
  let control: EmulatorControl;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, clockScale: 0.5 });
    control = new EmulatorControl(emu.url, emu.pat);
    const filler = clientOf(emu);
    try {
      for (let i = 0; i < OTHERS; i++) await filler.perform("createService", { body: { name: `other-${i}` } });
    } finally {
      await filler.close();
    }
  });
  afterAll(async () => emu.close());

  /** The client's reads (accepted GETs) of single services and of the project's list, while it creates and waits for {@link MINE} services. */
  async function reads(fleet: ClouddbClientOptions["fleet"]): Promise<{ own: number; lists: number }> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fleet-lists-"));
    await control.rateLimit(10, { retryAfter: true });
    await control.clearRequests();
    const client = clientOf(emu, { pacingDir: dir, retryDeadlineMs: 60_000, ...(fleet === undefined ? {} : { fleet }) });
    try {
      await Promise.all(
        Array.from({ length: MINE }, async (_, j) => {
          const made = await client.perform("createService", { body: { name: `mine-${j}` } });
          await client.waitForService(made.service_id, { until: ["READY"], timeoutMs: 60_000 });
        }),
      );
    } finally {
      await client.close();
      await control.rateLimit(0);
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const gets = (await control.requests()).filter((r) => r.method === "GET" && r.status !== 429);
    return {
      own: gets.filter((r) => /\/services\/[^/?]+$/.test(r.path)).length,
      lists: gets.filter((r) => /\/services(\?.*)?$/.test(r.path)).length,
    };
  }

  it("read the project's list for two waits or more, a slot saved a wait; paced by its own rules, the same waits read a service each", async () => {
    const told = await reads({ machines: 4, limitPerSecond: 10 });
    expect(told.lists).toBeGreaterThan(0);
    expect(told.own).toBeLessThanOrEqual(1);
    const untold = await reads(undefined);
    expect(untold.own).toBeGreaterThanOrEqual(MINE);
  }, 120_000);
});
