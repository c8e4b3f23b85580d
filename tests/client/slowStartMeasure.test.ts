/**
 * The slow start's first congestion measures the key's limit (limitMeasure.ts), against the
 * emulator over HTTP with its key limited to 10 requests a second: a client's first request,
 * opening its connection, reaches the API well after it left (here a proxy holds that
 * connection 900 ms), and it is still in the API's second when the first request is refused
 * more than a second after it left. Counted by when it left alone, the limit measured 9.
 */
import * as net from "net";
import type { AddressInfo } from "net";
import { setTimeout as sleep } from "timers/promises";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { EmulatorControl } from "../../emulator/control-client";
import { resolveConfig } from "../../provider/client/config";
import { Pacer } from "../../provider/client/shaping/pacer";
import { ServerClock } from "../../provider/client/serverClock";
import { SharedSchedule } from "../../provider/client/shaping/sharedSchedule";
import { HttpTransport } from "../../provider/client/transport";
import { pacingDirPerTest } from "./pacingDir";

/** A TCP proxy to `port` that holds its first connection `holdMs` before it reaches the API. */
async function holdingFirstConnection(port: number, holdMs: number): Promise<{ port: number; close(): Promise<void> }> {
  let first = true;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const hold = first ? holdMs : 0;
    first = false;
    client.pause();
    sockets.add(client);
    setTimeout(() => {
      const upstream = net.connect(port, "127.0.0.1", () => {
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
      sockets.add(upstream);
      upstream.on("error", () => client.destroy());
      client.on("error", () => upstream.destroy());
    }, hold);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe("the slow start's measure of the key's limit, over HTTP", () => {
  const pacingDir = pacingDirPerTest();
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0 });
    await new EmulatorControl(emu.url, emu.pat).rateLimit(10, { retryAfter: true });
  });
  afterAll(async () => {
    await emu.close();
  });

  it("counts a first request that left over a second before the first refused one but reached the API within that second", async () => {
    const api = new URL(emu.baseUrl);
    const proxy = await holdingFirstConnection(Number(api.port), 900);
    const apiUrl = `http://127.0.0.1:${proxy.port}${api.pathname}`;
    const config = resolveConfig({ apiUrl, apiKey: emu.pat, projectId: emu.projectId }, {});
    const shared = new SharedSchedule(pacingDir(), apiUrl, emu.pat);
    const transport = new HttpTransport(config, new ServerClock(), new Pacer(Date.now, shared));
    let n = 0;
    // Each a read of its own (the transport shares a read in flight of the same path).
    const read = (): Promise<unknown> =>
      transport.send({ operation: "getService", method: "GET", path: `/projects/${emu.projectId}/services/svc-${++n}` }).then(
        () => 200,
        (e: unknown) => e,
      );
    try {
      // The API's second starts afresh.
      await sleep(1_100);
      const t0 = Date.now();
      // Held 900 ms on its way: it reaches the API at about t0 + 900, the middle of its round trip t0 + 450.
      await read();
      // Nine more, accepted; then one 1,250 ms after the first left (or once the nine are done, if
      // later): refused, for the first is still in the API's second, though it left over 1.1 s before.
      await sleep(950 - (Date.now() - t0));
      await Promise.all(Array.from({ length: 9 }, () => read()));
      await sleep(1_250 - (Date.now() - t0));
      await read();
      // Once the congestion's measure is taken again (half a second on), a claim reads it.
      await sleep(1_600);
      await read();
      const s = await new SharedSchedule(pacingDir(), apiUrl, emu.pat).read();
      expect(s?.refusals.length).toBeGreaterThanOrEqual(1);
      expect(s?.refusals[0]).toBeGreaterThan(t0 + 1_100);
      expect(s?.limit).toBe(10);
    } finally {
      await transport.close();
      await proxy.close();
    }
  }, 30_000);
});
