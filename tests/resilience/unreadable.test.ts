/**
 * A refresh never turns a field it cannot read into a value, on any kind (issue 29, item 8):
 * a VPC's name and CIDR, a peering's peer and status shown as `null`, a pooler and a VPC
 * endpoint shown as arrays, a port written with an exponent. The refresh records what it
 * recorded before (and says which fields it kept), and the next `up` sends nothing: no
 * replacement of the VPC, the peering or the replica set, no phantom `enablePooler` or
 * `attachToVPC`. Through the real plugin host, against the emulator's rewrites.
 */
import * as clouddb from "pulumi-clouddb";
import { expectNoErrors, printed } from "../../harness";
import { ops, startCloud, writes, type Cloud } from "../../harness/cloud";

describe("a refresh of answers it cannot read", () => {
  let cloud: Cloud;
  const program = () => {
    const net = new clouddb.Vpc("net", { name: "odd-net", cidr: "10.70.0.0/16", regionCode: "us-east-1" });
    new clouddb.VpcPeering("peer", { vpcId: net.vpcId, peerAccountId: "123456789012", peerRegionCode: "us-east-1", peerVpcId: "vpc-9" });
    const db = new clouddb.Service("db", { name: "odd-db", vpcId: net.vpcId, connectionPooler: true });
    new clouddb.ReadReplicaSet("rs", {
      serviceId: db.serviceId,
      name: "odd-rs",
      nodes: 1,
      cpuMillis: 500,
      memoryGbs: 2,
      connectionPooler: true,
    });
  };
  beforeAll(async () => {
    cloud = await startCloud();
    expectNoErrors(await cloud.stack.up(program));
    expectNoErrors(await cloud.stack.refresh()); // the inputs read back are stored once
  });
  afterEach(async () => {
    await cloud.control("DELETE", "/rewrites");
  });
  afterAll(async () => {
    expectNoErrors(await cloud.stack.destroy());
    await cloud.close();
  });

  /** Refreshes, then ups, with the rewrites in place: both change nothing; returns what the refresh printed. */
  async function unchanged(): Promise<string> {
    const before = Object.fromEntries(cloud.stack.resources().map((r) => [r.name, r.outputs]));
    await cloud.clearRequests();
    const refreshed = expectNoErrors(await cloud.stack.refresh());
    expect(Object.fromEntries(cloud.stack.resources().map((r) => [r.name, r.outputs]))).toEqual(before);
    const up = expectNoErrors(await cloud.stack.up(program));
    expect(ops(up)).toEqual({ net: "same", peer: "same", db: "same", rs: "same" });
    expect(writes(await cloud.requests())).toEqual([]);
    return printed(refreshed);
  }

  /** `field` gets `value` in every answer to a GET matching `path`. */
  const rewrite = (path: string, field: string, value: unknown) =>
    cloud.controls.rewrite({ method: "GET", path, field, value, count: 1_000 });

  it("a VPC's name and CIDR, and a peering's peer account and VPC, shown as null: kept, nothing replaced", async () => {
    await rewrite("/vpcs/[0-9]+$", "cidr", null);
    await rewrite("/vpcs/[0-9]+$", "name", null);
    await rewrite("/peerings", "peer_account_id", null);
    await rewrite("/peerings", "peer_vpc_id", null);
    const said = await unchanged();
    expect(said).toMatch(/VPC \d+: the API's answer does not show `name`, `cidr` in a shape the provider can read/);
    expect(said).toMatch(/VPC peering \d+: the API's answer does not show `peer_account_id`, `peer_vpc_id`/);
  });

  it("a pooler and a VPC endpoint shown as arrays: kept, and no enablePooler or attachToVPC is sent", async () => {
    await rewrite("/services", "connection_pooler", []);
    await rewrite("/services", "vpcEndpoint", []);
    const said = await unchanged();
    expect(said).toContain("`vpcEndpoint`");
    expect(said).toContain("`connection_pooler`");
  });

  it("a port written with an exponent is read as the number, not 0", async () => {
    await rewrite("/replicaSets$", "port", "5.432e3");
    await cloud.clearRequests();
    expectNoErrors(await cloud.stack.refresh());
    const rs = cloud.stack.resource("rs").outputs;
    expect([rs.port, rs.poolerPort]).toEqual([5432, 5432]); // the answer shows the pooler's port so too
    expect(ops(expectNoErrors(await cloud.stack.up(program)))).toEqual({ net: "same", peer: "same", db: "same", rs: "same" });
    expect(writes(await cloud.requests())).toEqual([]);
  });
});
