/**
 * Pulumi's options and half-failed updates on our resources, through the real plugin host
 * against the emulator: `ignoreChanges` and drift (an update sends only what changed against
 * state), `replaceOnChanges` (top-level and nested), and an update that fails half-way
 * (state records the resource as it now is, passwords included, and the next up finishes).
 */
import * as clouddb from "pulumi-clouddb";
import { expectNoErrors, type Program } from "../../harness";
import { ops, startCloud, writes, type Cloud } from "../../harness/cloud";

/** The write requests of the log as `METHOD /path` below the project. */
const sent = async (cloud: Cloud): Promise<string[]> =>
  writes(await cloud.requests()).map((w) => `${w.method} ${w.path.replace(/^\/public\/api\/v1\/projects\/[a-z0-9]+/, "")}`);

describe("updates act on what changed against state", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.close();
  });
  afterEach(async () => {
    expectNoErrors(await cloud.stack.destroy());
  });

  const service =
    (args: Partial<clouddb.ServiceArgs>, opts: { ignoreChanges?: string[] } = {}): Program =>
    () =>
      void new clouddb.Service("db", { name: "scaled", haReplicas: { replicaCount: 1 }, ...args }, opts);

  it("leaves an ignored nested property alone: an autoscaler's replica count survives an unrelated update", async () => {
    const ignore = { ignoreChanges: ["haReplicas.replicaCount"] };
    expectNoErrors(await cloud.stack.up(service({}, ignore)));
    const id = cloud.stack.resource("db").id;
    await cloud.api.perform("setServiceHA", { service: id, body: { replica_count: 2, sync_replica_count: 0 } });
    await cloud.api.waitForService(id, { until: ["READY"], timeoutMs: 10_000 });
    await cloud.clearRequests();
    const r = expectNoErrors(await cloud.stack.up(service({ environment: "PROD" }, ignore)));
    expect(ops(r)).toEqual({ db: "update" });
    expect(await sent(cloud)).toEqual([`POST /services/${id}/setEnvironment`]);
    expect((await cloud.api.perform("getService", { service: id })).ha_replicas).toMatchObject({ replica_count: 2 });
    // A refresh records the drift, and the ignored property stays as it is on the next up.
    expectNoErrors(await cloud.stack.refresh());
    await cloud.clearRequests();
    expect(ops(expectNoErrors(await cloud.stack.up(service({ environment: "PROD" }, ignore))))).toEqual({ db: "same" });
    expect(await sent(cloud)).toEqual([]);
  });

  it("does not repair drift that state does not know of, and repairs it once a refresh recorded it", async () => {
    expectNoErrors(await cloud.stack.up(service({})));
    const id = cloud.stack.resource("db").id;
    await cloud.api.perform("enableServicePooler", { service: id });
    await cloud.clearRequests();
    expectNoErrors(await cloud.stack.up(service({ environment: "PROD" })));
    expect(await sent(cloud)).toEqual([`POST /services/${id}/setEnvironment`]);
    expectNoErrors(await cloud.stack.refresh());
    await cloud.clearRequests();
    const r = expectNoErrors(await cloud.stack.up(service({ environment: "PROD" })));
    expect(ops(r)).toEqual({ db: "update" });
    expect(await sent(cloud)).toEqual([`POST /services/${id}/disablePooler`]);
  });

  it("restores a paused state it only left to apply a change: a paused service stays paused", async () => {
    expectNoErrors(await cloud.stack.up(service({})));
    const id = cloud.stack.resource("db").id;
    await cloud.api.perform("stopService", { service: id });
    await cloud.api.waitForService(id, { until: ["PAUSED"], timeoutMs: 10_000 });
    await cloud.clearRequests();
    expectNoErrors(await cloud.stack.up(service({ environment: "PROD" })));
    expect(await sent(cloud)).toEqual([`POST /services/${id}/start`, `POST /services/${id}/setEnvironment`, `POST /services/${id}/stop`]);
    expect((await cloud.api.perform("getService", { service: id })).status).toMatch(/PAUS/);
  });
});

describe("replaceOnChanges", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.close();
  });
  afterEach(async () => {
    expectNoErrors(await cloud.stack.destroy());
  });

  it("replaces on a change of a top-level property it names, in the preview too", async () => {
    const program = (cpuMillis: number, memoryGbs: number) => () =>
      void new clouddb.Service("db", { name: "sized", cpuMillis, memoryGbs }, { replaceOnChanges: ["cpuMillis"] });
    expectNoErrors(await cloud.stack.up(program(500, 2)));
    const old = cloud.stack.resource("db").id;
    expect(ops(expectNoErrors(await cloud.stack.preview(program(1000, 4))))).toEqual({ db: "replace,delete-replaced" });
    expect(ops(expectNoErrors(await cloud.stack.up(program(1000, 4))))).toEqual({ db: "replace,delete-replaced" });
    expect(cloud.stack.resource("db").id).not.toBe(old);
    await expect(cloud.api.perform("getService", { service: old })).rejects.toMatchObject({ status: 404 });
  });

  it("replaces on a change under a nested path it names, and updates in place on a change beside it", async () => {
    const program = (replicaCount: number, syncReplicaCount: number) => () =>
      void new clouddb.Service(
        "db",
        { name: "ha", haReplicas: { replicaCount, syncReplicaCount } },
        { replaceOnChanges: ["haReplicas.replicaCount"] },
      );
    expectNoErrors(await cloud.stack.up(program(2, 0)));
    const first = cloud.stack.resource("db").id;
    expect(ops(expectNoErrors(await cloud.stack.up(program(2, 1))))).toEqual({ db: "update" });
    expect(cloud.stack.resource("db").id).toBe(first);
    expect(ops(expectNoErrors(await cloud.stack.up(program(1, 1))))).toEqual({ db: "replace,delete-replaced" });
    expect(cloud.stack.resource("db").id).not.toBe(first);
  });

  it("fails at construction for a path that names no property that can change, naming what can", async () => {
    const r = await cloud.stack.up(
      () => void new clouddb.Vpc("net", { name: "n", cidr: "10.0.0.0/16", regionCode: "us-east-1" }, { replaceOnChanges: ["nmae"] }),
    );
    expect(r.errors.map((e) => e.message).join("\n")).toMatch(/clouddb.Vpc "net": replaceOnChanges "nmae".*name/s);
    expect(cloud.stack.resources()).toEqual([]);
  });
});

describe("an update that fails half-way", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.close();
  });
  afterEach(async () => {
    await cloud.controls.send("DELETE", "/faults");
    expectNoErrors(await cloud.stack.destroy());
  });

  it("records the password it set, so a program set back to the old one sets it again", async () => {
    const program = (password: string, paused: boolean) => () =>
      void new clouddb.Service("db", { name: "pw", password, paused, timeouts: { update: "10s" } });
    expectNoErrors(await cloud.stack.up(program("first-password-1", false)));
    const id = cloud.stack.resource("db").id;
    await cloud.controls.fault({ method: "POST", path: `/services/${id}/stop$`, status: 400, count: 1 });
    const failed = await cloud.stack.up(program("second-password-2", true));
    expect(failed.errors).toHaveLength(1);
    expect(failed.errors[0].message).toMatch(/failed after updatePassword/);
    expect(failed.errors[0].message).not.toContain("second-password-2");
    const db = cloud.stack.resource("db");
    expect(db.outputs.password).toBe("second-password-2");
    expect(String(db.outputs.connectionString)).toContain("second-password-2");
    expect(db.secretOutputs).toEqual(expect.arrayContaining(["password", "connectionString"]));
    expect(cloud.stack.plaintextState()).not.toContain("second-password-2");

    await cloud.clearRequests();
    const reverted = expectNoErrors(await cloud.stack.up(program("first-password-1", false)));
    expect(ops(reverted)).toEqual({ db: "update" });
    expect(await sent(cloud)).toEqual([`POST /services/${id}/updatePassword`]);
    expect(cloud.stack.resource("db").outputs.password).toBe("first-password-1");
  });

  it("records a replica set resized before its environment change failed, and the next up sends only the rest", async () => {
    const program = (nodes: number, environment: "DEV" | "PROD") => () => {
      const db = new clouddb.Service("db", { name: "with-reads" });
      new clouddb.ReadReplicaSet("reads", { serviceId: db.serviceId, name: "reads", nodes, cpuMillis: 500, memoryGbs: 2, environment });
    };
    expectNoErrors(await cloud.stack.up(program(1, "DEV")));
    const { id } = cloud.stack.resource("reads");
    const sid = cloud.stack.resource("db").id;
    await cloud.controls.fault({ method: "POST", path: `/replicaSets/${id}/setEnvironment$`, status: 400, count: 1 });
    const failed = await cloud.stack.up(program(2, "PROD"));
    expect(failed.errors.map((e) => e.message).join("\n")).toMatch(/failed after resize/);
    expect(cloud.stack.resource("reads").outputs).toMatchObject({ nodes: 2, environment: "DEV" });
    await cloud.clearRequests();
    expectNoErrors(await cloud.stack.up(program(2, "PROD")));
    expect(await sent(cloud)).toEqual([`POST /services/${sid}/replicaSets/${id}/setEnvironment`]);
  });
});

describe("customTimeouts", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    // A create takes about 4 s: long enough to outlast a short timeout (1.5 s: time for its look-alike list and its POST at
    // the pacer's first turns however loaded the machine, so that what ends it is the wait for READY).
    cloud = await startCloud({ clockScale: 0.6 });
  });
  afterAll(async () => {
    await cloud.close();
  });

  it("limits the provider's own waits, as the timeouts input does", async () => {
    const r = await cloud.stack.up(
      () => void new clouddb.Service("slow", { name: "slow" }, { customTimeouts: { create: "1500ms", delete: "45s" } }),
    );
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0].message).toMatch(/not ready/);
    // The timeout's message ends its sentence once before the next begins.
    expect(r.errors[0].message).toMatch(/in the console\. It is kept in state/);
    const slow = cloud.stack.resource("slow");
    expect(slow.initFailed).toBe(true);
    expect(slow.inputs.timeouts).toEqual({ create: "1500ms", delete: "45s" });
    expectNoErrors(await cloud.stack.destroy());
  });

  it("fails at construction for a value that is not a duration, naming it", async () => {
    const r = await cloud.stack.up(() => void new clouddb.Service("odd", { name: "odd" }, { customTimeouts: { create: "soon" } }));
    expect(r.errors.map((e) => e.message).join("\n")).toMatch(/clouddb.Service "odd": customTimeouts.create "soon" is not a duration/);
    expect(cloud.stack.resources()).toEqual([]);
  });
});
