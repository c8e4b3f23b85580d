/**
 * Creates of every type interrupted by a killed plugin: the next `up` takes over what the
 * interrupted create made instead of making it twice, and never takes over another stack's.
 * The emulator holds each create's answer back (latency), so the plugin dies after the API
 * acted and before the answer arrived.
 */
import * as clouddb from "pulumi-clouddb";
import { expectNoErrors, TestStack, until } from "../../harness";
import { stackConfig, startCloud, type Cloud, journalEntries } from "../../harness/cloud";

describe("creates interrupted by a killed plugin", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.close();
  });

  /** Runs `program` with the create matching `pathRe` held back, kills the plugin once the journal shows it, then ups again. */
  async function interruptThenUp(program: () => void, pathRe: RegExp): Promise<void> {
    await cloud.control("POST", "/latency", { ms: 700 });
    const running = cloud.stack.up(program);
    await until("the journalled create", async () =>
      journalEntries(cloud.journalDir).some((f) => f.endsWith(".json")) ? true : undefined,
    );
    await new Promise((r) => setTimeout(r, 300)); // the POST is at the API, its answer held back
    await cloud.stack.plugin.kill();
    expect((await running).errors.length).toBeGreaterThan(0);
    await cloud.control("POST", "/latency", { ms: 0 });
    await until("the create to be carried out", async () =>
      (await cloud.requests()).some((r) => r.method === "POST" && pathRe.test(r.path)) ? true : undefined,
    );
    expectNoErrors(await cloud.stack.up(program));
  }

  it("Vpc: one VPC", async () => {
    const program = () => void new clouddb.Vpc("net", { name: "interrupted-net", cidr: "10.50.0.0/16", regionCode: "us-east-1" });
    await interruptThenUp(program, /\/vpcs$/);
    expect((await cloud.api.listVpcs()).filter((v) => v.name === "interrupted-net").map((v) => v.id)).toEqual([
      cloud.stack.resource("net").id,
    ]);
    expect(journalEntries(cloud.journalDir)).toEqual([]);
  });

  it("VpcPeering: one peering", async () => {
    const program = () => {
      const net = new clouddb.Vpc("net", { name: "interrupted-net", cidr: "10.50.0.0/16", regionCode: "us-east-1" });
      new clouddb.VpcPeering("peer", { vpcId: net.vpcId, peerAccountId: "123456789012", peerRegionCode: "us-east-1", peerVpcId: "vpc-9" });
    };
    await interruptThenUp(program, /\/peerings$/);
    const vpcId = cloud.stack.resource("net").id;
    expect((await cloud.api.listPeerings(vpcId)).map((p) => p.id)).toEqual([cloud.stack.resource("peer").id]);
  });

  it("ReadReplicaSet: one set", async () => {
    const program = () => {
      const db = new clouddb.Service("db", { name: "interrupted-db" });
      new clouddb.ReadReplicaSet("rs", { serviceId: db.serviceId, name: "interrupted-rs", nodes: 1, cpuMillis: 500, memoryGbs: 2 });
    };
    expectNoErrors(await cloud.stack.up(() => void new clouddb.Service("db", { name: "interrupted-db" })));
    await interruptThenUp(program, /\/replicaSets$/);
    const sid = cloud.stack.resource("db").id;
    expect((await cloud.api.listReplicaSets(sid)).map((s) => s.id)).toEqual([cloud.stack.resource("rs").id]);
    expectNoErrors(await cloud.stack.destroy());
  });

  it("never takes over what another stack's interrupted create made", async () => {
    const program = () => void new clouddb.Service("db", { name: "same-name-two-stacks" });
    await cloud.control("POST", "/latency", { ms: 700 });
    const running = cloud.stack.up(program);
    await until("the journalled create", async () =>
      journalEntries(cloud.journalDir).some((f) => f.endsWith(".json")) ? true : undefined,
    );
    await new Promise((r) => setTimeout(r, 300));
    await cloud.stack.plugin.kill();
    await running;
    await cloud.control("POST", "/latency", { ms: 0 });
    const first = await until("the first stack's service", async () =>
      (await cloud.api.listServices()).find((s) => s.name === "same-name-two-stacks"),
    );

    const other = await TestStack.create({
      stack: "other",
      config: stackConfig(cloud.emulator),
      secretKeys: ["clouddb:apiKey"],
      env: { CLOUDDB_JOURNAL_DIR: cloud.journalDir },
    });
    try {
      expectNoErrors(await other.up(program));
      expect(other.resource("db").id).not.toBe(first.service_id);
      expectNoErrors(await other.destroy());
    } finally {
      await other.close();
    }
    // The first stack still finds its own.
    expectNoErrors(await cloud.stack.up(program));
    expect(cloud.stack.resource("db").id).toBe(first.service_id);
    expectNoErrors(await cloud.stack.destroy());
  });
});
