/**
 * `adoptId` under every way Pulumi replaces or deletes a resource, through the real plugin
 * host against the emulator: an adopted resource is never deleted while the program adopts
 * it (`pulumi up --replace`, `pulumi state taint`, `deleteBeforeReplace`, a
 * `replaceOnChanges` replacement, `destroy`), for all four kinds.
 */
import * as clouddb from "pulumi-clouddb";
import { expectNoErrors, printed, type Program } from "../../harness";
import { ops, startCloud, writes, type Cloud } from "../../harness/cloud";

/** The DELETE requests the emulator answered since the log was last cleared. */
async function deletes(cloud: Cloud): Promise<string[]> {
  return (await cloud.requests()).filter((r) => r.method === "DELETE").map((r) => r.path);
}

describe("an adopted Service", () => {
  let cloud: Cloud;
  let id: string;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.close();
  });
  beforeEach(async () => {
    const made = await cloud.api.perform("createService", { body: { name: "legacy" } });
    id = made.service_id;
    await cloud.api.waitForService(id, { until: ["READY"], timeoutMs: 10_000 });
  });
  afterEach(async () => {
    await cloud.stack.destroy();
    for (const s of (await cloud.api.perform("listServices")).items)
      await cloud.api.perform("deleteService", { service: s.service_id }).catch(() => undefined);
  });

  const adopting =
    (args: Partial<clouddb.ServiceArgs> = {}, opts: Record<string, unknown> = {}): Program =>
    () =>
      void new clouddb.Service("adopted", { name: "legacy", adoptId: id, ...args }, opts);

  it("survives `pulumi up --replace`: the replacement adopts it again and nothing is deleted", async () => {
    expectNoErrors(await cloud.stack.up(adopting()));
    await cloud.clearRequests();
    const r = expectNoErrors(await cloud.stack.up(adopting(), { replace: ["adopted"] }));
    expect(ops(r)).toEqual({ adopted: "replace,delete-replaced" });
    expect(await deletes(cloud)).toEqual([]);
    expect((await cloud.api.perform("getService", { service: id })).status).toBe("READY");
    expect(cloud.stack.resources().map((x) => x.id)).toEqual([id]);
  });

  it("survives `pulumi state taint` with deleteBeforeReplace: the old half is dropped, not deleted", async () => {
    expectNoErrors(await cloud.stack.up(adopting({}, { deleteBeforeReplace: true })));
    cloud.stack.taint("adopted");
    await cloud.clearRequests();
    const r = expectNoErrors(await cloud.stack.up(adopting({}, { deleteBeforeReplace: true })));
    expect(ops(r)).toEqual({ adopted: "delete-replaced,replace" });
    expect(await deletes(cloud)).toEqual([]);
    expect((await cloud.api.perform("getService", { service: id })).status).toBe("READY");
    expect(cloud.stack.resources().map((x) => x.id)).toEqual([id]);
  });

  it("survives a replacement that replaceOnChanges asks for, and is converged to the program", async () => {
    expectNoErrors(await cloud.stack.up(adopting({}, { replaceOnChanges: ["cpuMillis"] })));
    await cloud.clearRequests();
    const r = expectNoErrors(await cloud.stack.up(adopting({ cpuMillis: 1000, memoryGbs: 4 }, { replaceOnChanges: ["cpuMillis"] })));
    expect(ops(r)).toEqual({ adopted: "replace,delete-replaced" });
    expect(await deletes(cloud)).toEqual([]);
    expect((await cloud.api.perform("getService", { service: id })).resources?.[0]?.spec).toMatchObject({
      cpu_millis: 1000,
      memory_gbs: 4,
    });
  });

  it("is said to be adopted, not created, by preview and up", async () => {
    const r = expectNoErrors(await cloud.stack.preview(adopting()));
    expect(ops(r)).toEqual({ adopted: "create" });
    const said = `clouddb: Service "adopted" adopts Service ${id} (adoptId) rather than creating one`;
    expect(cloud.stack.pluginStderr()).toContain(said);
    expect(printed(expectNoErrors(await cloud.stack.up(adopting())))).toContain(said);
  });

  it("is left in the cloud by destroy, which drops it from state", async () => {
    expectNoErrors(await cloud.stack.up(adopting()));
    await cloud.clearRequests();
    const r = expectNoErrors(await cloud.stack.destroy());
    expect(ops(r)).toEqual({ adopted: "delete" });
    expect(await deletes(cloud)).toEqual([]);
    expect(cloud.stack.resources()).toEqual([]);
    expect((await cloud.api.perform("getService", { service: id })).status).toBe("READY");
    // What the CLI shows of it (the model prints no progress lines).
    if (process.env.CLOUDDB_ENGINE === "cli")
      expect(printed(r)).toMatch(/- {2}pulumi-nodejs:dynamic\/clouddb:Service adopted deleted.*\[retain\]/);
  });

  it("is the stack's own once adoptId is removed (an update that sends nothing): destroy then deletes it", async () => {
    expectNoErrors(await cloud.stack.up(adopting()));
    await cloud.clearRequests();
    const owned = expectNoErrors(await cloud.stack.up(() => void new clouddb.Service("adopted", { name: "legacy" })));
    expect(ops(owned)).toEqual({ adopted: "update" });
    expect(writes(await cloud.requests())).toEqual([]);
    expectNoErrors(await cloud.stack.destroy());
    await expect(cloud.api.perform("getService", { service: id })).rejects.toMatchObject({ status: 404 });
  });

  it("advises removing adoptId before a replacement when the adopted service turns UNSTABLE", async () => {
    expectNoErrors(await cloud.stack.up(adopting()));
    expect((await cloud.control("POST", `/services/${id}/unstable`)).status).toBe(204);
    const r = await cloud.stack.up(adopting({ environment: "PROD" }));
    const text = r.errors.map((e) => e.message).join("\n");
    expect(text).toMatch(/UNSTABLE/);
    expect(text).toMatch(/adopted \(adoptId\).*remove adoptId from the program, then run `pulumi up --replace <urn>`/s);
    expect(text).toMatch(/left in the cloud/);
    await cloud.control("POST", `/services/${id}/recover`);
  });

  it("refuses, at construction, retainOnDelete: false beside adoptId, naming both and what to do", async () => {
    const r = await cloud.stack.up(adopting({}, { retainOnDelete: false }));
    expect(r.errors.map((e) => e.message).join("\n")).toMatch(
      /clouddb.Service "adopted": adoptId.*retainOnDelete: false.*remove adoptId once/s,
    );
    expect(cloud.stack.resources()).toEqual([]);
  });
});

describe("an adopted VPC, peering and replica set", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.close();
  });

  it("survive `pulumi up --replace` of each: nothing is deleted and state holds the same ids", async () => {
    const vpc = await cloud.api.perform("createVpc", { body: { name: "legacy-net", cidr: "10.30.0.0/16", region_code: "us-east-1" } });
    const peer = { peerAccountId: "123456789012", peerRegionCode: "us-east-1", peerVpcId: "vpc-0abc1234" } as const;
    const peering = await cloud.api.perform("createPeering", {
      vpc: vpc.id,
      body: {
        peer_account_id: peer.peerAccountId,
        peer_region_code: peer.peerRegionCode,
        peer_vpc_id: peer.peerVpcId,
      },
    });
    const svc = await cloud.api.perform("createService", { body: { name: "legacy-db" } });
    await cloud.api.waitForService(svc.service_id, { until: ["READY"], timeoutMs: 10_000 });
    const set = await cloud.api.perform("createReplicaSet", {
      service: svc.service_id,
      body: { name: "legacy-reads", nodes: 1, cpu_millis: 500, memory_gbs: 2 },
    });
    await cloud.api.waitForReplicaSet(svc.service_id, set.id, { until: ["active"], timeoutMs: 10_000 });
    const program: Program = () => {
      new clouddb.Vpc("net", { name: "legacy-net", cidr: "10.30.0.0/16", regionCode: "us-east-1", adoptId: vpc.id });
      new clouddb.VpcPeering("peer", { vpcId: vpc.id, ...peer, adoptId: peering.id });
      new clouddb.ReadReplicaSet("reads", {
        serviceId: svc.service_id,
        name: "legacy-reads",
        nodes: 1,
        cpuMillis: 500,
        memoryGbs: 2,
        adoptId: set.id,
      });
    };
    expectNoErrors(await cloud.stack.up(program));
    const ids = cloud.stack
      .resources()
      .map((x) => x.id)
      .sort();
    await cloud.clearRequests();
    const r = expectNoErrors(await cloud.stack.up(program, { replace: ["net", "peer", "reads"] }));
    expect(ops(r)).toEqual({ net: "replace,delete-replaced", peer: "replace,delete-replaced", reads: "replace,delete-replaced" });
    expect(await deletes(cloud)).toEqual([]);
    expect(
      cloud.stack
        .resources()
        .map((x) => x.id)
        .sort(),
    ).toEqual(ids); // in any order: the engine records them as their registrations arrive
    expect(await cloud.api.perform("getVpc", { vpc: vpc.id })).toMatchObject({ name: "legacy-net" });
    expect(await cloud.api.perform("getPeering", { vpc: vpc.id, peering: peering.id })).toMatchObject({ peer_vpc_id: peer.peerVpcId });
    expect((await cloud.api.perform("listReplicaSets", { service: svc.service_id })).items.map((s) => s.id)).toEqual([set.id]);
  });
});
