/**
 * Service (with its ReadReplicaSets) through Pulumi's real dynamic-provider host, against
 * the emulator: every in-place change is one update with exactly its own write request,
 * every replace trigger a replacement, drift shown by refresh and repaired by up,
 * passwords kept secret, forks, bad inputs refused in check, and partial failures.
 */
import * as clouddb from "pulumi-clouddb";
import { expectNoErrors } from "../../harness";
import { ops, startCloud, writes, type Cloud } from "../../harness/cloud";

/** The write requests of the log as `METHOD /path` below the project (`POST /services/<id>/resize`). */
const sent = async (cloud: Cloud): Promise<string[]> =>
  writes(await cloud.requests()).map((w) => `${w.method} ${w.path.replace(/^\/public\/api\/v1\/projects\/[a-z0-9]+/, "")}`);

/** Polls until `find` returns something (a resource the running `up` just asked for). */
async function eventually<T>(find: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error("eventually: not found in time");
    await new Promise((r) => setTimeout(r, 5));
  }
}

type ServiceShape = Omit<Partial<clouddb.ServiceArgs>, "vpcId"> & { vpc?: "a" | "b" };
type SetShape = Partial<clouddb.ReadReplicaSetArgs>;
interface Shape {
  db: ServiceShape;
  r1: SetShape;
  r2: SetShape;
}

/** Two VPCs, a service in one of them, two replica sets of the service. */
const stackOf = (shape: Shape) => () => {
  const a = new clouddb.Vpc("net-a", { name: "net-a", cidr: "10.10.0.0/16", regionCode: "us-east-1" });
  const b = new clouddb.Vpc("net-b", { name: "net-b", cidr: "10.11.0.0/16", regionCode: "us-east-1" });
  const { vpc, ...args } = shape.db;
  const db = new clouddb.Service("db", {
    name: "orders",
    ...args,
    ...(vpc === undefined ? {} : { vpcId: vpc === "a" ? a.vpcId : b.vpcId }),
  });
  const sets = (["r1", "r2"] as const).map(
    (n) =>
      new clouddb.ReadReplicaSet(n, { serviceId: db.serviceId, name: `${n}-set`, nodes: 1, cpuMillis: 500, memoryGbs: 2, ...shape[n] }),
  );
  return { serviceId: db.serviceId, password: db.password, r1: sets[0].replicaSetId, r2: sets[1].replicaSetId };
};

describe("Service with replica sets: in-place changes", () => {
  let cloud: Cloud;
  let shape: Shape = {
    db: { vpc: "a", haReplicas: { replicaCount: 2, syncReplicaCount: 1 }, connectionPooler: true },
    r1: {},
    r2: {},
  };
  let sid = "";
  const rs: Record<"r1" | "r2", string> = { r1: "", r2: "" };
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.close();
  });

  it("creates the VPCs, an HA service with a pooler in a VPC, and two replica sets", async () => {
    const r = expectNoErrors(await cloud.stack.up(stackOf(shape)));
    expect(ops(r)).toEqual({ "net-a": "create", "net-b": "create", db: "create", r1: "create", r2: "create" });
    sid = String(r.outputs.serviceId);
    rs.r1 = String(r.outputs.r1);
    rs.r2 = String(r.outputs.r2);
    const live = await cloud.api.perform("getService", { service: sid });
    expect(live).toMatchObject({
      name: "orders",
      status: "READY",
      service_type: "TIMESERIES",
      region_code: "us-east-1",
      ha_replicas: { replica_count: 2, sync_replica_count: 1 },
      metadata: { environment: "DEV" },
      vpcEndpoint: { vpc_id: cloud.stack.resource("net-a").id },
    });
    expect(live.connection_pooler?.endpoint).toBeDefined();
    const outs = cloud.stack.resource("db").outputs;
    expect(outs).toMatchObject({
      serviceId: sid,
      status: "READY",
      host: live.endpoint!.host,
      port: 5432,
      poolerHost: live.connection_pooler!.endpoint!.host,
      poolerPort: 6432,
      vpcId: cloud.stack.resource("net-a").id,
      vpcEndpoint: live.vpcEndpoint,
      cpuMillis: 500,
      memoryGbs: 2,
      haReplicas: { replicaCount: 2, syncReplicaCount: 1 },
      environment: "DEV",
      paused: false,
      created: live.created,
      projectId: cloud.emulator.projectId,
    });
    expect(outs.resources).toEqual([{ id: live.resources![0].id, cpuMillis: 500, memoryGbs: 2, volumeType: "gp3" }]);
    expect(outs.forkedFrom).toBeUndefined();
    const sets = (await cloud.api.perform("listReplicaSets", { service: sid })).items;
    expect(sets.map((s) => [s.id, s.name, s.status, s.nodes, s.cpu_millis, s.memory_gbs]).sort()).toEqual(
      [
        [rs.r1, "r1-set", "active", 1, 500, 2],
        [rs.r2, "r2-set", "active", 1, 500, 2],
      ].sort(),
    );
    expect(cloud.stack.resource("r1").outputs).toMatchObject({
      replicaSetId: rs.r1,
      serviceId: sid,
      status: "active",
      host: sets.find((s) => s.id === rs.r1)!.endpoint!.host,
      port: 5432,
      connectionPooler: false,
    });
  });

  it("captures the initial password from the create answer as a secret output", () => {
    const db = cloud.stack.resource("db");
    const password = String(db.outputs.password);
    expect(password.length).toBeGreaterThanOrEqual(8);
    expect(db.secretOutputs).toContain("password");
    expect(cloud.stack.plaintextState().includes(password)).toBe(false);
    expect(cloud.stack.pluginStderr().includes(password)).toBe(false);
    expect(cloud.stack.outputs().password).toBe(password);
  });

  it("sends no write request on a second up without changes", async () => {
    await cloud.clearRequests();
    const r = expectNoErrors(await cloud.stack.up(stackOf(shape)));
    expect(Object.values(ops(r))).toEqual(["same", "same", "same", "same", "same"]);
    expect(await sent(cloud)).toEqual([]);
  });

  type Case = [string, (s: Shape) => Shape, "db" | "r1" | "r2", () => string[], () => Promise<void>];
  const svc = (rest: string) => `POST /services/${sid}/${rest}`;
  const set = (n: "r1" | "r2", rest: string) => `POST /services/${sid}/replicaSets/${rs[n]}/${rest}`;
  const live = () => cloud.api.perform("getService", { service: sid });
  const liveSet = async (n: "r1" | "r2") =>
    (await cloud.api.perform("listReplicaSets", { service: sid })).items.find((s) => s.id === rs[n])!;
  const cases: Case[] = [
    [
      "a resize",
      (s) => ({ ...s, db: { ...s.db, cpuMillis: 1000, memoryGbs: 4 } }),
      "db",
      () => [svc("resize")],
      async () => {
        expect((await live()).resources![0].spec).toMatchObject({ cpu_millis: 1000, memory_gbs: 4 });
        expect(cloud.stack.resource("db").outputs).toMatchObject({ cpuMillis: 1000, memoryGbs: 4 });
      },
    ],
    [
      "an HA change",
      (s) => ({ ...s, db: { ...s.db, haReplicas: { replicaCount: 1, syncReplicaCount: 0 } } }),
      "db",
      () => [svc("setHA")],
      async () => {
        expect((await live()).ha_replicas).toEqual({ replica_count: 1, sync_replica_count: 0 });
        expect(cloud.stack.resource("db").outputs.haReplicas).toEqual({ replicaCount: 1, syncReplicaCount: 0 });
      },
    ],
    [
      "an environment change",
      (s) => ({ ...s, db: { ...s.db, environment: "PROD" } }),
      "db",
      () => [svc("setEnvironment")],
      async () => {
        expect((await live()).metadata?.environment).toBe("PROD");
        expect(cloud.stack.resource("db").outputs.environment).toBe("PROD");
      },
    ],
    [
      "turning the pooler off",
      (s) => ({ ...s, db: { ...s.db, connectionPooler: false } }),
      "db",
      () => [svc("disablePooler")],
      async () => {
        expect((await live()).connection_pooler).toBeUndefined();
        const outs = cloud.stack.resource("db").outputs;
        expect(outs.connectionPooler).toBe(false);
        expect(outs).not.toHaveProperty("poolerHost");
        expect(outs).not.toHaveProperty("poolerPort");
      },
    ],
    [
      "turning the pooler on",
      (s) => ({ ...s, db: { ...s.db, connectionPooler: true } }),
      "db",
      () => [svc("enablePooler")],
      async () => {
        expect((await live()).connection_pooler?.endpoint?.port).toBe(6432);
        expect(cloud.stack.resource("db").outputs).toMatchObject({ connectionPooler: true, poolerPort: 6432 });
      },
    ],
    [
      "a move to another VPC",
      (s) => ({ ...s, db: { ...s.db, vpc: "b" } }),
      "db",
      () => [svc("detachFromVPC"), svc("attachToVPC")],
      async () => {
        const b = cloud.stack.resource("net-b").id;
        expect((await live()).vpcEndpoint).toMatchObject({ vpc_id: b });
        expect(cloud.stack.resource("db").outputs).toMatchObject({ vpcId: b, vpcEndpoint: { vpc_id: b } });
      },
    ],
    [
      "leaving the VPC",
      (s) => ({ ...s, db: { ...s.db, vpc: undefined } }),
      "db",
      () => [svc("detachFromVPC")],
      async () => {
        expect((await live()).vpcEndpoint ?? undefined).toBeUndefined();
        expect(cloud.stack.resource("db").outputs).not.toHaveProperty("vpcId");
        expect(cloud.stack.resource("db").outputs).not.toHaveProperty("vpcEndpoint");
      },
    ],
    [
      "a new password",
      (s) => ({ ...s, db: { ...s.db, password: "correct-horse-battery" } }),
      "db",
      () => [svc("updatePassword")],
      async () => {
        const db = cloud.stack.resource("db");
        expect(db.outputs.password).toBe("correct-horse-battery");
        expect(db.secretOutputs).toContain("password");
        expect(cloud.stack.plaintextState().includes("correct-horse-battery")).toBe(false);
        expect(cloud.stack.pluginStderr().includes("correct-horse-battery")).toBe(false);
      },
    ],
    [
      "pausing",
      (s) => ({ ...s, db: { ...s.db, paused: true } }),
      "db",
      () => [svc("stop")],
      async () => {
        expect((await live()).status).toBe("PAUSED");
        expect(cloud.stack.resource("db").outputs).toMatchObject({ paused: true, status: "PAUSED" });
      },
    ],
    [
      "resuming",
      (s) => ({ ...s, db: { ...s.db, paused: false } }),
      "db",
      () => [svc("start")],
      async () => {
        expect((await live()).status).toBe("READY");
        expect(cloud.stack.resource("db").outputs).toMatchObject({ paused: false, status: "READY" });
      },
    ],
    [
      "a replica set resize",
      (s) => ({ ...s, r1: { ...s.r1, cpuMillis: 1000, memoryGbs: 4 } }),
      "r1",
      () => [set("r1", "resize")],
      async () => {
        expect(await liveSet("r1")).toMatchObject({ status: "active", nodes: 1, cpu_millis: 1000, memory_gbs: 4 });
        expect(cloud.stack.resource("r1").outputs).toMatchObject({ nodes: 1, cpuMillis: 1000, memoryGbs: 4 });
      },
    ],
    [
      "a replica set node count",
      (s) => ({ ...s, r1: { ...s.r1, nodes: 3 } }),
      "r1",
      () => [set("r1", "resize")],
      async () => {
        expect(await liveSet("r1")).toMatchObject({ status: "active", nodes: 3, cpu_millis: 1000, memory_gbs: 4 });
        expect(cloud.stack.resource("r1").outputs.nodes).toBe(3);
      },
    ],
    [
      "a replica set environment",
      (s) => ({ ...s, r2: { ...s.r2, environment: "PROD" } }),
      "r2",
      () => [set("r2", "setEnvironment")],
      async () => {
        expect((await liveSet("r2")).metadata?.environment).toBe("PROD");
        expect(cloud.stack.resource("r2").outputs.environment).toBe("PROD");
      },
    ],
    [
      "turning a replica set's pooler on",
      (s) => ({ ...s, r2: { ...s.r2, connectionPooler: true } }),
      "r2",
      () => [set("r2", "enablePooler")],
      async () => {
        const got = await liveSet("r2");
        expect(got.connection_pooler?.endpoint?.port).toBe(6432);
        expect(cloud.stack.resource("r2").outputs).toMatchObject({
          connectionPooler: true,
          poolerHost: got.connection_pooler!.endpoint!.host,
          poolerPort: 6432,
        });
      },
    ],
    [
      "turning a replica set's pooler off",
      (s) => ({ ...s, r2: { ...s.r2, connectionPooler: false } }),
      "r2",
      () => [set("r2", "disablePooler")],
      async () => {
        expect((await liveSet("r2")).connection_pooler ?? undefined).toBeUndefined();
        expect(cloud.stack.resource("r2").outputs).not.toHaveProperty("poolerHost");
      },
    ],
  ];

  it.each(cases)("applies %s in place with exactly its own write request", async (_what, change, name, expected, verify) => {
    shape = change(shape);
    const ids = Object.fromEntries(cloud.stack.resources().map((r) => [r.name, r.id]));
    const preview = expectNoErrors(await cloud.stack.preview(stackOf(shape)));
    expect(ops(preview)[name]).toBe("update");
    await cloud.clearRequests();
    const r = expectNoErrors(await cloud.stack.up(stackOf(shape)));
    const all = { "net-a": "same", "net-b": "same", db: "same", r1: "same", r2: "same" };
    expect(ops(r)).toEqual({ ...all, [name]: "update" });
    expect(Object.fromEntries(cloud.stack.resources().map((x) => [x.name, x.id]))).toEqual(ids);
    expect(await sent(cloud)).toEqual(expected());
    await verify();
    await cloud.clearRequests();
    const again = expectNoErrors(await cloud.stack.up(stackOf(shape)));
    expect(ops(again)[name]).toBe("same");
    expect(await sent(cloud)).toEqual([]);
  });

  it("applies several changes in one update, resuming first and pausing last", async () => {
    shape = { ...shape, db: { ...shape.db, paused: true } };
    expectNoErrors(await cloud.stack.up(stackOf(shape)));
    shape = {
      ...shape,
      db: { ...shape.db, paused: true, cpuMillis: 2000, memoryGbs: 8, environment: "DEV", vpc: "a", connectionPooler: false },
    };
    await cloud.clearRequests();
    const r = expectNoErrors(await cloud.stack.up(stackOf(shape)));
    expect(ops(r).db).toBe("update");
    expect(await sent(cloud)).toEqual([
      `POST /services/${sid}/start`,
      `POST /services/${sid}/resize`,
      `POST /services/${sid}/setEnvironment`,
      `POST /services/${sid}/disablePooler`,
      `POST /services/${sid}/attachToVPC`,
      `POST /services/${sid}/stop`,
    ]);
    const got = await cloud.api.perform("getService", { service: sid });
    expect(got).toMatchObject({
      status: "PAUSED",
      metadata: { environment: "DEV" },
      vpcEndpoint: { vpc_id: cloud.stack.resource("net-a").id },
    });
    expect(got.resources![0].spec).toMatchObject({ cpu_millis: 2000, memory_gbs: 8 });
    expect(got.connection_pooler).toBeUndefined();
    shape = { ...shape, db: { ...shape.db, paused: false } };
    expectNoErrors(await cloud.stack.up(stackOf(shape)));
    expect((await cloud.api.perform("getService", { service: sid })).status).toBe("READY");
  });

  it("shows an out-of-band resize and environment change on refresh, and the next up puts them back", async () => {
    await cloud.api.perform("resizeService", { service: sid, body: { cpu_millis: "4000", memory_gbs: "16" } });
    await cloud.api.waitForService(sid, { until: ["READY"], timeoutMs: 10_000 });
    await cloud.api.perform("setServiceEnvironment", { service: sid, body: { environment: "PROD" } });
    // r2 asks for PROD (r1 leaves its environment to the API, so it is not managed).
    await cloud.api.perform("setReplicaSetEnvironment", { service: sid, replicaSet: rs.r2, body: { environment: "DEV" } });
    const password = cloud.stack.resource("db").outputs.password;
    const outputsOf = (name: string) => cloud.stack.resource(name).outputs;
    const untouched = Object.fromEntries(["net-a", "net-b", "r1"].map((n) => [n, outputsOf(n)]));
    const refreshed = expectNoErrors(await cloud.stack.refresh());
    expect(Object.fromEntries(refreshed.steps.map((s) => [s.name, s.op]))).toMatchObject({
      db: "refresh-update",
      r2: "refresh-update",
    });
    for (const [name, outs] of Object.entries(untouched)) expect(outputsOf(name)).toEqual(outs);
    const db = cloud.stack.resource("db");
    expect(db.outputs).toMatchObject({ cpuMillis: 4000, memoryGbs: 16, environment: "PROD" });
    expect(db.outputs.password).toBe(password);
    expect(db.secretOutputs).toContain("password");
    expect(cloud.stack.resource("r2").outputs.environment).toBe("DEV");

    // The replica sets are not shown as replaced: serviceId is the service's id, known in
    // a preview of its update.
    const preview = expectNoErrors(await cloud.stack.preview(stackOf(shape)));
    expect(ops(preview)).toMatchObject({ db: "update", r1: "same", r2: "update" });
    await cloud.clearRequests();
    const r = expectNoErrors(await cloud.stack.up(stackOf(shape)));
    expect(ops(r)).toMatchObject({ db: "update", r1: "same", r2: "update" });
    expect((await sent(cloud)).sort()).toEqual(
      [
        `POST /services/${sid}/resize`,
        `POST /services/${sid}/setEnvironment`,
        `POST /services/${sid}/replicaSets/${rs.r2}/setEnvironment`,
      ].sort(),
    );
    const got = await cloud.api.perform("getService", { service: sid });
    expect(got.resources![0].spec).toMatchObject({ cpu_millis: 2000, memory_gbs: 8 });
    expect(got.metadata?.environment).toBe("DEV");
    expect((await cloud.api.perform("listReplicaSets", { service: sid })).items.find((s) => s.id === rs.r2)!.metadata?.environment).toBe(
      "PROD",
    );
    expect(cloud.stack.resource("db").outputs.password).toBe(password);
  });

  it("destroys the replica sets, then the service (waiting until it is gone), then the VPCs", async () => {
    const attachedTo = (cloud.stack.resource("db").outputs.vpcId as string | undefined) ?? "none";
    const dependsOn = cloud.stack.resources().filter((x) => cloud.stack.resource("db").dependencies.includes(x.urn));
    const r = expectNoErrors(await cloud.stack.destroy());
    const order = r.steps.map((s) => s.name);
    expect(order.sort()).toEqual(["db", "net-a", "net-b", "r1", "r2"].sort());
    const done = r.steps.map((s) => s.name);
    expect(done.indexOf("db")).toBeGreaterThan(Math.max(done.indexOf("r1"), done.indexOf("r2")));
    // Deletes run in parallel: a VPC goes after the service only if the service uses it.
    for (const vpc of dependsOn) expect(done.indexOf("db")).toBeLessThan(done.indexOf(vpc.name));
    expect(attachedTo === "none" || dependsOn.some((x) => x.id === attachedTo)).toBe(true);
    await expect(cloud.api.perform("getService", { service: sid, fresh: true })).rejects.toMatchObject({ status: 404 });
    expect((await cloud.api.perform("listServices")).items).toEqual([]);
    expect((await cloud.api.perform("listVpcs")).items).toEqual([]);
  });
});

describe("Service and ReadReplicaSet: replacements, passwords, forks, adoption", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.close();
  });

  const solo =
    (db: Partial<clouddb.ServiceArgs> = {}, rr: Partial<clouddb.ReadReplicaSetArgs> & { onOther?: boolean } = {}) =>
    () => {
      const other = new clouddb.Service("other", { name: "other" });
      const svc = new clouddb.Service("db", { name: "solo", ...db });
      const { onOther, ...setArgs } = rr;
      const set = new clouddb.ReadReplicaSet("rr", {
        serviceId: onOther ? other.serviceId : svc.serviceId,
        name: "rr-set",
        nodes: 1,
        cpuMillis: 500,
        memoryGbs: 2,
        ...setArgs,
      });
      return { serviceId: svc.serviceId, password: svc.password, replicaSetId: set.replicaSetId };
    };

  it("creates a service with a given password, applying it after create", async () => {
    await cloud.clearRequests();
    const r = expectNoErrors(await cloud.stack.up(solo({ password: "given-password-1" })));
    expect(ops(r)).toEqual({ other: "create", db: "create", rr: "create" });
    const id = cloud.stack.resource("db").id;
    const log = await sent(cloud);
    expect(log.filter((w) => w.includes(id) || w === "POST /services")).toEqual(
      expect.arrayContaining([`POST /services/${id}/updatePassword`]),
    );
    expect(log.indexOf(`POST /services/${id}/updatePassword`)).toBeGreaterThan(log.indexOf("POST /services"));
    expect(cloud.stack.resource("db").outputs.password).toBe("given-password-1");
    expect(cloud.stack.plaintextState().includes("given-password-1")).toBe(false);
  });

  it("keeps a given password across a refresh, secret", async () => {
    const before = cloud.stack.resource("db").outputs;
    expectNoErrors(await cloud.stack.refresh());
    const db = cloud.stack.resource("db");
    expect(db.outputs).toEqual(before);
    expect(db.outputs.password).toBe("given-password-1");
    expect(db.secretOutputs).toContain("password");
    // Neither the given nor an initial password shows in the refreshed state.
    const initial = String(cloud.stack.resource("other").outputs.password);
    expect(cloud.stack.resource("other").secretOutputs).toContain("password");
    expect(cloud.stack.plaintextState().includes("given-password-1")).toBe(false);
    expect(cloud.stack.plaintextState().includes(initial)).toBe(false);
    await cloud.clearRequests();
    const r = expectNoErrors(await cloud.stack.up(solo({ password: "given-password-1" })));
    expect(ops(r).db).toBe("same");
    expect(await sent(cloud)).toEqual([]);
  });

  const replaceCases: Array<[string, Partial<clouddb.ServiceArgs>]> = [
    ["name", { name: "solo-renamed" }],
    ["serviceType", { serviceType: "RELATIONAL" }],
    ["regionCode", { regionCode: "eu-west-1" }],
  ];
  it.each(replaceCases)("replaces the service (and its replica set) when %s changes", async (property, args) => {
    const oldId = cloud.stack.resource("db").id;
    const oldSet = cloud.stack.resource("rr").id;
    const preview = expectNoErrors(await cloud.stack.preview(solo(args)));
    expect(ops(preview)).toMatchObject({ db: "replace,delete-replaced", rr: "replace,delete-replaced" });
    const r = expectNoErrors(await cloud.stack.up(solo(args)));
    expect(ops(r)).toEqual({ other: "same", db: "replace,delete-replaced", rr: "replace,delete-replaced" });
    const newId = cloud.stack.resource("db").id;
    expect(newId).not.toBe(oldId);
    await expect(cloud.api.perform("getService", { service: oldId, fresh: true })).rejects.toMatchObject({ status: 404 });
    const live = await cloud.api.perform("getService", { service: newId });
    expect(live.status).toBe("READY");
    const want: Record<string, unknown> = {
      name: live.name,
      serviceType: live.service_type,
      regionCode: live.region_code,
    };
    expect(want[property]).toBe(Object.values(args)[0]);
    expect((await cloud.api.perform("listReplicaSets", { service: newId })).items.map((s) => s.id)).toEqual([
      cloud.stack.resource("rr").id,
    ]);
    expect(cloud.stack.resource("rr").id).not.toBe(oldSet);
    // A new service has a new initial password.
    expect(cloud.stack.resource("db").outputs.password).toEqual(expect.any(String));
  });

  it("replaces only the replica set when its name changes", async () => {
    const args = { regionCode: "eu-west-1" };
    const dbId = cloud.stack.resource("db").id;
    const oldSet = cloud.stack.resource("rr").id;
    const r = expectNoErrors(await cloud.stack.up(solo(args, { name: "rr-renamed" })));
    expect(ops(r)).toEqual({ other: "same", db: "same", rr: "replace,delete-replaced" });
    const sets = (await cloud.api.perform("listReplicaSets", { service: dbId })).items;
    expect(sets.map((s) => [s.id, s.name])).toEqual([[cloud.stack.resource("rr").id, "rr-renamed"]]);
    expect(sets[0].id).not.toBe(oldSet);
  });

  it("replaces only the replica set when its serviceId changes", async () => {
    const args = { regionCode: "eu-west-1" };
    const dbId = cloud.stack.resource("db").id;
    const otherId = cloud.stack.resource("other").id;
    const r = expectNoErrors(await cloud.stack.up(solo(args, { name: "rr-renamed", onOther: true })));
    expect(ops(r)).toEqual({ other: "same", db: "same", rr: "replace,delete-replaced" });
    expect((await cloud.api.perform("listReplicaSets", { service: dbId })).items).toEqual([]);
    expect((await cloud.api.perform("listReplicaSets", { service: otherId })).items.map((s) => s.id)).toEqual([
      cloud.stack.resource("rr").id,
    ]);
    expect(cloud.stack.resource("rr").outputs.serviceId).toBe(otherId);
  });

  it("replaces the service when forkFrom is set or changes, each fork with its own password", async () => {
    const source = cloud.stack.resource("other");
    const before = cloud.stack.resource("db");
    const fork = (strategy: "LAST_SNAPSHOT" | "NOW") =>
      solo({ forkFrom: { serviceId: source.id, strategy } }, { onOther: true, name: "rr-renamed" });
    const r = expectNoErrors(await cloud.stack.up(fork("NOW")));
    expect(ops(r)).toEqual({ other: "same", db: "replace,delete-replaced", rr: "same" });
    const forked = cloud.stack.resource("db");
    expect(forked.id).not.toBe(before.id);
    expect(forked.outputs.forkedFrom).toEqual({ serviceId: source.id, projectId: cloud.emulator.projectId, isStandby: false });
    expect(forked.outputs.password).not.toBe(source.outputs.password);
    expect(forked.outputs.regionCode).toBe("us-east-1");
    const again = expectNoErrors(await cloud.stack.up(fork("NOW")));
    expect(ops(again).db).toBe("same");
    const changed = expectNoErrors(await cloud.stack.up(fork("LAST_SNAPSHOT")));
    expect(ops(changed).db).toBe("replace,delete-replaced");
    expect(cloud.stack.resource("db").id).not.toBe(forked.id);
  });

  it("forks with each strategy, PITR at a time between the source's creation and now", async () => {
    const source = cloud.stack.resource("other");
    const created = Date.parse(String(source.outputs.created));
    const targetTime = new Date(created + Math.floor((Date.now() - created) / 2)).toISOString();
    const program = () => {
      new clouddb.Service("other", { name: "other" });
      const forks = (["LAST_SNAPSHOT", "NOW", "PITR"] as const).map(
        (strategy) =>
          new clouddb.Service(`fork-${strategy}`, {
            name: `fork-${strategy.toLowerCase()}`,
            forkFrom: { serviceId: source.id, strategy, ...(strategy === "PITR" ? { targetTime } : {}) },
          }),
      );
      return Object.fromEntries(forks.map((f, i) => [`f${i}`, f.serviceId]));
    };
    const r = expectNoErrors(await cloud.stack.up(program));
    expect(ops(r)).toEqual({
      other: "same",
      "fork-LAST_SNAPSHOT": "create",
      "fork-NOW": "create",
      "fork-PITR": "create",
      db: "delete",
      rr: "delete",
    });
    const passwords = new Set<string>([String(source.outputs.password)]);
    for (const strategy of ["LAST_SNAPSHOT", "NOW", "PITR"]) {
      const f = cloud.stack.resource(`fork-${strategy}`);
      const live = await cloud.api.perform("getService", { service: f.id });
      expect(live).toMatchObject({ status: "READY", name: `fork-${strategy.toLowerCase()}`, forked_from: { service_id: source.id } });
      expect(f.outputs.forkedFrom).toMatchObject({ serviceId: source.id });
      expect(f.outputs.forkFrom).toMatchObject({ serviceId: source.id, strategy });
      expect(f.secretOutputs).toContain("password");
      passwords.add(String(f.outputs.password));
    }
    expect(passwords.size).toBe(4);
    expectNoErrors(await cloud.stack.destroy());
  });

  it("creates a service with every in-place setting at once, one action each, pausing last", async () => {
    const program = () => {
      const net = new clouddb.Vpc("net", { name: "all-net", cidr: "10.30.0.0/16", regionCode: "us-east-1" });
      const db = new clouddb.Service("full", {
        name: "full",
        serviceType: "RELATIONAL",
        cpuMillis: 2000,
        memoryGbs: 8,
        haReplicas: { replicaCount: 2, syncReplicaCount: 1 },
        environment: "PROD",
        connectionPooler: true,
        vpcId: net.vpcId,
        password: "all-at-once-pw",
        paused: true,
      });
      return { id: db.serviceId };
    };
    await cloud.clearRequests();
    const r = expectNoErrors(await cloud.stack.up(program));
    expect(ops(r)).toEqual({ net: "create", full: "create" });
    const id = cloud.stack.resource("full").id;
    expect((await sent(cloud)).filter((w) => w !== "POST /vpcs")).toEqual([
      "POST /services",
      `POST /services/${id}/setHA`,
      `POST /services/${id}/enablePooler`,
      `POST /services/${id}/attachToVPC`,
      `POST /services/${id}/updatePassword`,
      `POST /services/${id}/stop`,
    ]);
    const live = await cloud.api.perform("getService", { service: id });
    expect(live).toMatchObject({
      status: "PAUSED",
      service_type: "RELATIONAL",
      ha_replicas: { replica_count: 2, sync_replica_count: 1 },
      metadata: { environment: "PROD" },
      vpcEndpoint: { vpc_id: cloud.stack.resource("net").id },
    });
    expect(live.resources![0].spec).toMatchObject({ cpu_millis: 2000, memory_gbs: 8 });
    expect(cloud.stack.resource("full").outputs).toMatchObject({
      paused: true,
      status: "PAUSED",
      password: "all-at-once-pw",
      poolerPort: 6432,
    });
    await cloud.clearRequests();
    expect(ops(expectNoErrors(await cloud.stack.up(program)))).toEqual({ net: "same", full: "same" });
    expect(await sent(cloud)).toEqual([]);
    expectNoErrors(await cloud.stack.destroy());
  });

  it("adopts an existing service with adoptId, then manages it in place", async () => {
    const made = await cloud.api.perform("createService", { body: { name: "made-by-hand" } });
    await cloud.api.waitForService(made.service_id, { until: ["READY"], timeoutMs: 10_000 });
    const program = (env: "DEV" | "PROD") => () => {
      const db = new clouddb.Service("adopted", { name: "made-by-hand", adoptId: made.service_id, environment: env });
      return { id: db.serviceId };
    };
    await cloud.clearRequests();
    const r = expectNoErrors(await cloud.stack.up(program("DEV")));
    expect(ops(r)).toEqual({ adopted: "create" });
    expect(cloud.stack.resource("adopted").id).toBe(made.service_id);
    expect(await sent(cloud)).toEqual([]);
    expect(cloud.stack.resource("adopted").outputs).not.toHaveProperty("password");
    const changed = expectNoErrors(await cloud.stack.up(program("PROD")));
    expect(ops(changed)).toEqual({ adopted: "update" });
    expect((await cloud.api.perform("getService", { service: made.service_id })).metadata?.environment).toBe("PROD");
    expect((await cloud.api.perform("listServices")).items.length).toBe(1);
    expectNoErrors(await cloud.stack.destroy());
  });
});

describe("check", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.close();
  });

  const service = (args: Partial<clouddb.ServiceArgs>) => () => {
    new clouddb.Service("db", { name: "checked", ...args });
  };
  const replicaSet = (args: Partial<clouddb.ReadReplicaSetArgs>) => () => {
    new clouddb.ReadReplicaSet("rr", {
      serviceId: "abcdefghij",
      name: "checked",
      nodes: 1,
      cpuMillis: 500,
      memoryGbs: 2,
      ...args,
    });
  };
  const cases: Array<[string, () => () => void, string, RegExp]> = [
    [
      "a CPU/memory pair that is not allowed",
      () => service({ cpuMillis: 1000, memoryGbs: 2 }),
      "memoryGbs",
      /1000.*2.*not an allowed pair.*shared\/shared, 500\/2, 1000\/4, 2000\/8/,
    ],
    ["a CPU without memory", () => service({ cpuMillis: 1000 }), "memoryGbs", /expected both or neither/],
    [
      "a sync replica count above the replica count",
      () => service({ haReplicas: { replicaCount: 1, syncReplicaCount: 2 } }),
      "haReplicas.syncReplicaCount",
      /at most haReplicas\.replicaCount \(1\)/,
    ],
    ["three HA replicas", () => service({ haReplicas: { replicaCount: 3 } }), "haReplicas.replicaCount", /0 to 2/],
    ["an unknown environment", () => service({ environment: "STAGING" as "DEV" }), "environment", /"STAGING".*"DEV" or "PROD"/],
    ["an unknown service type", () => service({ serviceType: "GRAPH" as "VECTOR" }), "serviceType", /"GRAPH".*TIMESERIES/],
    [
      "a bad fork strategy",
      () => service({ forkFrom: { serviceId: "abcdefghij", strategy: "LATER" as "NOW" } }),
      "forkFrom.strategy",
      /"LATER".*LAST_SNAPSHOT/,
    ],
    [
      "PITR without a target time",
      () => service({ forkFrom: { serviceId: "abcdefghij", strategy: "PITR" } }),
      "forkFrom.targetTime",
      /PITR needs a target time/,
    ],
    // A secret property is named only in the reason: Pulumi prints the value of a property a failure names.
    ["a short password, without quoting it", () => service({ password: "short" }), "", /^password is \[secret\]: expected at least 8/],
    ["a replica set of 11 nodes", () => replicaSet({ nodes: 11 }), "nodes", /11.*1 to 10/],
    [
      "a shared replica set",
      () => replicaSet({ cpuMillis: "shared" as unknown as number, memoryGbs: "shared" as unknown as number }),
      "cpuMillis",
      /500, 1000/,
    ],
    [
      "a replica set pair that is not allowed",
      () => replicaSet({ cpuMillis: 500, memoryGbs: 4 }),
      "memoryGbs",
      /not an allowed pair.*500\/2/,
    ],
    ["a replica set environment that is unknown", () => replicaSet({ environment: "QA" as "DEV" }), "environment", /"QA"/],
  ];
  it.each(cases)("rejects %s naming the property, and sends nothing", async (_what, program, property, reason) => {
    await cloud.clearRequests();
    const r = await cloud.stack.up(program());
    expect(r.checkFailures.map((f) => f.property)).toEqual(expect.arrayContaining([property]));
    expect(r.checkFailures.find((f) => f.property === property)!.reason).toMatch(reason);
    expect(await cloud.requests()).toEqual([]);
    expect(cloud.stack.resources()).toEqual([]);
  });
});

describe("partial failures", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    // Slow enough that the test can act while a create is still under way (create ~1.4 s).
    cloud = await startCloud({ clockScale: 0.2 });
  });
  afterAll(async () => {
    await cloud.close();
  });

  const shaky = () => {
    const db = new clouddb.Service("db", { name: "shaky", timeouts: { create: "20s", update: "20s" } });
    return { serviceId: db.serviceId };
  };

  it("keeps a service that turns UNSTABLE during create, naming its id, and the next up resumes it", async () => {
    const run = cloud.stack.up(shaky);
    const id = await eventually(async () => (await cloud.api.perform("listServices")).items.find((s) => s.name === "shaky")?.service_id);
    expect((await cloud.control("POST", `/services/${id}/unstable`)).status).toBe(204);
    const r = await run;
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0].message).toContain(`Service ${id}`);
    expect(r.errors[0].message).toContain("UNSTABLE");
    const db = cloud.stack.resource("db");
    expect(db.id).toBe(id);
    expect(db.initFailed).toBe(true);
    const password = String(db.outputs.password);
    expect(password.length).toBeGreaterThanOrEqual(8);
    expect(db.secretOutputs).toContain("password");
    expect(cloud.stack.plaintextState().includes(password)).toBe(false);
    expect(r.errors[0].message).not.toContain(password);

    // Still UNSTABLE: the next up reports it again and keeps it.
    const stuck = await cloud.stack.up(shaky);
    expect(stuck.errors).toHaveLength(1);
    expect(stuck.errors[0].message).toContain(id);
    expect(cloud.stack.resource("db").id).toBe(id);

    expect((await cloud.control("POST", `/services/${id}/recover`)).status).toBe(204);
    await cloud.clearRequests();
    const resumed = expectNoErrors(await cloud.stack.up(shaky));
    expect(ops(resumed)).toEqual({ db: "update" });
    expect(await sent(cloud)).toEqual([]);
    const after = cloud.stack.resource("db");
    expect(after.initFailed).toBeFalsy();
    expect(after.id).toBe(id);
    expect(after.outputs).toMatchObject({ status: "READY", password });
    expect((await cloud.api.perform("listServices")).items.map((s) => [s.service_id, s.status])).toEqual([[id, "READY"]]);
  });

  it("keeps a replica set that turns error during create, reporting the error", async () => {
    const program = () => {
      const db = new clouddb.Service("db", { name: "shaky", timeouts: { create: "20s", update: "20s" } });
      const set = new clouddb.ReadReplicaSet("rr", {
        serviceId: db.serviceId,
        name: "broken-set",
        nodes: 2,
        cpuMillis: 500,
        memoryGbs: 2,
        timeouts: { create: "20s", update: "20s" },
      });
      return { id: set.replicaSetId };
    };
    const sid = cloud.stack.resource("db").id;
    const run = cloud.stack.up(program);
    const rsId = await eventually(
      async () => (await cloud.api.perform("listReplicaSets", { service: sid })).items.find((s) => s.name === "broken-set")?.id,
    );
    expect((await cloud.control("POST", `/replica-sets/${rsId}/error`)).status).toBe(204);
    const r = await run;
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0].message).toContain(`Read replica set ${rsId}`);
    expect(r.errors[0].message).toContain("error");
    const rr = cloud.stack.resource("rr");
    expect(rr.id).toBe(rsId);
    expect(rr.initFailed).toBe(true);
    expect(rr.outputs).toMatchObject({ replicaSetId: rsId, serviceId: sid, status: "error" });

    const again = await cloud.stack.up(program);
    expect(again.errors).toHaveLength(1);
    expect(again.errors[0].message).toContain(rsId);
    expect((await cloud.api.perform("listReplicaSets", { service: sid })).items.map((s) => s.id)).toEqual([rsId]);
    expectNoErrors(await cloud.stack.destroy());
    expect((await cloud.api.perform("listServices")).items).toEqual([]);
  });

  it("keeps a service whose create outlasts its timeout, and the next up resumes waiting", async () => {
    // A cloud of its own whose create takes ~4 s: the 1.5 s timeout leaves time to send the create's
    // requests however loaded the machine (none is sent past the deadline), and still cuts the wait short.
    const slowCloud = await startCloud({ clockScale: 0.6 });
    try {
      await keptThenResumed(slowCloud);
    } finally {
      await slowCloud.close();
    }
  });

  async function keptThenResumed(cloud: Cloud): Promise<void> {
    const program = (create: string) => () => {
      new clouddb.Service("slow", { name: "slow", password: "slow-password", timeouts: { create, update: "20s" } });
    };
    const r = await cloud.stack.up(program("1500ms"));
    expect(r.errors).toHaveLength(1);
    const slow = cloud.stack.resource("slow");
    expect(slow.initFailed).toBe(true);
    expect(r.errors[0].message).toContain(`Service ${slow.id}`);
    expect(r.errors[0].message).toContain("next `pulumi up` resumes");
    await cloud.clearRequests();
    const resumed = expectNoErrors(await cloud.stack.up(program("20s")));
    expect(ops(resumed)).toEqual({ slow: "update" });
    // The given password had not been applied yet: the resumed update applies it.
    expect(await sent(cloud)).toEqual([`POST /services/${slow.id}/updatePassword`]);
    expect(cloud.stack.resource("slow").outputs).toMatchObject({ status: "READY", password: "slow-password" });
    expect((await cloud.api.perform("listServices")).items.filter((s) => s.name === "slow")).toHaveLength(1);
    const destroyed = expectNoErrors(await cloud.stack.destroy());
    expect(ops(destroyed).slow).toBe("delete");
  }
});
