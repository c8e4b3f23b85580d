/**
 * The providers, through the engine (the harness) and the real plugin, against an emulator
 * that misbehaves as real APIs do: create answers lost after the API acted (a 5xx, a
 * dropped connection, a body cut short), values the client has never seen, and a server
 * clock far from ours. Each case asserts the cloud afterwards, with exact counts, and what
 * the user sees.
 */
import * as clouddb from "pulumi-clouddb";
import { expectNoErrors, printed } from "../../harness";
import { journalEntries, ops, startCloud, type Cloud } from "../../harness/cloud";

/** How many create requests (POSTs to `path`) the API received. */
async function createsSent(cloud: Cloud, path: RegExp): Promise<number> {
  return (await cloud.requests()).filter((r) => r.method === "POST" && path.test(r.path)).length;
}

describe("a cloud that misbehaves", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterEach(async () => {
    await cloud.control("DELETE", "/faults");
    await cloud.control("DELETE", "/rewrites");
    await cloud.controls.clock({ offsetMs: 0 });
    expectNoErrors(await cloud.stack.destroy());
  });
  afterAll(async () => {
    await cloud.close();
  });

  it("loses the answers of all four creates after making them: each is made once and kept in state", async () => {
    await cloud.controls.fault({ method: "POST", path: "/vpcs$", status: 503, after: true });
    await cloud.controls.fault({ method: "POST", path: "/peerings$", drop: true, after: true });
    await cloud.controls.fault({ method: "POST", path: "/services$", truncate: true });
    await cloud.controls.fault({ method: "POST", path: "/replicaSets$", status: 502, after: true });
    await cloud.clearRequests();
    // Names of their own (autonaming): what a lost answer made is recognised by them.
    const program = (): void => {
      const net = new clouddb.Vpc("net", { cidr: "10.7.0.0/16", regionCode: "us-east-1" });
      new clouddb.VpcPeering("peer", {
        vpcId: net.vpcId,
        peerAccountId: "123456789012",
        peerRegionCode: "us-east-1",
        peerVpcId: "vpc-0abc",
      });
      const db = new clouddb.Service("db", {});
      new clouddb.ReadReplicaSet("rs", { serviceId: db.serviceId, nodes: 1, cpuMillis: 500, memoryGbs: 2 });
    };
    const r = expectNoErrors(await cloud.stack.up(program));
    expect(ops(r)).toEqual({ net: "create", peer: "create", db: "create", rs: "create" });
    const ids = Object.fromEntries(["net", "peer", "db", "rs"].map((n) => [n, cloud.stack.resource(n).id]));
    // Exactly one of each in the cloud, and it is the one in state.
    expect((await cloud.api.perform("listVpcs")).items.map((v) => v.id)).toEqual([ids.net]);
    expect((await cloud.api.perform("listPeerings", { vpc: ids.net })).items.map((p) => p.id)).toEqual([ids.peer]);
    expect((await cloud.api.perform("listServices")).items.map((s) => s.service_id)).toEqual([ids.db]);
    expect((await cloud.api.perform("listReplicaSets", { service: ids.db })).items.map((s) => s.id)).toEqual([ids.rs]);
    // No create was sent twice.
    expect(await createsSent(cloud, /\/vpcs$/)).toBe(1);
    expect(await createsSent(cloud, /\/peerings$/)).toBe(1);
    expect(await createsSent(cloud, /\/services$/)).toBe(1);
    expect(await createsSent(cloud, /\/replicaSets$/)).toBe(1);
    // The service's initial password was in the answer that was cut short: the provider set one.
    const password = cloud.stack.resource("db").outputs.password;
    expect(typeof password === "string" && password.length > 0).toBe(true);
    expect(cloud.stack.plaintextState()).not.toContain(password as string);
    // And the stack is whole: a second up changes nothing.
    expect(ops(expectNoErrors(await cloud.stack.up(program)))).toEqual({ net: "same", peer: "same", db: "same", rs: "same" });
  });

  it("loses the answer of a create of a name the program chose: never takes it over unproved, names it and its adoptId", async () => {
    await cloud.controls.fault({ method: "POST", path: "/services$", status: 503, after: true });
    const named = (adoptId?: string) => () => void new clouddb.Service("db", { name: "lost-db", ...(adoptId ? { adoptId } : {}) });
    const r = await cloud.stack.up(named());
    const made = (await cloud.api.perform("listServices")).items.filter((s) => s.name === "lost-db");
    expect(made).toHaveLength(1);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0].message).toContain(`adoptId: "${made[0].service_id}"`);
    expect(cloud.stack.resources()).toEqual([]);
    expectNoErrors(await cloud.stack.up(named(made[0].service_id)));
    expect(cloud.stack.resource("db").id).toBe(made[0].service_id);
    expect(journalEntries(cloud.journalDir)).toEqual([]);
    // Adopted, it is retained: without adoptId it is the stack's own (an update that records it and sends nothing), and destroy deletes it.
    expect(ops(expectNoErrors(await cloud.stack.up(named())))).toEqual({ db: "update" });
  });

  it("meets a status it has never seen: waits through it, carries it to the outputs on refresh, and the next up resumes", async () => {
    const program = () => ({ status: new clouddb.Service("db", { name: "odd-status" }).status });
    await cloud.controls.rewrite({ path: "/services", field: "status", value: "HIBERNATING", count: 3 });
    const made = expectNoErrors(await cloud.stack.up(program));
    expect(made.outputs.status).toBe("READY");

    await cloud.controls.rewrite({ path: "/services", field: "status", value: "HIBERNATING", count: 1 });
    const refreshed = expectNoErrors(await cloud.stack.refresh());
    expect(ops(refreshed)).toEqual({ db: "refresh-update" });
    expect(cloud.stack.resource("db").outputs.status).toBe("HIBERNATING");

    const resumed = expectNoErrors(await cloud.stack.up(program));
    expect(ops(resumed).db).toBe("update");
    expect(resumed.outputs.status).toBe("READY");
    expect((await cloud.api.perform("listServices")).items.filter((s) => s.name === "odd-status")).toHaveLength(1);
  });

  it("with the server's clock an hour behind ours, takes over the service a lost create made, not an older one", async () => {
    // Services an earlier test left (its stack keeps them) are not this test's.
    const earlier = new Set((await cloud.api.perform("listServices")).items.map((s) => s.service_id));
    await cloud.controls.clock({ offsetMs: -3_600_000 });
    const older = await cloud.api.perform("createService", { body: { name: "db-0000000" } });
    await cloud.controls.clock({ advanceMs: 60_000 });
    await cloud.controls.fault({ method: "POST", path: "/services$", status: 503, after: true });
    const r = await cloud.stack.up(() => ({ id: new clouddb.Service("db", {}).serviceId }));
    expectNoErrors(r);
    const mine = cloud.stack.resource("db").id;
    expect(mine).not.toBe(older.service_id);
    const all = (await cloud.api.perform("listServices")).items.map((s) => s.service_id).filter((id) => !earlier.has(id));
    expect(all.sort()).toEqual([older.service_id, mine].sort());
    expect(printed(r)).not.toContain(cloud.emulator.pat);
    await cloud.api.perform("deleteService", { service: older.service_id });
  });
});
