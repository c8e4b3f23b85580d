/**
 * Failing fast and clearly: a key HTTP cannot carry, a base URL without its version path,
 * an endpoint nobody listens on, and 409s that waiting cannot cure (a paused or unstable
 * service, a replica set in error), told apart from those it can.
 */
import { deadPort } from "../../harness/emulatorProcess";
import { ClouddbClient, ConfigurationError, ConflictError, NetworkError } from "../../provider/client";
import { resolveConfig } from "../../provider/client/config";
import { type Emu, control, countRequests, expectNoSecrets, startEmulator, clientOf } from "./emulatorControl";

describe("configuration that cannot work fails at once", () => {
  const url = "http://127.0.0.1:1/public/api/v1";

  it("an API key with a line break gets its own error naming the setting, never the key", () => {
    const key = "sk-line-break-1234\nsecond-half-5678";
    const err = (() => {
      try {
        new ClouddbClient({ apiUrl: url, apiKey: key });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(ConfigurationError.isInstance(err)).toBe(true);
    const e = err as ConfigurationError;
    expect(e.setting).toBe("apiKey");
    expect(e.code).toBe("CLOUDDB_CONFIGURATION");
    expect(e.message).toContain("line break");
    expect(e.message).toContain("position 19");
    expectNoSecrets(e, [key, "sk-line-break-1234", "second-half-5678"]);
    // A line break around the key (a file read whole) is not part of it.
    expect(resolveConfig({ apiUrl: url, apiKey: "sk-trailing-newline\n" }, {}).apiKey).toBe("sk-trailing-newline");
    expect(() => resolveConfig({ apiUrl: url, apiKey: "sk-tab\u0001x" }, {})).toThrow(/cannot carry/);
  });

  it("a base URL without /public/api/v1 says so and what to use", () => {
    const cases: Array<[string, string]> = [
      ["http://127.0.0.1:8787", 'use "http://127.0.0.1:8787/public/api/v1"'],
      ["http://127.0.0.1:8787/", 'use "http://127.0.0.1:8787/public/api/v1"'],
      ["https://gw.example/clouddb/", 'use "https://gw.example/clouddb/public/api/v1"'],
      ["https://api.example/public/api/v2", "this client speaks v1"],
    ];
    for (const [apiUrl, advice] of cases) {
      let err: unknown;
      try {
        resolveConfig({ apiUrl, apiKey: "k-123456" }, {});
      } catch (e) {
        err = e;
      }
      expect(ConfigurationError.isInstance(err)).toBe(true);
      expect((err as ConfigurationError).setting).toBe("apiUrl");
      expect((err as Error).message).toContain("does not end in /public/api/v1");
      expect((err as Error).message).toContain(advice);
    }
    expect(resolveConfig({ apiUrl: "https://gw.example/clouddb/public/api/v1/", apiKey: "k-123456" }, {}).apiUrl).toBe(
      "https://gw.example/clouddb/public/api/v1",
    );
  });
});

describe("an endpoint nobody listens on", () => {
  it.each([
    ["createService", (c: ClouddbClient) => c.perform("createService", { body: { name: "db" } })],
    ["getService", (c: ClouddbClient) => c.perform("getService", { service: "svc0000001" })],
    ["createVpc", (c: ClouddbClient) => c.perform("createVpc", { body: { name: "n", cidr: "10.0.0.0/16", region_code: "us-east-1" } })],
  ])("fails %s within seconds, naming the URL and that operation", async (operation, run) => {
    const port = await deadPort();
    const key = "dead-endpoint-key-42";
    const c = new ClouddbClient({ apiUrl: `http://127.0.0.1:${port}/public/api/v1`, apiKey: key, projectId: "proj000001" });
    try {
      const started = Date.now();
      const err = await run(c).catch((e: unknown) => e);
      const elapsed = Date.now() - started;
      expect(NetworkError.isInstance(err)).toBe(true);
      const e = err as NetworkError;
      expect(elapsed).toBeLessThan(5_000);
      expect(e.operation).toBe(operation);
      expect(e.step).toBeUndefined();
      expect(e.requestSent).toBe(false);
      expect(e.causeCode).toBe("ECONNREFUSED");
      expect(e.message).toContain(`http://127.0.0.1:${port}/public/api/v1/projects/proj000001/`);
      expect(e.message).toContain(`operation ${operation}`);
      expect(e.message).not.toContain("listServices");
      expectNoSecrets(e, [key]);
    } finally {
      await c.close();
    }
  });
});

describe("409s that waiting cannot cure, told apart from those it can", () => {
  let emu: Emu;
  let c: ClouddbClient;

  beforeAll(async () => {
    emu = await startEmulator({ port: 0, clockScale: 1 });
  });
  beforeEach(async () => {
    await control(emu, "POST", "/reset");
    c = clientOf(emu, { retryDeadlineMs: 2_000 });
  });
  afterEach(async () => {
    await c.close();
  });
  afterAll(async () => {
    await emu.close();
  });

  /** A READY service: created, then the emulator clock moved past QUEUED and CONFIGURING. */
  async function readyService(name: string): Promise<string> {
    const s = await c.perform("createService", { body: { name } });
    await control(emu, "POST", "/clock", { advanceMs: 8_000 });
    expect((await c.perform("getService", { service: s.service_id })).status).toBe("READY");
    return s.service_id;
  }

  async function conflict(p: Promise<unknown>): Promise<ConflictError> {
    const err = await p.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(ConflictError.isInstance(err)).toBe(true);
    return err as ConflictError;
  }

  it("creating a replica set on a PAUSED service: not curable, reading the service once", async () => {
    const id = await readyService("paused");
    await c.perform("stopService", { service: id });
    await control(emu, "POST", "/clock", { advanceMs: 3_000 });
    await control(emu, "DELETE", "/requests");
    const e = await conflict(c.perform("createReplicaSet", { service: id, body: { name: "r", nodes: 1, cpu_millis: 500, memory_gbs: 2 } }));
    expect(e.curableByWaiting).toBe(false);
    expect(e.blockedBy).toEqual({ kind: "service", id, status: "PAUSED" });
    expect(e.message).toContain(`start service ${id} first`);
    expect(e.operation).toBe("createReplicaSet");
    expect(await countRequests(emu, "POST", /\/replicaSets$/)).toBe(1);
    expect(await countRequests(emu, "GET", new RegExp(`/services/${id}$`))).toBe(1);
  });

  it("anything on an UNSTABLE service, a replica set action included: not curable", async () => {
    const id = await readyService("shaky");
    const rs = await c.perform("createReplicaSet", { service: id, body: { name: "r", nodes: 1, cpu_millis: 500, memory_gbs: 2 } });
    await control(emu, "POST", "/clock", { advanceMs: 4_000 });
    await control(emu, "POST", `/services/${id}/unstable`);
    for (const action of [
      () => c.perform("setServiceEnvironment", { service: id, body: { environment: "PROD" } }),
      () => c.perform("resizeService", { service: id, body: { cpu_millis: "1000", memory_gbs: "4" } }),
      () => c.perform("resizeReplicaSet", { service: id, replicaSet: rs.id, body: { cpu_millis: 1000, memory_gbs: 4 } }),
    ]) {
      const e = await conflict(action());
      expect(e.curableByWaiting).toBe(false);
      expect(e.blockedBy).toEqual({ kind: "service", id, status: "UNSTABLE" });
      expect(e.message).toContain("waiting will not change that");
    }
  });

  it("a replica set in error: not curable, blamed on the set", async () => {
    const id = await readyService("sets");
    const rs = await c.perform("createReplicaSet", { service: id, body: { name: "r", nodes: 1, cpu_millis: 500, memory_gbs: 2 } });
    await control(emu, "POST", "/clock", { advanceMs: 4_000 });
    await control(emu, "POST", `/replica-sets/${rs.id}/error`);
    const e = await conflict(c.perform("enableReplicaSetPooler", { service: id, replicaSet: rs.id }));
    expect(e.curableByWaiting).toBe(false);
    expect(e.blockedBy).toEqual({ kind: "replica set", id: `${id}/${rs.id}`, status: "error" });
  });

  it("a service still being created: curable by waiting", async () => {
    const s = await c.perform("createService", { body: { name: "young" } });
    const e = await conflict(c.perform("resizeService", { service: s.service_id, body: { cpu_millis: "1000", memory_gbs: "4" } }));
    expect(e.curableByWaiting).toBe(true);
    expect(e.blockedBy).toEqual({ kind: "service", id: s.service_id, status: "QUEUED" });
    expect(e.message).toContain("passes by itself");
  });

  it("a conflict the status does not explain (VPC with a peering) is left undecided", async () => {
    const vpc = await c.perform("createVpc", { body: { name: "busy", cidr: "10.9.0.0/16", region_code: "us-east-1" } });
    await c.perform("createPeering", { vpc: vpc.id, body: { peer_account_id: "a", peer_region_code: "us-east-1", peer_vpc_id: "v" } });
    const e = await conflict(c.perform("deleteVpc", { vpc: vpc.id }));
    expect(e.curableByWaiting).toBeUndefined();
    expect(e.blockedBy).toBeUndefined();
  });
});
