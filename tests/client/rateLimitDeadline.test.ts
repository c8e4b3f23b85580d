/**
 * A 429 is waited out as long as the operation under way may wait (its deadline, the
 * providers' `timeouts`), not only the client's retry deadline: against the emulator over
 * HTTP, its key limited to 2 requests a second and held by another user of the key
 * (harness/keyHolder.ts). A request the client's own spacing holds past its deadline says so,
 * not that the API asked it to wait.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { EmulatorControl } from "../../emulator/control-client";
import { holdKey } from "../../harness/keyHolder";
import { type ClouddbClient, RateLimitError } from "../../provider/client";
import { withinDeadline } from "../../provider/client/deadline";
import { clientOf } from "./emulatorControl";

describe("a rate limit others hold", () => {
  let emu: RunningEmulator;
  let client: ClouddbClient;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, clockScale: 0.02 });
    await new EmulatorControl(emu.url, emu.pat).rateLimit(2, { retryAfter: true });
  });
  beforeEach(() => {
    client = clientOf(emu, { retryDeadlineMs: 1_500 });
  });
  afterEach(async () => {
    await client.close();
  });
  afterAll(async () => {
    await emu.close();
  });

  it("is waited out past the client's retry deadline while the operation's deadline allows", async () => {
    const held = holdKey(emu.baseUrl, emu.pat, emu.projectId, 4_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    const made = await withinDeadline(Date.now() + 30_000, () => client.perform("createService", { body: { name: "patient" } }));
    expect(made.service_id).toEqual(expect.any(String));
    expect(Date.now() - started).toBeGreaterThan(2_000); // it did wait, longer than retryDeadlineMs
    expect((await held)[429]).toBeGreaterThan(0);
  }, 20_000);

  it("fails at the deadline with a RateLimitError that says the limit was the cause and what to do", async () => {
    const held = holdKey(emu.baseUrl, emu.pat, emu.projectId, 4_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    const error = await client.perform("createService", { body: { name: "impatient" } }).catch((e: unknown) => e);
    expect(RateLimitError.isInstance(error)).toBe(true);
    expect((error as RateLimitError).code).toBe("RATE_LIMITED");
    expect((error as Error).message).toMatch(/The API limits the requests of this key\..*`retryDeadlineMs`/s);
    expect(Date.now() - started).toBeLessThan(3_500);
    await held;
  }, 20_000);
});

describe("a lone client's own spacing, before any 429", () => {
  let emu: RunningEmulator;
  let client: ClouddbClient;
  let pacingDir: string;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, clockScale: 0.02 });
    // As the providers make it: the machine's schedule of the key, here with this client alone in it.
    pacingDir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-pacing-"));
    client = clientOf(emu, { pacingDir });
  });
  afterAll(async () => {
    await client.close();
    await emu.close();
    fs.rmSync(pacingDir, { recursive: true, force: true });
  });

  it("lets a request go unsent when its turn comes past its deadline, without saying the API asked it to wait", async () => {
    // 60 creates at once: the schedule spaces them at its first rate (no limit known), so the
    // last turns come more than a second away, past their calls' deadline.
    const outcomes = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        withinDeadline(Date.now() + 300, () => client.perform("createService", { body: { name: `spaced-${i}` } })).then(
          () => undefined,
          (e: unknown) => e,
        ),
      ),
    );
    const held = outcomes.filter((e): e is RateLimitError => RateLimitError.isInstance(e));
    expect(held.length).toBeGreaterThan(0);
    for (const e of held) {
      expect(e.heldBy).toBe("schedule");
      expect(e.message).toContain("requests are spaced while the API's limit is not known");
      expect(e.message).not.toContain("asked to wait");
      expect(e.message).not.toContain("the API limits this key");
    }
  }, 20_000);
});
