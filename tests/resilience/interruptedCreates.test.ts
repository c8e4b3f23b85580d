/**
 * Creates of every type interrupted by a killed plugin: the next `up` takes over what the
 * interrupted create made instead of making it twice, and never takes over another stack's.
 * The emulator holds each create's answer back (support/interrupted.ts), and the plugin is
 * killed once the API's log shows the create carried out: it dies after the API acted and
 * before the answer arrived, however loaded the machine, and the journal entry holds no id. What proves that a
 * resource is the one the create made is then its name, when the name is the resource's own
 * (autonaming: the next `check` asks for the same name), and for a peering, which has no
 * name, that it appeared under the VPC since the entry listed its look-alikes. A name the
 * program chose proves nothing: the provider stops and names what it may have made.
 */
import * as fs from "fs";
import * as path from "path";
import * as clouddb from "pulumi-clouddb";
import { expectNoErrors, TestStack, until } from "../../harness";
import { stackConfig, startCloud, type Cloud, journalEntries } from "../../harness/cloud";
import { holdCreateAnswer } from "./support/interrupted";

describe("creates interrupted by a killed plugin", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud({ host: "plugin" });
  });
  afterAll(async () => {
    await cloud.close();
  });

  afterEach(() => {
    for (const f of journalEntries(cloud.journalDir)) fs.rmSync(path.join(cloud.journalDir, f));
  });

  /**
   * Runs `program` with the create matching `pathRe` held back, kills the plugin once the
   * journal shows it (and, for a peering, once the peerings were listed twice: by the journal,
   * and by the client just before it sends), then ups again.
   */
  async function interrupt(program: () => void, pathRe: RegExp, listedFirst?: RegExp): Promise<void> {
    await cloud.clearRequests();
    const carriedOut = await holdCreateAnswer(cloud.controls, pathRe);
    const running = cloud.stack.up(program);
    await until("the journalled create", async () => (journalEntries(cloud.journalDir).length > 0 ? true : undefined));
    if (listedFirst !== undefined) {
      await until("the lists before the create", async () =>
        (await cloud.requests()).filter((r) => r.method === "GET" && listedFirst.test(r.path)).length >= 2 ? true : undefined,
      );
    }
    await carriedOut(); // the POST is carried out, its answer held back
    await cloud.stack.plugin.kill();
    expect((await running).errors.length).toBeGreaterThan(0);
    await cloud.control("DELETE", "/faults");
  }

  async function interruptThenUp(program: () => void, pathRe: RegExp, listedFirst?: RegExp): Promise<void> {
    await interrupt(program, pathRe, listedFirst);
    expectNoErrors(await cloud.stack.up(program));
    expect(journalEntries(cloud.journalDir)).toEqual([]);
  }

  it("Vpc: one VPC, of the name it was sent with", async () => {
    const program = () => void new clouddb.Vpc("net", { cidr: "10.50.0.0/16", regionCode: "us-east-1" });
    await interruptThenUp(program, /\/vpcs$/);
    const net = cloud.stack.resource("net");
    expect(net.outputs.name).toMatch(/^net-[0-9a-f]{7}$/);
    expect((await cloud.api.perform("listVpcs")).items.map((v) => v.id)).toEqual([net.id]);
  });

  it("VpcPeering: one peering", async () => {
    const program = () => {
      const net = new clouddb.Vpc("net", { cidr: "10.50.0.0/16", regionCode: "us-east-1" });
      new clouddb.VpcPeering("peer", { vpcId: net.vpcId, peerAccountId: "123456789012", peerRegionCode: "us-east-1", peerVpcId: "vpc-9" });
    };
    await interruptThenUp(program, /\/peerings$/, /\/peerings$/);
    const vpcId = cloud.stack.resource("net").id;
    expect((await cloud.api.perform("listPeerings", { vpc: vpcId })).items.map((p) => p.id)).toEqual([cloud.stack.resource("peer").id]);
  });

  it("ReadReplicaSet: one set", async () => {
    const program = () => {
      const db = new clouddb.Service("db", {});
      new clouddb.ReadReplicaSet("rs", { serviceId: db.serviceId, nodes: 1, cpuMillis: 500, memoryGbs: 2 });
    };
    expectNoErrors(await cloud.stack.up(() => void new clouddb.Service("db", {})));
    await interruptThenUp(program, /\/replicaSets$/);
    const sid = cloud.stack.resource("db").id;
    expect((await cloud.api.perform("listReplicaSets", { service: sid })).items.map((s) => s.id)).toEqual([cloud.stack.resource("rs").id]);
    expectNoErrors(await cloud.stack.destroy());
  });

  it("a list that shows every item twice when the next up reads it: the one service is one candidate, and is taken over", async () => {
    const program = () => ({ name: new clouddb.Service("db", {}).name });
    await interrupt(program, /\/services$/);
    await cloud.controls.fault({ method: "GET", path: "/services$", repeat: true, count: 100 });
    try {
      expectNoErrors(await cloud.stack.up(program));
    } finally {
      await cloud.control("DELETE", "/faults");
    }
    const db = cloud.stack.resource("db");
    expect((await cloud.api.perform("listServices")).items.map((s) => s.service_id)).toEqual([db.id]);
    expect((await cloud.requests()).filter((r) => r.method === "POST" && /\/services$/.test(r.path))).toHaveLength(1);
    expectNoErrors(await cloud.stack.destroy());
  });

  it("a list that shows every item twice, and a name the program chose: the one VPC it may have made is named once", async () => {
    const program = () => void new clouddb.Vpc("twice", { name: "interrupted-twice", cidr: "10.52.0.0/16", regionCode: "us-east-1" });
    await interrupt(program, /\/vpcs$/);
    const made = (await cloud.api.perform("listVpcs")).items.filter((v) => v.name === "interrupted-twice");
    expect(made).toHaveLength(1);
    await cloud.controls.fault({ method: "GET", path: "/vpcs$", repeat: true, count: 100 });
    const r = await cloud.stack.up(program);
    await cloud.control("DELETE", "/faults");
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0].message.split(`adoptId: "${made[0].id}"`)).toHaveLength(2);
    expect(r.errors[0].message).not.toMatch(/\b2 VPCs\b/);
    await cloud.api.perform("deleteVpc", { vpc: made[0].id });
  });

  it("a name the program chose: the next up stops naming what the create may have made, and adopting it settles that", async () => {
    const program = (adoptId?: string) => () =>
      void new clouddb.Vpc("named", {
        name: "interrupted-named",
        cidr: "10.51.0.0/16",
        regionCode: "us-east-1",
        ...(adoptId ? { adoptId } : {}),
      });
    await interrupt(program(), /\/vpcs$/);
    const made = (await cloud.api.perform("listVpcs")).items.filter((v) => v.name === "interrupted-named");
    expect(made).toHaveLength(1);
    const r = await cloud.stack.up(program());
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0].message).toContain(`adoptId: "${made[0].id}"`);
    expect((await cloud.api.perform("listVpcs")).items.filter((v) => v.name === "interrupted-named")).toHaveLength(1);
    expectNoErrors(await cloud.stack.up(program(made[0].id)));
    expect(cloud.stack.resource("named").id).toBe(made[0].id);
    expect(journalEntries(cloud.journalDir)).toEqual([]);
    expectNoErrors(await cloud.stack.destroy());
  });

  it("never takes over what another stack's interrupted create made", async () => {
    for (const f of journalEntries(cloud.journalDir)) fs.rmSync(path.join(cloud.journalDir, f));
    const program = () => ({ name: new clouddb.Service("db", {}).name });
    await cloud.clearRequests();
    const carriedOut = await holdCreateAnswer(cloud.controls, /\/services$/);
    const running = cloud.stack.up(program);
    await until("the journalled create", async () => (journalEntries(cloud.journalDir).length > 0 ? true : undefined));
    await carriedOut();
    await cloud.stack.plugin.kill();
    await running;
    await cloud.control("DELETE", "/faults");
    const first = await until("the first stack's service", async () => (await cloud.api.perform("listServices")).items[0]);

    const other = await TestStack.create({
      host: "plugin",
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
    // The first stack still finds its own, by the name it was sent with.
    const r = expectNoErrors(await cloud.stack.up(program));
    expect(cloud.stack.resource("db").id).toBe(first.service_id);
    expect(r.outputs.name).toBe(first.name);
    expectNoErrors(await cloud.stack.destroy());
  });
});
