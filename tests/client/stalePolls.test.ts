/**
 * A poll that went stale behind its client's writes (pacer.ts `pollStaleMs`) is let go unsent,
 * against the emulator over HTTP with its key limited to 2 requests a second: the error it
 * ends with says it was not sent, why, and that its wait polls again, never that the API
 * refused it or asked it to wait.
 */
import { startEmulator, type RunningEmulator } from "../../emulator";
import { EmulatorControl } from "../../emulator/control-client";
import { RateLimitError } from "../../provider/client";
import { resolveConfig } from "../../provider/client/config";
import { Pacer, PACER } from "../../provider/client/shaping/pacer";
import { ServerClock } from "../../provider/client/serverClock";
import { HttpTransport, type HttpRequest } from "../../provider/client/transport";

describe("a poll queued behind its client's writes on a limited key", () => {
  let emu: RunningEmulator;
  let transport: HttpTransport;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, clockScale: 0.02 });
    await new EmulatorControl(emu.url, emu.pat).rateLimit(2, { retryAfter: true });
    const config = resolveConfig({ apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId }, {});
    transport = new HttpTransport(config, new ServerClock(), new Pacer());
  });
  afterAll(async () => {
    await transport?.close();
    await emu.close();
  });

  const create = (i: number): HttpRequest => ({
    operation: "createService",
    method: "POST",
    path: `/projects/${emu.projectId}/services`,
    body: { name: `stale-${i}` },
  });
  const settled = (p: Promise<unknown>): Promise<unknown> =>
    p.then(
      (v) => v,
      (e: unknown) => e,
    );

  it("is let go unsent once writes went ahead of it for a second, saying so", async () => {
    // The first writes meet the limit: the pacer learns it, and holds the rest.
    await Promise.all(Array.from({ length: 6 }, (_, i) => settled(transport.send(create(i)))));
    const writes = Array.from({ length: 6 }, (_, i) => settled(transport.send(create(10 + i))));
    const queuedAt = Date.now();
    const poll = await settled(
      transport.send({ operation: "getService", method: "GET", path: `/projects/${emu.projectId}/services`, priority: "poll" }),
    );
    await Promise.all(writes);
    expect(RateLimitError.isInstance(poll)).toBe(true);
    const e = poll as RateLimitError;
    expect(e.heldBy).toBe("queue");
    expect(Date.now() - queuedAt).toBeGreaterThanOrEqual(PACER.pollStaleMs);
    expect(e.message).toContain(`Not sent: this poll waited ${PACER.pollStaleMs} ms for its turn behind the client's other requests`);
    expect(e.message).toContain("its wait polls again");
    expect(e.message).not.toMatch(/asked this client to wait|Retry-After/);
    expect(e.retryAfterSeconds).toBeUndefined();
  }, 30_000);
});
