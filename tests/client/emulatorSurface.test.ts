/**
 * Every one of the 32 operations against the emulator, and every API error class raised
 * from a real error answer.
 */
import {
  AuthenticationError,
  ClouddbClient,
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ServerError,
  type Service,
} from "../../provider/client";
import { control, type Emu, expectNoSecrets, fault, startEmulator, clientOf } from "./emulatorControl";

const WAIT = { timeoutMs: 15_000 };

describe("client against the emulator: every operation", () => {
  let emu: Emu;
  let c: ClouddbClient;
  const secrets: string[] = [];

  beforeAll(async () => {
    emu = await startEmulator({ port: 0, clockScale: 0.01 });
    c = clientOf(emu, { poll: { initialMs: 10, maxMs: 50 } });
    secrets.push(emu.pat, emu.oauthToken);
  });
  afterAll(async () => {
    await c.close();
    await emu.close();
  });

  it("getAuthInfo tells a PAT from an OAuth token", async () => {
    const pat = await c.perform("getAuthInfo");
    expect(pat.type).toBe("apiKey");
    expect(pat.apiKey?.project?.id).toBe(emu.projectId);
    const o = new ClouddbClient({ apiUrl: emu.baseUrl, apiKey: emu.oauthToken });
    try {
      const info = await o.perform("getAuthInfo");
      expect(info.type).toBe("oauth");
      expect(info.oauth?.user?.id).toMatch(/^[0-9]+$/);
    } finally {
      await o.close();
    }
  });

  it("perform runs an operation of the API description by name, the project from the client", async () => {
    const vpc = await c.perform("createVpc", { body: { name: "by-name", cidr: "10.42.0.0/16", region_code: "us-east-1" } });
    expect(await c.perform("renameVpc", { vpc: vpc.id, body: { name: "renamed" } })).toEqual({ message: `VPC ${vpc.id} renamed` });
    expect((await c.perform("getVpc", { vpc: vpc.id })).name).toBe("renamed");
    expect((await c.perform("listVpcs")).items.map((v) => v.id)).toContain(vpc.id);
    await c.perform("deleteVpc", { vpc: vpc.id });
    await expect(c.perform("getVpc", { vpc: vpc.id, projectId: emu.projectId })).rejects.toBeInstanceOf(NotFoundError);
  });

  it("runs the VPC, peering, service and replica set lifecycles", async () => {
    // VPCs
    const vpc = await c.perform("createVpc", { body: { name: "net", cidr: "10.1.0.0/16", region_code: "us-east-1" } });
    expect(vpc).toMatchObject({ name: "net", cidr: "10.1.0.0/16", region_code: "us-east-1" });
    expect((await c.perform("listVpcs")).items.map((v) => v.id)).toContain(vpc.id);
    expect(await c.perform("getVpc", { vpc: vpc.id })).toMatchObject({ id: vpc.id });
    expect(await c.perform("renameVpc", { vpc: vpc.id, body: { name: "net-2" } })).toHaveProperty("message");
    expect((await c.perform("getVpc", { vpc: vpc.id })).name).toBe("net-2");

    // Peerings
    const peering = await c.perform("createPeering", {
      vpc: vpc.id,
      body: { peer_account_id: "acct-1", peer_region_code: "us-east-1", peer_vpc_id: "vpc-9" },
    });
    expect(peering.status).toBe("pending");
    expect((await c.perform("listPeerings", { vpc: vpc.id })).items.map((p) => p.id)).toEqual([peering.id]);
    expect((await c.perform("getPeering", { vpc: vpc.id, peering: peering.id })).peer_vpc_id).toBe("vpc-9");
    expect((await c.waitForPeering(vpc.id, peering.id, WAIT)).status).toBe("active");
    await c.perform("deletePeering", { vpc: vpc.id, peering: peering.id });
    await expect(c.perform("getPeering", { vpc: vpc.id, peering: peering.id })).rejects.toBeInstanceOf(NotFoundError);

    // Services
    const created = await c.perform("createService", { body: { name: "db", cpu_millis: "500", memory_gbs: "2" } });
    expect(created.status).toBe("QUEUED");
    expect(typeof created.initial_password).toBe("string");
    secrets.push(created.initial_password!);
    const id = created.service_id;
    const ready = (until: Service["status"][] = ["READY"]): Promise<Service> => c.waitForService(id, { until, ...WAIT });
    expect((await ready()).status).toBe("READY");
    expect((await c.perform("listServices")).items.map((s) => s.service_id)).toContain(id);
    const got = await c.perform("getService", { service: id });
    expect(got.initial_password).toBeUndefined();

    const resized = await c.perform("resizeService", { service: id, body: { cpu_millis: "1000", memory_gbs: "4" } });
    expect(resized.resources?.[0]?.spec?.cpu_millis).toBe(1000);
    await ready();
    const ha = await c.perform("setServiceHA", { service: id, body: { replica_count: 1 } });
    expect(ha.ha_replicas?.replica_count).toBe(1);
    await ready();
    expect(await c.perform("attachServiceToVpc", { service: id, body: { vpc_id: vpc.id } })).toHaveProperty("message");
    expect((await ready()).vpcEndpoint).toMatchObject({ vpc_id: vpc.id });
    expect(await c.perform("detachServiceFromVpc", { service: id, body: { vpc_id: vpc.id } })).toHaveProperty("message");
    await ready();
    await c.perform("enableServicePooler", { service: id });
    expect((await c.perform("getService", { service: id })).connection_pooler?.endpoint?.port).toBe(6432);
    await c.perform("disableServicePooler", { service: id });
    expect((await c.perform("getService", { service: id })).connection_pooler ?? undefined).toBeUndefined();
    await c.perform("setServiceEnvironment", { service: id, body: { environment: "PROD" } });
    expect((await c.perform("getService", { service: id })).metadata?.environment).toBe("PROD");
    secrets.push("new-password-77");
    await expect(c.perform("updateServicePassword", { service: id, body: { password: "new-password-77" } })).resolves.toBeUndefined();
    await c.perform("stopService", { service: id });
    expect((await ready(["PAUSED"])).status).toBe("PAUSED");
    await c.perform("startService", { service: id });
    await ready();

    const fork = await c.perform("forkService", { service: id, body: { fork_strategy: "NOW", name: "db-copy" } });
    expect(fork.forked_from?.service_id).toBe(id);
    expect(typeof fork.initial_password).toBe("string");
    secrets.push(fork.initial_password!);
    expect((await c.waitForService(fork.service_id, { until: ["READY"], ...WAIT })).name).toBe("db-copy");

    // Replica sets
    const rs = await c.perform("createReplicaSet", { service: id, body: { name: "reads", nodes: 1, cpu_millis: 500, memory_gbs: 2 } });
    expect(rs.status).toBe("creating");
    expect((await c.waitForReplicaSet(id, rs.id, WAIT)).status).toBe("active");
    expect((await c.perform("listReplicaSets", { service: id })).items.map((r) => r.id)).toEqual([rs.id]);
    expect(
      await c.perform("resizeReplicaSet", { service: id, replicaSet: rs.id, body: { cpu_millis: 1000, memory_gbs: 4, nodes: 2 } }),
    ).toHaveProperty("message");
    const resizedRs = await c.waitForReplicaSet(id, rs.id, WAIT);
    expect(resizedRs).toMatchObject({ nodes: 2, cpu_millis: 1000 });
    await c.perform("enableReplicaSetPooler", { service: id, replicaSet: rs.id });
    expect((await c.perform("listReplicaSets", { service: id })).items[0]?.connection_pooler).toBeDefined();
    await c.perform("disableReplicaSetPooler", { service: id, replicaSet: rs.id });
    await c.perform("setReplicaSetEnvironment", { service: id, replicaSet: rs.id, body: { environment: "PROD" } });
    expect((await c.perform("listReplicaSets", { service: id })).items[0]?.metadata?.environment).toBe("PROD");
    await c.perform("deleteReplicaSet", { service: id, replicaSet: rs.id });
    await c.waitForReplicaSetDeleted(id, rs.id, WAIT);
    expect((await c.perform("listReplicaSets", { service: id })).items).toEqual([]);

    // Teardown
    await c.perform("deleteService", { service: fork.service_id });
    await c.perform("deleteService", { service: id });
    await c.waitForServiceDeleted(id, WAIT);
    await c.waitForServiceDeleted(fork.service_id, WAIT);
    await expect(c.perform("getService", { service: id })).rejects.toBeInstanceOf(NotFoundError);
    await c.perform("deleteVpc", { vpc: vpc.id });
    await expect(c.perform("getVpc", { vpc: vpc.id })).rejects.toBeInstanceOf(NotFoundError);
  });

  describe("error classes from real error answers", () => {
    const caught: unknown[] = [];
    async function failure(p: Promise<unknown>): Promise<unknown> {
      const err = await p.then(
        () => {
          throw new Error("expected a failure");
        },
        (e: unknown) => e,
      );
      caught.push(err);
      return err;
    }
    afterAll(() => {
      for (const e of caught) expectNoSecrets(e, secrets);
    });

    it("400 InvalidRequestError names the operation, status, code and details", async () => {
      const err = await failure(c.perform("createVpc", { body: { name: "bad", cidr: "10.0.0.1/8", region_code: "us-east-1" } }));
      expect(InvalidRequestError.isInstance(err)).toBe(true);
      const e = err as InvalidRequestError;
      expect(e.status).toBe(400);
      expect(e.code).toBe("INVALID_REQUEST");
      expect(e.operation).toBe("createVpc");
      expect(e.message).toContain("(operation createVpc, 400 INVALID_REQUEST)");
    });

    it("400 for a too-short password never shows the password", async () => {
      const s = await c.perform("createService", { body: { name: "pw" } });
      secrets.push(s.initial_password!);
      await c.waitForService(s.service_id, { until: ["READY"], ...WAIT });
      secrets.push("short7");
      const err = await failure(c.perform("updateServicePassword", { service: s.service_id, body: { password: "short7" } }));
      expect(InvalidRequestError.isInstance(err)).toBe(true);
      await c.perform("deleteService", { service: s.service_id });
    });

    it("401 AuthenticationError for an unknown key, without the key", async () => {
      const bad = new ClouddbClient({ apiUrl: emu.baseUrl, apiKey: "wrong-key-0000", projectId: emu.projectId });
      secrets.push("wrong-key-0000");
      try {
        const err = await failure(bad.perform("listServices").then((r) => r.items));
        expect(AuthenticationError.isInstance(err)).toBe(true);
        expect((err as AuthenticationError).code).toBe("UNAUTHORIZED");
        expect((err as Error).message).toContain("CLOUDDB_API_KEY");
      } finally {
        await bad.close();
      }
    });

    it("403 PermissionError for a PAT on another project", async () => {
      const err = await failure(c.perform("listVpcs", { projectId: emu.secondProjectId }).then((r) => r.items));
      expect(PermissionError.isInstance(err)).toBe(true);
      expect((err as PermissionError).status).toBe(403);
    });

    it("404 NotFoundError for an unknown service", async () => {
      const err = await failure(c.perform("getService", { service: "zzzzzzzzzz" }));
      expect(NotFoundError.isInstance(err)).toBe(true);
      expect((err as NotFoundError).operation).toBe("getService");
    });

    it("409 ConflictError for deleting a VPC that still has a peering", async () => {
      const vpc = await c.perform("createVpc", { body: { name: "busy", cidr: "10.9.0.0/16", region_code: "us-east-1" } });
      const p = await c.perform("createPeering", {
        vpc: vpc.id,
        body: { peer_account_id: "a", peer_region_code: "us-east-1", peer_vpc_id: "v" },
      });
      const err = await failure(c.perform("deleteVpc", { vpc: vpc.id }));
      expect(ConflictError.isInstance(err)).toBe(true);
      await c.perform("deletePeering", { vpc: vpc.id, peering: p.id });
      await c.perform("deleteVpc", { vpc: vpc.id });
    });

    it("429 RateLimitError once Retry-After would pass the retry deadline", async () => {
      const short = clientOf(emu, { retryDeadlineMs: 500 });
      try {
        await fault(emu, { method: "GET", path: "/vpcs$", status: 429, count: 1, retryAfter: 5 });
        const err = await failure(short.perform("listVpcs").then((r) => r.items));
        expect(RateLimitError.isInstance(err)).toBe(true);
        expect((err as RateLimitError).retryAfterSeconds).toBe(5);
      } finally {
        await short.close();
      }
    });

    it("5xx ServerError once retries reach the deadline", async () => {
      const short = clientOf(emu, { retryDeadlineMs: 400 });
      try {
        await fault(emu, { method: "GET", path: "/services$", status: 503, count: 1000 });
        const err = await failure(short.perform("listServices").then((r) => r.items));
        expect(ServerError.isInstance(err)).toBe(true);
        expect((err as ServerError).status).toBe(503);
      } finally {
        await control(emu, "DELETE", "/faults");
        await short.close();
      }
    });
  });
});
