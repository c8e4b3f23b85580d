/** The waiters against the emulator with a small clock scale, failure states and timeouts included. */
import { CancelledError, ClouddbClient, ResourceFailedError, TimeoutError, WaitCancelledError, type Service } from "../../provider/client";
import { pollIntervalMs } from "../../provider/client/waiters";
import { until } from "../../harness/until";
import { type Emu, control, expectNoSecrets, fault, requestLog, startEmulator, clientOf } from "./emulatorControl";

const WAIT = { timeoutMs: 15_000 };

describe("poll schedule (as the former pollIntervalMs export gives it)", () => {
  it("starts at initialMs, doubles to a steady 1.2 s, grows to 4% of the elapsed time, and is capped at maxMs", () => {
    expect(pollIntervalMs(0, 250, 10_000)).toBe(250);
    expect(pollIntervalMs(500, 250, 10_000)).toBe(500);
    expect(pollIntervalMs(6_000, 250, 10_000)).toBe(1_200);
    expect(pollIntervalMs(60_000, 250, 10_000)).toBe(2_400);
    expect(pollIntervalMs(600_000, 250, 10_000)).toBe(10_000);
  });
});

describe("waiters against the emulator", () => {
  let emu: Emu;
  let c: ClouddbClient;
  let ready: Service;

  beforeAll(async () => {
    emu = await startEmulator({ port: 0, clockScale: 0.02 });
    c = clientOf(emu, { retryDeadlineMs: 300, poll: { initialMs: 10, maxMs: 40 } });
    const s = await c.perform("createService", { body: { name: "w" } });
    ready = await c.waitForService(s.service_id, { until: ["READY"], ...WAIT });
  });
  afterAll(async () => {
    await c.close();
    await emu.close();
  });

  it("waits for a created service to be READY, polling a few times", async () => {
    // An emulator whose clock moves only when told: the service stays PROVISIONING while the
    // wait polls, however busy the machine, then becomes READY at once.
    const own = await startEmulator({ port: 0, frozenClock: true });
    const mine = clientOf(own, { poll: { initialMs: 10, maxMs: 40 } });
    try {
      const s = await mine.perform("createService", { body: { name: "w2" } });
      const done = mine.waitForService(s.service_id, { until: ["READY"], ...WAIT });
      const polls = () => requestLog(own).then((log) => log.filter((r) => r.method === "GET"));
      const before = await until("four polls of the wait", async () => ((await polls()).length >= 4 ? polls() : undefined));
      await control(own, "POST", "/clock", { advanceMs: 60_000 });
      expect((await done).status).toBe("READY");
      // Polled every 10 to 40 ms (initialMs, maxMs) while not ready, not at the default schedule's
      // 250 ms doubling to 1.2 s: judged by the median gap, which a busy machine's stalls move
      // little (50 to 150 ms seen on a loaded one); once READY, no more than the poll in flight.
      const gaps = before.slice(1).map((g, i) => Date.parse(g.at) - Date.parse(before[i].at));
      expect(gaps.sort((a, b) => a - b)[Math.floor(gaps.length / 2)]).toBeLessThan(400);
      expect((await polls()).length - before.length).toBeLessThanOrEqual(2);
    } finally {
      await mine.close();
      await own.close();
    }
  });

  it("fails at once on UNSTABLE with the last service seen", async () => {
    const s = await c.perform("createService", { body: { name: "shaky" } });
    await control(emu, "POST", `/services/${s.service_id}/unstable`);
    const err = await c.waitForService(s.service_id, { until: ["READY"], ...WAIT }).catch((e: unknown) => e);
    expect(ResourceFailedError.isInstance(err)).toBe(true);
    const e = err as ResourceFailedError;
    expect(e.state).toBe("UNSTABLE");
    expect((e.lastSeen as Service).status).toBe("UNSTABLE");
    expect(e.message).toContain(s.service_id);
    expectNoSecrets(e, [emu.pat, s.initial_password!]);
  });

  it("fails with NOT_FOUND when the service must exist and does not", async () => {
    const err = await c.waitForService("zzzzzzzzzz", { until: ["READY"], ...WAIT }).catch((e: unknown) => e);
    expect(ResourceFailedError.isInstance(err)).toBe(true);
    expect((err as ResourceFailedError).state).toBe("NOT_FOUND");
  });

  it("times out naming the resource, the awaited states, the last status and the timeout", async () => {
    const err = await c.waitForService(ready.service_id, { until: ["PAUSED"], timeoutMs: 300 }).catch((e: unknown) => e);
    expect(TimeoutError.isInstance(err)).toBe(true);
    const e = err as TimeoutError;
    expect(e.lastStatus).toBe("READY");
    expect(e.timeoutMs).toBe(300);
    expect(e.message).toContain(`service ${ready.service_id}`);
    expect(e.message).toContain("PAUSED");
    expect(e.message).toContain("300 ms");
  });

  it("keeps polling through 503s that exhaust the retry deadline, until the state is reached", async () => {
    const s = await c.perform("createService", { body: { name: "flaky" } });
    await fault(emu, { method: "GET", path: "/services(/[a-z0-9]+)?$", status: 503, count: 12 });
    const done = await c.waitForService(s.service_id, { until: ["READY"], ...WAIT });
    expect(done.status).toBe("READY");
    await control(emu, "DELETE", "/faults");
  });

  it("waits for deletion of a service", async () => {
    const s = await c.perform("createService", { body: { name: "gone" } });
    await c.perform("deleteService", { service: s.service_id });
    await expect(c.waitForServiceDeleted(s.service_id, WAIT)).resolves.toBeUndefined();
  });

  it("waits for a replica set, fails on error, and waits for its deletion", async () => {
    const rs = await c.perform("createReplicaSet", {
      service: ready.service_id,
      body: { name: "r", nodes: 1, cpu_millis: 500, memory_gbs: 2 },
    });
    expect((await c.waitForReplicaSet(ready.service_id, rs.id, WAIT)).status).toBe("active");
    await control(emu, "POST", `/replica-sets/${rs.id}/error`);
    const err = await c.waitForReplicaSet(ready.service_id, rs.id, WAIT).catch((e: unknown) => e);
    expect(ResourceFailedError.isInstance(err)).toBe(true);
    expect((err as ResourceFailedError).state).toBe("error");
    await c.perform("deleteReplicaSet", { service: ready.service_id, replicaSet: rs.id });
    await c.waitForReplicaSetDeleted(ready.service_id, rs.id, WAIT);
    const missing = await c.waitForReplicaSet(ready.service_id, rs.id, WAIT).catch((e: unknown) => e);
    expect((missing as ResourceFailedError).state).toBe("NOT_FOUND");
  });

  it("fails a peering to an unreachable peer, quoting error_message", async () => {
    const vpc = await c.perform("createVpc", { body: { name: "pv", cidr: "10.4.0.0/16", region_code: "us-east-1" } });
    const bad = await c.perform("createPeering", {
      vpc: vpc.id,
      body: { peer_account_id: "invalid-acct", peer_region_code: "us-east-1", peer_vpc_id: "x" },
    });
    const err = await c.waitForPeering(vpc.id, bad.id, WAIT).catch((e: unknown) => e);
    expect(ResourceFailedError.isInstance(err)).toBe(true);
    const e = err as ResourceFailedError;
    expect(e.state).toBe("failed");
    const seen = e.lastSeen as { error_message?: string };
    expect(typeof seen.error_message).toBe("string");
    expect(e.message).toContain(`"${seen.error_message!}"`);

    const good = await c.perform("createPeering", {
      vpc: vpc.id,
      body: { peer_account_id: "acct", peer_region_code: "us-east-1", peer_vpc_id: "y" },
    });
    await control(emu, "POST", `/peerings/${good.id}/fail`, { errorMessage: "peer rejected the request" });
    const injected = await c.waitForPeering(vpc.id, good.id, WAIT).catch((x: unknown) => x);
    expect((injected as Error).message).toContain('"peer rejected the request"');
  });

  it("times out a peering wait when the awaited state never comes", async () => {
    const vpc = await c.perform("createVpc", { body: { name: "pv2", cidr: "10.5.0.0/16", region_code: "us-east-1" } });
    const p = await c.perform("createPeering", {
      vpc: vpc.id,
      body: { peer_account_id: "acct", peer_region_code: "us-east-1", peer_vpc_id: "z" },
    });
    const err = await c.waitForPeering(vpc.id, p.id, { until: ["deleted-never"], timeoutMs: 200 }).catch((e: unknown) => e);
    expect(TimeoutError.isInstance(err)).toBe(true);
    expect((err as TimeoutError).awaited).toEqual(["deleted-never"]);
  });

  it("ends a wait under way when its client closes, and polls no more", async () => {
    // An emulator of its own, so that its log shows this client's requests alone.
    const own = await startEmulator({ port: 0, clockScale: 0.02 });
    const other = clientOf(own, { poll: { initialMs: 10, maxMs: 40 } });
    const mine = await other.perform("createService", { body: { name: "closing" } });
    await other.waitForService(mine.service_id, { until: ["READY"], ...WAIT });
    const started = Date.now();
    const waiting = other.waitForService(mine.service_id, { until: ["PAUSED"], timeoutMs: 60_000 }).catch((e: unknown) => e);
    // Two polls of the wait: the first one's answer was read before the second was sent.
    await until("two polls of the wait", async () => {
      const polls = (await requestLog(own)).filter((r) => r.method === "GET" && Date.parse(r.at) >= started);
      return polls.length >= 2 ? polls : undefined;
    });
    await other.close();
    const err = await waiting;
    expect(WaitCancelledError.isInstance(err, "service")).toBe(true);
    expect((err as WaitCancelledError<"service">).lastSeen?.status).toBe("READY");
    expect((err as Error).message).toContain(`service ${mine.service_id}`);
    const since = Date.now();
    await new Promise((r) => setTimeout(r, 200)); // several poll intervals
    const later = (await requestLog(own)).filter((r) => Date.parse(r.at) > since);
    expect(later.map((r) => `${r.method} ${r.path}`)).toEqual([]);
    // Later calls fail at once.
    const again = await other.waitForService(mine.service_id, { until: ["READY"], ...WAIT }).catch((e: unknown) => e);
    expect(WaitCancelledError.isInstance(again)).toBe(true);
    expect(CancelledError.isInstance(await other.perform("getService", { service: mine.service_id }).catch((e: unknown) => e))).toBe(true);
    await own.close();
  });
});
