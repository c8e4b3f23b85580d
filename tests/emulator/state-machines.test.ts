/**
 * State machines (CONTRACT.md, "States"): transitions on the emulator clock, and a 409
 * CONFLICT that changes nothing for every action a state does not allow.
 */
import { startEmulator } from "../../emulator";
import { EmulatorApi, useEmulator } from "./support/emulator-api";

// A frozen clock: each state lasts until the test advances it, however slow the machine.
const api = useEmulator({ clockScale: 1, frozenClock: true });

const svc = (id: string, rest = "") => api.p(`/services/${id}${rest}`);
const status = async (id: string) => (await api.call("GET", svc(id))).body.status as string;
const rsList = async (id: string) => (await api.call("GET", svc(id, "/replicaSets"))).body as Array<{ id: string; status: string }>;

async function expectConflict(method: string, path: string, body?: unknown): Promise<void> {
  const before = await api.call("GET", api.p("/services"));
  const res = await api.call(method, path, body === undefined ? {} : { body });
  expect({ path, status: res.status, code: res.body?.code }).toEqual({ path, status: 409, code: "CONFLICT" });
  expect(typeof res.body.message).toBe("string");
  expect((await api.call("GET", api.p("/services"))).body).toEqual(before.body);
}

describe("service lifecycle", () => {
  it("goes QUEUED (2 s) → CONFIGURING (5 s) → READY on create", async () => {
    const s = await api.createService();
    expect(await status(s.service_id)).toBe("QUEUED");
    await api.advance(1_500);
    expect(await status(s.service_id)).toBe("QUEUED");
    await api.advance(1_000);
    expect(await status(s.service_id)).toBe("CONFIGURING");
    await api.advance(4_000);
    expect(await status(s.service_id)).toBe("CONFIGURING");
    await api.advance(600);
    expect(await status(s.service_id)).toBe("READY");
  });

  it("refuses changes while QUEUED and CONFIGURING", async () => {
    const s = await api.createService();
    await expectConflict("POST", svc(s.service_id, "/start"));
    await expectConflict("POST", svc(s.service_id, "/stop"));
    await expectConflict("POST", svc(s.service_id, "/resize"), { cpu_millis: "1000", memory_gbs: "4" });
    await api.advance(2_000);
    expect(await status(s.service_id)).toBe("CONFIGURING");
    await expectConflict("POST", svc(s.service_id, "/resize"), { cpu_millis: "1000", memory_gbs: "4" });
    await expectConflict("POST", svc(s.service_id, "/setHA"), { replica_count: 1 });
    await expectConflict("POST", svc(s.service_id, "/enablePooler"));
    await expectConflict("POST", svc(s.service_id, "/setEnvironment"), { environment: "PROD" });
    await expectConflict("POST", svc(s.service_id, "/updatePassword"), { password: "long enough" });
    await expectConflict("POST", svc(s.service_id, "/forkService"), { fork_strategy: "NOW" });
    await expectConflict("POST", svc(s.service_id, "/replicaSets"), { name: "r", nodes: 1, cpu_millis: 500, memory_gbs: 2 });
  });

  it("refuses a second change while a resize is CONFIGURING, then allows it when READY", async () => {
    const s = await api.readyService();
    expect((await api.call("POST", svc(s.service_id, "/resize"), { body: { cpu_millis: "1000", memory_gbs: "4" } })).status).toBe(202);
    await expectConflict("POST", svc(s.service_id, "/resize"), { cpu_millis: "2000", memory_gbs: "8" });
    await api.advance(3_000);
    expect((await api.call("POST", svc(s.service_id, "/resize"), { body: { cpu_millis: "2000", memory_gbs: "8" } })).status).toBe(202);
  });

  it("treats start on READY and stop on PAUSED as no-ops, and refuses stop while PAUSING and start while RESUMING", async () => {
    const s = await api.readyService();
    const startReady = await api.call("POST", svc(s.service_id, "/start"));
    expect(startReady.status).toBe(202);
    expect(startReady.body.status).toBe("READY");
    expect((await api.call("POST", svc(s.service_id, "/stop"))).body.status).toBe("PAUSING");
    await expectConflict("POST", svc(s.service_id, "/stop"));
    await expectConflict("POST", svc(s.service_id, "/start"));
    await api.advance(2_000);
    const stopPaused = await api.call("POST", svc(s.service_id, "/stop"));
    expect(stopPaused.status).toBe(202);
    expect(stopPaused.body.status).toBe("PAUSED");
    expect(stopPaused.body.metrics.milli_cpu).toBe(0);
    await expectConflict("POST", svc(s.service_id, "/resize"), { cpu_millis: "1000", memory_gbs: "4" });
    await expectConflict("POST", svc(s.service_id, "/forkService"), { fork_strategy: "NOW" });
    await expectConflict("POST", svc(s.service_id, "/enablePooler"));
    expect((await api.call("POST", svc(s.service_id, "/start"))).body.status).toBe("RESUMING");
    await expectConflict("POST", svc(s.service_id, "/start"));
    await api.advance(2_000);
    expect(await status(s.service_id)).toBe("READY");
  });

  it("allows nothing but delete on an injected UNSTABLE service", async () => {
    const s = await api.readyService();
    const vpc = await api.createVpc();
    expect((await api.control("POST", `/services/${s.service_id}/unstable`)).status).toBe(204);
    expect(await status(s.service_id)).toBe("UNSTABLE");
    await api.advance(60_000);
    expect(await status(s.service_id)).toBe("UNSTABLE");
    const id = s.service_id;
    await expectConflict("POST", svc(id, "/start"));
    await expectConflict("POST", svc(id, "/stop"));
    await expectConflict("POST", svc(id, "/resize"), { cpu_millis: "1000", memory_gbs: "4" });
    await expectConflict("POST", svc(id, "/attachToVPC"), { vpc_id: vpc.id });
    await expectConflict("POST", svc(id, "/detachFromVPC"), { vpc_id: vpc.id });
    await expectConflict("POST", svc(id, "/enablePooler"));
    await expectConflict("POST", svc(id, "/disablePooler"));
    await expectConflict("POST", svc(id, "/forkService"), { fork_strategy: "NOW" });
    await expectConflict("POST", svc(id, "/updatePassword"), { password: "long enough" });
    await expectConflict("POST", svc(id, "/setEnvironment"), { environment: "PROD" });
    await expectConflict("POST", svc(id, "/setHA"), { replica_count: 1 });
    await expectConflict("POST", svc(id, "/replicaSets"), { name: "r", nodes: 1, cpu_millis: 500, memory_gbs: 2 });
    expect((await api.call("DELETE", svc(id))).status).toBe(202);
    expect(await status(id)).toBe("DELETING");
  });

  it("refuses delete while DELETING and anything else, then answers 404 once gone", async () => {
    const s = await api.readyService();
    expect((await api.call("DELETE", svc(s.service_id))).status).toBe(202);
    await expectConflict("DELETE", svc(s.service_id));
    await expectConflict("POST", svc(s.service_id, "/resize"), { cpu_millis: "1000", memory_gbs: "4" });
    await api.advance(2_000);
    const gone = await api.call("DELETE", svc(s.service_id));
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe("NOT_FOUND");
  });

  it("deletes a QUEUED service and a PAUSED one", async () => {
    const queued = await api.createService();
    expect((await api.call("DELETE", svc(queued.service_id))).status).toBe(202);
    const paused = await api.readyService();
    await api.call("POST", svc(paused.service_id, "/stop"));
    await api.advance(2_000);
    expect((await api.call("DELETE", svc(paused.service_id))).status).toBe(202);
    await api.advance(2_000);
    expect((await api.call("GET", api.p("/services"))).body).toEqual([]);
  });

  it("moves on by itself on a small real clock scale", async () => {
    const fast = await startEmulator({ port: 0, clockScale: 0.02 });
    try {
      const fastApi = new EmulatorApi(fast);
      const s = await fastApi.createService();
      const started = Date.now();
      await fastApi.waitFor(fastApi.p(`/services/${s.service_id}`), (r) => r.body.status === "READY", 5_000);
      expect(Date.now() - started).toBeGreaterThanOrEqual(100); // 7 s nominal x 0.02 = 140 ms
    } finally {
      await fast.close();
    }
  });
});

describe("VPC attachment", () => {
  it("refuses a second VPC while attached (409), treats the same VPC as a no-op, and detach from the wrong VPC (409)", async () => {
    const s = await api.readyService();
    const a = await api.createVpc({ name: "a" });
    const b = await api.createVpc({ name: "b", cidr: "10.5.0.0/16" });
    expect((await api.call("POST", svc(s.service_id, "/attachToVPC"), { body: { vpc_id: a.id } })).status).toBe(202);
    await api.advance(3_000);
    await expectConflict("POST", svc(s.service_id, "/attachToVPC"), { vpc_id: b.id });
    const same = await api.call("POST", svc(s.service_id, "/attachToVPC"), { body: { vpc_id: a.id } });
    expect(same.status).toBe(202);
    expect(await status(s.service_id)).toBe("READY");
    await expectConflict("POST", svc(s.service_id, "/detachFromVPC"), { vpc_id: b.id });
    const blocked = await api.call("DELETE", api.p(`/vpcs/${a.id}`));
    expect(blocked.status).toBe(409);
    expect(blocked.body.details).toContain(s.service_id);
    expect((await api.call("POST", svc(s.service_id, "/detachFromVPC"), { body: { vpc_id: a.id } })).status).toBe(202);
    expect((await api.call("DELETE", api.p(`/vpcs/${a.id}`))).status).toBe(204);
  });

  it("keeps a VPC busy until an attached service's deletion has finished", async () => {
    const s = await api.readyService();
    const vpc = await api.createVpc();
    await api.call("POST", svc(s.service_id, "/attachToVPC"), { body: { vpc_id: vpc.id } });
    await api.advance(3_000);
    await api.call("DELETE", svc(s.service_id));
    expect((await api.call("DELETE", api.p(`/vpcs/${vpc.id}`))).status).toBe(409);
    await api.advance(2_000);
    expect((await api.call("DELETE", api.p(`/vpcs/${vpc.id}`))).status).toBe(204);
  });
});

describe("replica set lifecycle", () => {
  async function newSet(serviceId: string): Promise<string> {
    const res = await api.call("POST", svc(serviceId, "/replicaSets"), { body: { name: "r", nodes: 1, cpu_millis: 500, memory_gbs: 2 } });
    expect(res.status).toBe(202);
    return res.body.id as string;
  }

  it("refuses resize, pooler and environment while creating and resizing, and delete while deleting", async () => {
    const s = await api.readyService();
    const rs = await newSet(s.service_id);
    const base = svc(s.service_id, `/replicaSets/${rs}`);
    await expectConflict("POST", `${base}/resize`, { cpu_millis: 1000, memory_gbs: 4 });
    await expectConflict("POST", `${base}/enablePooler`);
    await expectConflict("POST", `${base}/setEnvironment`, { environment: "PROD" });
    await api.advance(3_000);
    expect((await rsList(s.service_id))[0].status).toBe("active");
    expect((await api.call("POST", `${base}/resize`, { body: { cpu_millis: 1000, memory_gbs: 4 } })).status).toBe(202);
    await expectConflict("POST", `${base}/resize`, { cpu_millis: 2000, memory_gbs: 8 });
    await api.advance(3_000);
    expect((await api.call("DELETE", base)).status).toBe(202);
    await expectConflict("DELETE", base);
    await api.advance(3_000);
    expect(await rsList(s.service_id)).toEqual([]);
    expect((await api.call("DELETE", base)).status).toBe(404);
  });

  it("shows an injected error, refuses resize in it, and still deletes", async () => {
    const s = await api.readyService();
    const rs = await newSet(s.service_id);
    await api.advance(3_000);
    expect((await api.control("POST", `/replica-sets/${rs}/error`)).status).toBe(204);
    expect((await rsList(s.service_id))[0].status).toBe("error");
    const base = svc(s.service_id, `/replicaSets/${rs}`);
    await expectConflict("POST", `${base}/resize`, { cpu_millis: 1000, memory_gbs: 4 });
    expect((await api.call("DELETE", base)).status).toBe(202);
  });

  it("refuses replica set changes while the service is UNSTABLE, and drops the sets with the service", async () => {
    const s = await api.readyService();
    const rs = await newSet(s.service_id);
    await api.advance(3_000);
    await api.control("POST", `/services/${s.service_id}/unstable`);
    await expectConflict("POST", svc(s.service_id, `/replicaSets/${rs}/enablePooler`));
    await api.call("DELETE", svc(s.service_id));
    await api.advance(2_000);
    expect((await api.call("GET", svc(s.service_id, "/replicaSets"))).status).toBe(404);
  });
});

describe("peering lifecycle", () => {
  it("fails an injected peering with the given error_message", async () => {
    const vpc = await api.createVpc();
    const p = await api.call("POST", api.p(`/vpcs/${vpc.id}/peerings`), {
      body: { peer_account_id: "42", peer_region_code: "us-east-1", peer_vpc_id: "vpc-9" },
    });
    expect((await api.control("POST", `/peerings/${p.body.id}/fail`, { errorMessage: "route refused" })).status).toBe(204);
    const failed = await api.call("GET", api.p(`/vpcs/${vpc.id}/peerings/${p.body.id}`));
    expect(failed.body).toMatchObject({ status: "failed", error_message: "route refused" });
    await api.advance(10_000);
    expect((await api.call("GET", api.p(`/vpcs/${vpc.id}/peerings/${p.body.id}`))).body.status).toBe("failed");
    expect((await api.call("DELETE", api.p(`/vpcs/${vpc.id}/peerings/${p.body.id}`))).status).toBe(204);
  });
});
