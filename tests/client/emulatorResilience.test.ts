/**
 * Retries, creates after a 5xx (both ways), and the read cache, checked against the
 * emulator's request log.
 */
import { AmbiguousCreateError, ClouddbClient, NotFoundError } from "../../provider/client";
import { type Emu, control, fault, requestLog, startEmulator, clientOf } from "./emulatorControl";
import { type Proxy, startProxy } from "./fakeApi";

const WAIT = { timeoutMs: 15_000 };

describe("retries and create safety against the emulator", () => {
  let emu: Emu;
  let c: ClouddbClient;

  beforeAll(async () => {
    emu = await startEmulator({ port: 0, clockScale: 0.01 });
    c = clientOf(emu, { retryDeadlineMs: 10_000, poll: { initialMs: 10, maxMs: 50 } });
  });
  afterAll(async () => {
    await c.close();
    await emu.close();
  });
  beforeEach(async () => {
    await control(emu, "POST", "/reset");
  });

  it("retries a 429 no sooner than Retry-After (per the emulator's log)", async () => {
    await fault(emu, { method: "GET", path: "/vpcs$", status: 429, count: 1, retryAfter: 1 });
    await c.perform("listVpcs");
    const log = (await requestLog(emu)).filter((r) => r.path.endsWith("/vpcs"));
    expect(log.map((r) => r.status)).toEqual([429, 200]);
    expect(Date.parse(log[1].at) - Date.parse(log[0].at)).toBeGreaterThanOrEqual(1000);
  });

  it("rides out a 503 storm of three answers", async () => {
    await fault(emu, { method: "GET", path: "/services$", status: 503, count: 3 });
    await expect(c.perform("listServices").then((r) => r.items)).resolves.toEqual([]);
    const log = (await requestLog(emu)).filter((r) => r.path.endsWith("/services"));
    expect(log.map((r) => r.status)).toEqual([503, 503, 503, 200]);
  });

  it("retries an idempotent action and a delete through 503s", async () => {
    const vpc = await c.perform("createVpc", { body: { name: "n", cidr: "10.2.0.0/16", region_code: "us-east-1" } });
    await fault(emu, { method: "POST", path: "/rename$", status: 502, count: 2 });
    await c.perform("renameVpc", { vpc: vpc.id, body: { name: "n2" } });
    await fault(emu, { method: "DELETE", path: `/vpcs/${vpc.id}$`, status: 500, count: 1 });
    await c.perform("deleteVpc", { vpc: vpc.id });
    await expect(c.perform("getVpc", { vpc: vpc.id })).rejects.toBeInstanceOf(NotFoundError);
  });

  it("never sends a create again after a 503, even one that answered before acting: nothing listed proves nothing", async () => {
    await fault(emu, { method: "POST", path: "/services$", status: 503, count: 1 });
    const err = await c.perform("createService", { body: { name: "plain-503" } }).catch((e: unknown) => e);
    expect(AmbiguousCreateError.isInstance(err)).toBe(true);
    expect((err as AmbiguousCreateError).candidateIds).toEqual([]);
    expect((err as Error).message).toContain("the create was not sent again");
    expect((await c.perform("listServices")).items.filter((x) => x.name === "plain-503")).toHaveLength(0);
    const posts = (await requestLog(emu)).filter((r) => r.method === "POST" && r.path.endsWith("/services"));
    expect(posts.map((r) => r.status)).toEqual([503]);
  });

  describe("when the create took effect but the answer was a 503 (proxy)", () => {
    let proxy: Proxy;
    let via: ClouddbClient;
    let failNext: RegExp | undefined;

    beforeAll(async () => {
      proxy = await startProxy(emu.url, (method, path) => {
        if (failNext !== undefined && method === "POST" && failNext.test(path)) {
          failNext = undefined;
          return { status: 503, body: { code: "UNAVAILABLE", message: "lost the answer" } };
        }
        return undefined;
      });
      via = new ClouddbClient({
        apiUrl: proxy.baseUrl,
        apiKey: emu.pat,
        projectId: emu.projectId,
        retryDeadlineMs: 10_000,
        poll: { initialMs: 10, maxMs: 50 },
      });
    });
    afterAll(async () => {
      await via.close();
      await proxy.close();
    });

    async function posts(suffix: RegExp): Promise<number> {
      return (await requestLog(emu)).filter((r) => r.method === "POST" && suffix.test(r.path)).length;
    }

    it("returns the service it made (by its name of its own), without initial_password, and makes no second one", async () => {
      failNext = /\/services$/;
      const s = await via.perform("createService", { body: { name: "ghost-4f3a2b1" }, uniqueName: true });
      expect(s.name).toBe("ghost-4f3a2b1");
      expect(s.initial_password).toBeUndefined();
      expect((await c.perform("listServices")).items.filter((x) => x.name === "ghost-4f3a2b1")).toHaveLength(1);
      expect(await posts(/\/services$/)).toBe(1);
    });

    it("does the same for VPCs, peerings, replica sets and forks", async () => {
      failNext = /\/vpcs$/;
      const vpc = await via.perform("createVpc", {
        body: { name: "ghost-net-9c8d7e6", cidr: "10.3.0.0/16", region_code: "us-east-1" },
        uniqueName: true,
      });
      expect((await c.perform("listVpcs")).items.filter((v) => v.name === "ghost-net-9c8d7e6")).toHaveLength(1);
      expect(await posts(/\/vpcs$/)).toBe(1);

      failNext = /\/peerings$/;
      const p = await via.perform("createPeering", {
        vpc: vpc.id,
        body: { peer_account_id: "acct", peer_region_code: "us-east-1", peer_vpc_id: "pv" },
      });
      expect((await c.perform("listPeerings", { vpc: vpc.id })).items.map((x) => x.id)).toEqual([p.id]);

      const svc = await c.perform("createService", { body: { name: "src" } });
      await c.waitForService(svc.service_id, { until: ["READY"], ...WAIT });
      failNext = /\/replicaSets$/;
      const rs = await via.perform("createReplicaSet", {
        service: svc.service_id,
        body: { name: "r1-1a2b3c4", nodes: 1, cpu_millis: 500, memory_gbs: 2 },
        uniqueName: true,
      });
      expect((await c.perform("listReplicaSets", { service: svc.service_id })).items.map((x) => x.id)).toEqual([rs.id]);

      await c.waitForReplicaSet(svc.service_id, rs.id, WAIT);
      failNext = /\/forkService$/;
      const fork = await via.perform("forkService", {
        service: svc.service_id,
        body: { fork_strategy: "NOW", name: "src-fork-5e6f7a8" },
        uniqueName: true,
      });
      expect(fork.initial_password).toBeUndefined();
      expect((await c.perform("listServices")).items.filter((x) => x.forked_from?.service_id === svc.service_id)).toHaveLength(1);
      expect(await posts(/\/forkService$/)).toBe(1);
    });
  });
});

describe("read cache against the emulator", () => {
  let emu: Emu;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, clockScale: 0 });
  });
  afterAll(async () => {
    await emu.close();
  });

  it("serves N getService calls from one list request, and drops it on a write", async () => {
    const setup = clientOf(emu);
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await setup.perform("createService", { body: { name: `cache-${i}` } })).service_id);
    await setup.close();

    const c = clientOf(emu, { listCacheMs: 60_000 });
    try {
      await control(emu, "DELETE", "/requests");
      const got = await Promise.all([...ids, ...ids].map((id) => c.perform("getService", { service: id })));
      expect(got.map((s) => s.service_id)).toEqual([...ids, ...ids]);
      let log = await requestLog(emu);
      expect(log.map((r) => `${r.method} ${r.path.replace(/.*\/projects\/[^/]+/, "")}`)).toEqual(["GET /services"]);

      await expect(c.perform("getService", { service: "zzzzzzzzzz" })).rejects.toBeInstanceOf(NotFoundError);
      log = await requestLog(emu);
      expect(log.filter((r) => r.path.endsWith("/zzzzzzzzzz"))).toHaveLength(1);

      await c.perform("setServiceEnvironment", { service: ids[0], body: { environment: "PROD" } });
      const after = await c.perform("getService", { service: ids[0] });
      expect(after.metadata?.environment).toBe("PROD");
      log = await requestLog(emu);
      expect(log.filter((r) => r.method === "GET" && r.path.endsWith("/services"))).toHaveLength(2);

      await c.perform("getService", { service: ids[1], fresh: true });
      log = await requestLog(emu);
      expect(log.filter((r) => r.path.endsWith(`/services/${ids[1]}`))).toHaveLength(1);
    } finally {
      await c.close();
    }
  });
});
