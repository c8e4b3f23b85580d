/**
 * Tolerant reading (CONTRACT.md "Transport"): an enum value the client has never seen is
 * carried as a string and is "not yet" for a waiter; a field the client does not rely on
 * in an odd shape is dropped; one odd item of a list spoils only itself, while a read of
 * exactly that item fails naming the field and the value.
 */
import { ClouddbClient, ResponseValidationError, type Service } from "../../provider/client";
import { waitVerdict } from "../../contract/statuses";
import { type Emu, control, expectNoSecrets, requestLog, rewrite, startEmulator, clientOf } from "./emulatorControl";
import { serviceBody, startFakeApi } from "./fakeApi";

const WAIT = { timeoutMs: 15_000 };

describe("status rules", () => {
  it("treat an unknown status as not yet, and only failure statuses as failures", () => {
    expect(waitVerdict("service", "MIGRATING", ["READY"])).toBe("continue");
    expect(waitVerdict("service", "UNSTABLE", ["READY"])).toBe("fail");
    expect(waitVerdict("service", "UNSTABLE", ["UNSTABLE"])).toBe("done");
    expect(waitVerdict("replica set", "upgrading", ["active"])).toBe("continue");
    expect(waitVerdict("peering", "failed", ["active"])).toBe("fail");
    expect(waitVerdict("peering", undefined, ["active"])).toBe("continue");
  });
});

describe("tolerant reading against the emulator", () => {
  let emu: Emu;
  let c: ClouddbClient;
  let ready: Service;

  beforeAll(async () => {
    emu = await startEmulator({ port: 0, clockScale: 0.01 });
    c = clientOf(emu, { poll: { initialMs: 10, maxMs: 40 } });
    ready = await c.waitForService((await c.perform("createService", { body: { name: "base" } })).service_id, {
      until: ["READY"],
      ...WAIT,
    });
  });
  afterAll(async () => {
    await c.close();
    await emu.close();
  });
  afterEach(async () => {
    await control(emu, "DELETE", "/rewrites");
  });

  it("carries an unknown service status and type in reads and lists", async () => {
    await rewrite(emu, { method: "GET", path: "/services", field: "status", value: "MIGRATING", count: 2 });
    await rewrite(emu, { method: "GET", path: "/services", field: "service_type", value: "GRAPH", count: 2 });
    const got = await c.perform("getService", { service: ready.service_id });
    expect([got.status, got.service_type]).toEqual(["MIGRATING", "GRAPH"]);
    const listed = (await c.perform("listServices")).items;
    expect(listed.map((s) => [s.service_id, s.status, s.service_type])).toEqual([[ready.service_id, "MIGRATING", "GRAPH"]]);
  });

  it("reads metrics: null (and other odd fields it does not rely on) as absent", async () => {
    await rewrite(emu, { method: "GET", path: "/services", field: "metrics", value: null, count: 2 });
    await rewrite(emu, { method: "GET", path: "/services", field: "endpoint", value: "not-an-object", count: 2 });
    const got = await c.perform("getService", { service: ready.service_id });
    expect(got.metrics).toBeUndefined();
    expect(got.endpoint).toBeUndefined();
    expect(got.status).toBe("READY");
    expect((await c.perform("listServices")).items[0]?.metrics).toBeUndefined();
  });

  it("keeps waiting through an unknown status, and returns once the awaited one comes", async () => {
    const s = await c.perform("createService", { body: { name: "migrating" } });
    await control(emu, "DELETE", "/requests");
    await rewrite(emu, { method: "GET", path: "/services", field: "status", value: "MIGRATING", count: 4 });
    const done = await c.waitForService(s.service_id, { until: ["READY"], ...WAIT });
    expect(done.status).toBe("READY");
    const log = await requestLog(emu);
    expect(log.filter((r) => (r as { rewritten?: string[] }).rewritten?.includes("status")).length).toBe(4);
  });

  it("carries an unknown replica set status, and waits through it", async () => {
    const rs = await c.perform("createReplicaSet", {
      service: ready.service_id,
      body: { name: "r", nodes: 1, cpu_millis: 500, memory_gbs: 2 },
    });
    await rewrite(emu, { method: "GET", path: "/replicaSets$", field: "status", value: "upgrading", count: 1 });
    expect((await c.perform("listReplicaSets", { service: ready.service_id })).items.map((r) => r.status)).toEqual(["upgrading"]);
    await rewrite(emu, { method: "GET", path: "/services", field: "status", value: "upgrading", count: 3 });
    expect((await c.waitForReplicaSet(ready.service_id, rs.id, WAIT)).status).toBe("active");
    expect((await c.getReplicaSet(ready.service_id, rs.id)).status).toBe("active");
    await c.perform("deleteReplicaSet", { service: ready.service_id, replicaSet: rs.id });
  });

  it("a create whose answer carries an unknown status still returns the service and its password", async () => {
    await rewrite(emu, { method: "POST", path: "/services$", field: "status", value: "PROVISIONING", count: 1 });
    const s = await c.perform("createService", { body: { name: "new-status" } });
    expect(s.status).toBe("PROVISIONING");
    expect(typeof s.initial_password).toBe("string");
    expect((await c.waitForService(s.service_id, { until: ["READY"], ...WAIT })).status).toBe("READY");
  });
});

describe("one odd item of a list (fake API)", () => {
  const KEY = "tolerant-key-9a8b7c";
  const good = serviceBody({ service_id: "good000001", name: "good" });
  const bad = serviceBody({ service_id: "bad0000001", name: "bad", status: null, initial_password: "leaked-pw-123" });

  it("is skipped by the list, fails a read of exactly that item naming field and value, and spoils nothing else", async () => {
    const api = await startFakeApi((req) =>
      req.path.endsWith("/services")
        ? { body: [good, bad, { name: "no id" }] }
        : req.path.endsWith("/good000001")
          ? { body: good }
          : { body: bad },
    );
    const c = new ClouddbClient({ apiUrl: api.baseUrl, apiKey: KEY, projectId: "proj000001", listCacheMs: 60_000 });
    try {
      expect((await c.perform("listServices")).items.map((s) => s.service_id)).toEqual(["good000001"]);
      expect((await c.perform("getService", { service: "good000001" })).name).toBe("good");
      const err = await c.perform("getService", { service: "bad0000001" }).catch((e: unknown) => e);
      expect(ResponseValidationError.isInstance(err)).toBe(true);
      const e = err as ResponseValidationError;
      expect(e.path).toBe("status");
      expect(e.received).toBe("null");
      expect(e.subject).toBe("service bad0000001 in the list");
      expect(e.message).toContain("operation getService");
      expect(e.message).toContain("`status`");
      expectNoSecrets(e, [KEY]);
      // Without the cache, the service's own GET fails the same way.
      const direct = await c.perform("getService", { service: "bad0000001", fresh: true }).catch((x: unknown) => x);
      expect((direct as ResponseValidationError).path).toBe("status");
    } finally {
      await c.close();
      await api.close();
    }
  });

  it("a replica set in an odd shape is left out of its service, and a read of it fails clearly", async () => {
    const withSets = serviceBody({
      read_replica_sets: [
        { id: "rs00000001", status: "active", nodes: "two" },
        { id: "rs00000002", status: 7 },
      ],
    });
    const api = await startFakeApi((req) =>
      req.path.endsWith("/replicaSets")
        ? { body: withSets.read_replica_sets }
        : { body: req.path.endsWith("/services") ? [withSets] : withSets },
    );
    const c = new ClouddbClient({ apiUrl: api.baseUrl, apiKey: KEY, projectId: "proj000001" });
    try {
      const s = await c.perform("getService", { service: "svc0000001" });
      expect(s.read_replica_sets?.map((r) => [r.id, r.nodes])).toEqual([["rs00000001", undefined]]);
      expect((await c.getReplicaSet("svc0000001", "rs00000001")).status).toBe("active");
      const err = await c.getReplicaSet("svc0000001", "rs00000002").catch((e: unknown) => e);
      expect(ResponseValidationError.isInstance(err)).toBe(true);
      expect((err as ResponseValidationError).path).toBe("status");
      expect((err as ResponseValidationError).received).toBe("7");
    } finally {
      await c.close();
      await api.close();
    }
  });
});
