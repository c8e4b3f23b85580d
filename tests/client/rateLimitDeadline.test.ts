/**
 * A 429 is waited out as long as the operation under way may wait (its deadline, the
 * providers' `timeouts`), not only the client's retry deadline: against the emulator over
 * HTTP, its key limited to 2 requests a second and held by another user of the key
 * (harness/keyHolder.ts).
 */
import { startEmulator, type RunningEmulator } from "../../emulator";
import { EmulatorControl } from "../../emulator/control-client";
import { holdKey } from "../../harness/keyHolder";
import { ClouddbClient, RateLimitError } from "../../provider/client";
import { withinDeadline } from "../../provider/client/deadline";

describe("a rate limit others hold", () => {
  let emu: RunningEmulator;
  let client: ClouddbClient;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, clockScale: 0.02 });
    await new EmulatorControl(emu.url, emu.pat).rateLimit(2, { retryAfter: true });
  });
  beforeEach(() => {
    client = new ClouddbClient({ apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId, retryDeadlineMs: 1_500 });
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
