/**
 * 429 storms and 503 bursts on every class of operation (create, read/refresh, update
 * actions, delete), through the real plugin host: the stack converges, nothing is made
 * twice, and no retry comes sooner than the Retry-After the emulator sent. A 503 on a create
 * may follow one the API carried out: that create is never sent again on a guess.
 */
import * as clouddb from "pulumi-clouddb";
import { expectNoErrors } from "../../harness";
import { journalEntries, startCloud, writes, type Cloud } from "../../harness/cloud";
import { addFault, retriesAfter429 } from "./support/log";

const RETRY_AFTER_S = 1;

const program = (cpuMillis: number, memoryGbs: number) => () => {
  const db = new clouddb.Service("db", { name: "stormy", cpuMillis, memoryGbs });
  new clouddb.ReadReplicaSet("rs", { serviceId: db.serviceId, name: "stormy-rs", nodes: 1, cpuMillis: 500, memoryGbs: 2 });
  return { id: db.serviceId };
};

describe("429 storms and 503 bursts", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.close();
  });

  /**
   * Two 429s then two 503s on requests matching `path` (and `method`); on a create, 429s alone
   * (a 503 may follow a create the API carried out: it is never sent again, see the last test).
   */
  async function storm(path: string, method?: string, create = false): Promise<void> {
    await addFault(cloud.control, { method, path, status: 429, count: create ? 4 : 2, retryAfter: RETRY_AFTER_S });
    if (!create) await addFault(cloud.control, { method, path, status: 503, count: 2 });
  }

  /** The log since the last clear: every fault was used, and no retry came before Retry-After. */
  async function checkLog(): Promise<void> {
    const log = await cloud.requests();
    expect(log.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(2);
    expect(log.filter((r) => r.status === 503).length).toBeGreaterThanOrEqual(2);
    const retries = retriesAfter429(log);
    expect(retries.length).toBeGreaterThanOrEqual(2);
    for (const r of retries) expect(r).toEqual({ request: r.request, gapMs: expect.any(Number) });
    const early = retries.filter((r) => r.gapMs < RETRY_AFTER_S * 1000);
    expect(early).toEqual([]);
  }

  it("create: converges, one service and one replica set made", async () => {
    await cloud.clearRequests();
    await storm("/services$", "POST", true);
    await storm("/replicaSets$", "POST", true);
    // The reads the create's waits make: the service's own GET, or the project's list, which they know is short.
    await storm("/services(/[a-z0-9]+)?$", "GET");
    const r = expectNoErrors(await cloud.stack.up(program(500, 2)));
    expect(r.steps.map((s) => s.op).sort()).toEqual(["create", "create"]);
    await checkLog();
    const posts = (await cloud.requests()).filter((x) => x.method === "POST" && /\/services$/.test(x.path) && x.status === 202);
    expect(posts).toHaveLength(1);
    const services = (await cloud.api.perform("listServices")).items;
    expect(services.map((s) => s.name)).toEqual(["stormy"]);
    expect(services[0].read_replica_sets ?? []).toHaveLength(1);
  });

  it("refresh: reads through the storm, nothing changes", async () => {
    await cloud.clearRequests();
    const ids = cloud.stack.resources().map((x) => x.id);
    await storm("/services", "GET");
    const r = expectNoErrors(await cloud.stack.refresh());
    // The first refresh stores the inputs read back (defaults filled in): an update, not a delete.
    expect(r.steps.map((s) => s.name).sort()).toEqual(["db", "rs"]);
    expect(r.steps.filter((s) => s.op === "refresh-delete")).toEqual([]);
    expect(cloud.stack.resources().map((x) => x.id)).toEqual(ids);
    await checkLog();
    expect(writes(await cloud.requests())).toEqual([]);
  });

  it("update actions: a resize converges", async () => {
    await cloud.clearRequests();
    await storm("/resize$", "POST");
    const r = expectNoErrors(await cloud.stack.up(program(1000, 4)));
    expect(r.steps.map((s) => `${s.op} ${s.name}`).sort()).toEqual(["same rs", "update db"]);
    await checkLog();
    const live = await cloud.api.perform("getService", { service: cloud.stack.resource("db").id });
    expect(live.resources?.[0]?.spec).toMatchObject({ cpu_millis: 1000, memory_gbs: 4 });
    expect(live.status).toBe("READY");
  });

  it("delete: destroy converges and everything is gone", async () => {
    await cloud.clearRequests();
    await storm(".*", "DELETE");
    const r = expectNoErrors(await cloud.stack.destroy());
    expect(r.steps.map((s) => `${s.op} ${s.name}`)).toEqual(["delete rs", "delete db"]);
    await checkLog();
    expect((await cloud.api.perform("listServices")).items).toEqual([]);
    expect(cloud.stack.resources()).toEqual([]);
  });

  it("a 503 burst on a create: each one waited out until a list read a bound after it shows nothing, then sent again; one VPC, no person", async () => {
    await cloud.clearRequests();
    cloud.stack.setConfig("clouddb:listLag", "1s");
    await addFault(cloud.control, { method: "POST", path: "/vpcs$", status: 503, count: 3 });
    const program = () => void new clouddb.Vpc("net", { cidr: "10.98.0.0/16", regionCode: "us-east-1" });
    try {
      expectNoErrors(await cloud.stack.up(program));
    } finally {
      cloud.stack.setConfig("clouddb:listLag", "30s");
    }
    const log = await cloud.requests();
    const posts = log.filter((r) => r.method === "POST" && r.path.endsWith("/vpcs"));
    expect(posts.map((r) => r.status)).toEqual([503, 503, 503, 201]);
    // Each sent again no sooner than the bound after the one before was answered.
    for (let i = 1; i < posts.length; i++) expect(Date.parse(posts[i].at) - Date.parse(posts[i - 1].at)).toBeGreaterThanOrEqual(1_000);
    expect((await cloud.api.perform("listVpcs")).items.map((v) => v.id)).toEqual([cloud.stack.resource("net").id]);
    expect(journalEntries(cloud.journalDir)).toEqual([]);
    expectNoErrors(await cloud.stack.destroy());
  });

  it("a sustained rate limit: a stack of five services converges at 3 requests/s", async () => {
    await cloud.clearRequests();
    await cloud.control("POST", "/rate-limit", { requestsPerSecond: 3 });
    try {
      const five = () => {
        for (let i = 0; i < 5; i++) new clouddb.Service(`s${i}`, { name: `limited-${i}` });
      };
      const r = expectNoErrors(await cloud.stack.up(five));
      expect(r.steps.filter((s) => s.op === "create")).toHaveLength(5);
      const log = await cloud.requests();
      // No 429 is needed: the machine's schedule for the key (provider/client/keySchedule.ts) may
      // know its limit from this file's earlier storms, and pace under it from the first request.
      const accepted = log.filter((x) => x.status !== 429).map((x) => Date.parse(x.at));
      expect(accepted.every((t) => accepted.filter((u) => u > t - 1_000 && u <= t).length <= 3)).toBe(true);
      // Five creates share POST /services: pair retries only on paths of one resource.
      const perResource = retriesAfter429(log).filter((x) => /\/services\/[a-z0-9]{10}/.test(x.request));
      expect(perResource.filter((x) => x.gapMs < 1000)).toEqual([]);
      expect((await cloud.api.perform("listServices")).items.map((s) => s.name).sort()).toEqual([0, 1, 2, 3, 4].map((i) => `limited-${i}`));
    } finally {
      await cloud.control("POST", "/rate-limit", { requestsPerSecond: 0 });
    }
    expectNoErrors(await cloud.stack.destroy());
  });
});
