/**
 * A client's `signal` (the providers give every client the process's one cancellation
 * signal): whenever it aborts, before the client is made or while it works, every wait and
 * pause of the client ends at once, a request not sent is not sent, and a create whose
 * answer was lost stops looking, its outcome unknown (never "made nothing"). Against the
 * emulator over real HTTP.
 */
import { AmbiguousCreateError, CancelledError, ClouddbClient, WaitCancelledError } from "../../provider/client";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { EmulatorControl } from "../../emulator/control-client";

describe("a client's signal", () => {
  let emu: RunningEmulator;
  let control: EmulatorControl;
  const clients: ClouddbClient[] = [];
  const clientOf = (signal: AbortSignal): ClouddbClient => {
    const c = new ClouddbClient({
      apiUrl: emu.baseUrl,
      apiKey: emu.pat,
      projectId: emu.projectId,
      retryDeadlineMs: 60_000,
      poll: { initialMs: 20, maxMs: 50 },
      signal,
    });
    clients.push(c);
    return c;
  };
  const stopped = (why = "the test stopped it"): AbortController => {
    const c = new AbortController();
    c.abort(new CancelledError(why));
    return c;
  };
  /** Resolves once the emulator's log holds a request `matching`. */
  const untilLogged = async (matching: (r: { method: string; path: string; status: number }) => boolean): Promise<void> => {
    while (!(await control.requests()).some(matching)) await new Promise((r) => setTimeout(r, 20));
  };

  beforeAll(async () => {
    emu = await startEmulator({ port: 0, clockScale: 1 });
    control = new EmulatorControl(emu.url, emu.pat);
  });
  beforeEach(async () => {
    await control.send("DELETE", "/faults");
    await control.clearRequests();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await emu.close();
  });

  it("aborted before the client is made: a wait ends at once, naming why, and no request is sent", async () => {
    const c = clientOf(stopped().signal);
    await expect(c.waitForService("aaaaaaaaaa", { until: ["READY"], timeoutMs: 60_000 })).rejects.toThrow(WaitCancelledError);
    await expect(c.waitForService("aaaaaaaaaa", { until: ["READY"], timeoutMs: 60_000 })).rejects.toThrow(/: the test stopped it\./);
    const refused = await c.perform("listVpcs").then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(CancelledError.isInstance(refused)).toBe(true);
    expect((refused as CancelledError).why).toBe("the test stopped it");
    expect(await control.requests()).toEqual([]);
  });

  it("aborted while a wait is under way: it ends at once, the resource as last seen", async () => {
    const signal = new AbortController();
    const c = clientOf(signal.signal);
    const made = await c.perform("createService", { body: { name: "waited-for" } });
    const waiting = c.waitForService(made.service_id, { until: ["READY"], timeoutMs: 600_000 }).catch((e: unknown) => e);
    await untilLogged((r) => r.method === "GET" && r.path.endsWith(made.service_id));
    signal.abort(new CancelledError("Pulumi cancelled the operation (Ctrl-C)"));
    const e = await waiting;
    expect(WaitCancelledError.isInstance(e)).toBe(true);
    expect((e as WaitCancelledError).lastSeen?.service_id).toBe(made.service_id);
    expect((e as Error).message).toMatch(/to reach READY: Pulumi cancelled the operation \(Ctrl-C\)\./);
  });

  it("aborted in a retry's pause (a 503 asking for 30 s): the call ends at once, and nothing more is sent", async () => {
    const signal = new AbortController();
    const c = clientOf(signal.signal);
    await control.fault({ method: "GET", path: "/vpcs$", status: 503, retryAfter: 30, count: 5 });
    const listing = c.perform("listVpcs").catch((e: unknown) => e);
    await untilLogged((r) => r.status === 503);
    const abortedAt = Date.now();
    signal.abort(new CancelledError("the test stopped it"));
    expect(CancelledError.isInstance(await listing)).toBe(true);
    expect(Date.now() - abortedAt).toBeLessThan(10_000); // not the 30 s the 503 asked for
    expect((await control.requests()).filter((r) => r.path.endsWith("/vpcs"))).toHaveLength(1);
  });

  it("aborted while a create whose answer was lost looks again at a lagging list: its outcome stays unknown, nothing sent again", async () => {
    const signal = new AbortController();
    const c = clientOf(signal.signal);
    await c.perform("listServices"); // the list as it is before the create: what the lagging list keeps showing
    await control.fault({ method: "POST", path: "/services$", status: 503, after: true, count: 1 });
    await control.fault({ method: "GET", path: "/services$", lagMs: 600_000, count: 10 });
    await control.clearRequests();
    const creating = c.perform("createService", { body: { name: "lost-answer" }, uniqueName: true }).catch((e: unknown) => e);
    await untilLogged((r) => r.method === "GET" && r.path.endsWith("/services"));
    signal.abort(new CancelledError("the test stopped it"));
    const e = await creating;
    expect(AmbiguousCreateError.isInstance(e)).toBe(true); // never "made nothing": the create was carried out
    expect((await control.requests()).filter((r) => r.method === "POST")).toHaveLength(1);
  });
});
