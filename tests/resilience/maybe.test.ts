/**
 * Answers that mean "maybe" are handled as maybe (case 2): a gateway's 504 Gateway Timeout
 * after the API acted, on the creates of all four kinds, on updates, on deletes, and on the
 * reads of a refresh. Nothing is made twice, nothing is orphaned, and the stack converges.
 */
import * as clouddb from "pulumi-clouddb";
import { expectNoErrors } from "../../harness";
import { journalEntries, ops, startCloud, type Cloud } from "../../harness/cloud";

/** How many POSTs to `path` the API answered. */
async function posts(cloud: Cloud, path: RegExp): Promise<number> {
  return (await cloud.requests()).filter((r) => r.method === "POST" && path.test(r.path)).length;
}

describe("a 504 after the API acted", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.close();
  });

  /** The resources with names of their own (autonamed), but `netName` when given. */
  const program = (size: { cpuMillis: number; memoryGbs: number }, netName?: string) => () => {
    const net = new clouddb.Vpc("net", { ...(netName ? { name: netName } : {}), cidr: "10.70.0.0/16", regionCode: "us-east-1" });
    new clouddb.VpcPeering("peer", { vpcId: net.vpcId, peerAccountId: "123456789012", peerRegionCode: "us-east-1", peerVpcId: "vpc-7" });
    const db = new clouddb.Service("db", size);
    new clouddb.ReadReplicaSet("reads", { serviceId: db.serviceId, nodes: 1, cpuMillis: 500, memoryGbs: 2 });
  };

  it("on the creates of all four kinds: each is made once, is the one in state, and no journal entry is left", async () => {
    for (const path of ["/vpcs$", "/peerings$", "/services$", "/replicaSets$"]) {
      await cloud.controls.fault({ method: "POST", path, status: 504, after: true });
    }
    await cloud.clearRequests();
    const r = expectNoErrors(await cloud.stack.up(program({ cpuMillis: 500, memoryGbs: 2 })));
    expect(ops(r)).toEqual({ net: "create", peer: "create", db: "create", reads: "create" });
    const log = await cloud.requests();
    expect(log.filter((x) => x.status === 504).length).toBe(4);
    for (const path of [/\/vpcs$/, /\/peerings$/, /\/services$/, /\/replicaSets$/]) expect(await posts(cloud, path)).toBe(1);
    const ids = Object.fromEntries(["net", "peer", "db", "reads"].map((n) => [n, cloud.stack.resource(n).id]));
    expect((await cloud.api.perform("listVpcs")).items.map((v) => v.id)).toEqual([ids.net]);
    expect((await cloud.api.perform("listPeerings", { vpc: ids.net })).items.map((p) => p.id)).toEqual([ids.peer]);
    expect((await cloud.api.perform("listServices")).items.map((s) => s.service_id)).toEqual([ids.db]);
    expect((await cloud.api.perform("listReplicaSets", { service: ids.db })).items.map((s) => s.id)).toEqual([ids.reads]);
    expect(journalEntries(cloud.journalDir)).toEqual([]);
    expect(ops(expectNoErrors(await cloud.stack.up(program({ cpuMillis: 500, memoryGbs: 2 }))))).toEqual({
      net: "same",
      peer: "same",
      db: "same",
      reads: "same",
    });
  });

  it("on the create of a name the program chose: never a second one, however often the user runs up", async () => {
    expectNoErrors(await cloud.stack.destroy());
    await cloud.clearRequests();
    await cloud.controls.fault({ method: "POST", path: "/vpcs$", status: 504, after: true });
    const named = () => void new clouddb.Vpc("net", { name: "maybe-named", cidr: "10.71.0.0/16", regionCode: "us-east-1" });
    for (let run = 0; run < 2; run++) {
      const r = await cloud.stack.up(named);
      expect(r.errors).toHaveLength(1);
      const made = (await cloud.api.perform("listVpcs")).items.filter((v) => v.name === "maybe-named");
      expect(made).toHaveLength(1);
      expect(r.errors[0].message).toContain(`adoptId: "${made[0].id}"`);
    }
    expect(await posts(cloud, /\/vpcs$/)).toBe(1);
  });
});

describe("a 504 after the API acted, on a stack that exists", () => {
  let cloud: Cloud;
  const program = (size: { cpuMillis: number; memoryGbs: number }, netName: string) => () => {
    const net = new clouddb.Vpc("net", { name: netName, cidr: "10.72.0.0/16", regionCode: "us-east-1" });
    new clouddb.VpcPeering("peer", { vpcId: net.vpcId, peerAccountId: "123456789012", peerRegionCode: "us-east-1", peerVpcId: "vpc-8" });
    const db = new clouddb.Service("db", { name: "maybe-db", ...size });
    new clouddb.ReadReplicaSet("reads", { serviceId: db.serviceId, name: "maybe-reads", nodes: 1, cpuMillis: 500, memoryGbs: 2 });
  };
  beforeAll(async () => {
    cloud = await startCloud();
    expectNoErrors(await cloud.stack.up(program({ cpuMillis: 500, memoryGbs: 2 }, "maybe-net")));
  });
  afterAll(async () => {
    await cloud.close();
  });

  it("on updates (a resize, a rename): retried, converged", async () => {
    await cloud.controls.fault({ method: "POST", path: "/resize$", status: 504, after: true });
    await cloud.controls.fault({ method: "POST", path: "/rename$", status: 504, after: true });
    await cloud.clearRequests();
    const r = expectNoErrors(await cloud.stack.up(program({ cpuMillis: 1000, memoryGbs: 4 }, "maybe-net-renamed")));
    expect(ops(r)).toMatchObject({ net: "update", db: "update" });
    const live = await cloud.api.perform("getService", { service: cloud.stack.resource("db").id, fresh: true });
    expect(live.resources?.[0]?.spec).toMatchObject({ cpu_millis: 1000, memory_gbs: 4 });
    expect((await cloud.api.perform("getVpc", { vpc: cloud.stack.resource("net").id })).name).toBe("maybe-net-renamed");
    expect((await cloud.requests()).filter((x) => x.status === 504)).toHaveLength(2);
  });

  it("on the reads of a refresh: retried as a 502 is, nothing changes", async () => {
    await cloud.controls.fault({ method: "GET", path: "/services", status: 504, count: 2 });
    await cloud.controls.fault({ method: "GET", path: "/vpcs", status: 504, count: 2 });
    const r = expectNoErrors(await cloud.stack.refresh());
    expect(r.steps.filter((s) => s.op === "refresh-delete")).toEqual([]);
    expect(cloud.stack.resources()).toHaveLength(4);
  });

  it("on the deletes of all four kinds: destroy converges and everything is gone", async () => {
    await cloud.controls.fault({ method: "DELETE", path: ".*", status: 504, after: true, count: 4 });
    await cloud.clearRequests();
    expectNoErrors(await cloud.stack.destroy());
    expect((await cloud.requests()).filter((x) => x.status === 504)).toHaveLength(4);
    expect(cloud.stack.resources()).toEqual([]);
    expect((await cloud.api.perform("listServices")).items).toEqual([]);
    expect((await cloud.api.perform("listVpcs")).items).toEqual([]);
  });
});
