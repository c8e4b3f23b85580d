/**
 * Vpc and VpcPeering through Pulumi's real dynamic-provider host, against the emulator.
 */
import * as clouddb from "pulumi-clouddb";
import { providerText } from "../../sdk/trampoline";
import { expectNoErrors, TestStack } from "../../harness";
import { ops, stackConfig, startCloud, writes, type Cloud } from "../../harness/cloud";

const net =
  (args: Partial<clouddb.VpcArgs> = {}) =>
  () => {
    const vpc = new clouddb.Vpc("net", { name: "prod-net", cidr: "10.0.0.0/16", regionCode: "us-east-1", ...args });
    return { vpcId: vpc.vpcId, name: vpc.name, cidr: vpc.cidr };
  };

describe("Vpc", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.close();
  });

  it("creates a VPC and records its outputs", async () => {
    const r = expectNoErrors(await cloud.stack.up(net()));
    expect(ops(r)).toEqual({ net: "create" });
    const live = await cloud.api.perform("getVpc", { vpc: String(r.outputs.vpcId) });
    expect(live).toMatchObject({ name: "prod-net", cidr: "10.0.0.0/16", region_code: "us-east-1" });
    expect(cloud.stack.resource("net").outputs).toMatchObject({
      vpcId: live.id,
      name: "prod-net",
      cidr: "10.0.0.0/16",
      regionCode: "us-east-1",
      projectId: cloud.emulator.projectId,
    });
  });

  it("sends no write request on a second up without changes", async () => {
    await cloud.clearRequests();
    const r = expectNoErrors(await cloud.stack.up(net()));
    expect(ops(r)).toEqual({ net: "same" });
    expect(writes(await cloud.requests())).toEqual([]);
  });

  it("finds no drift on a refresh when nothing changed, and keeps the inputs the program wrote", async () => {
    const before = cloud.stack.resource("net").inputs;
    const r = expectNoErrors(await cloud.stack.refresh());
    expect(r.steps.map((s) => s.op)).toEqual(["same"]);
    expect(cloud.stack.resource("net").inputs).toEqual(before);
  });

  it("keeps the serialized provider small and free of credentials: the SDK's text for the type, in inputs and outputs alike", () => {
    const { inputs, outputs } = cloud.stack.resource("net");
    const text = String(inputs.__provider);
    expect(text).toBe(providerText("vpc"));
    expect(outputs.__provider).toBe(text);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(512);
    expect(text).not.toContain(cloud.emulator.pat);
    expect(text).not.toContain(cloud.emulator.baseUrl);
  });

  it("renames in place", async () => {
    const id = cloud.stack.resource("net").id;
    await cloud.clearRequests();
    const r = expectNoErrors(await cloud.stack.up(net({ name: "renamed-net" })));
    expect(ops(r)).toEqual({ net: "update" });
    expect(cloud.stack.resource("net").id).toBe(id);
    expect((await cloud.api.perform("getVpc", { vpc: id })).name).toBe("renamed-net");
    expect(writes(await cloud.requests()).map((w) => `${w.method} ${w.path.replace(/.*\/vpcs/, "/vpcs")}`)).toEqual([
      `POST /vpcs/${id}/rename`,
    ]);
  });

  it("replaces on a cidr change, creating the new VPC before deleting the old", async () => {
    const oldId = cloud.stack.resource("net").id;
    const r = expectNoErrors(await cloud.stack.up(net({ name: "renamed-net", cidr: "10.1.0.0/16" })));
    expect(ops(r)).toEqual({ net: "replace,delete-replaced" });
    const newId = cloud.stack.resource("net").id;
    expect(newId).not.toBe(oldId);
    expect((await cloud.api.perform("getVpc", { vpc: newId })).cidr).toBe("10.1.0.0/16");
    await expect(cloud.api.perform("getVpc", { vpc: oldId })).rejects.toMatchObject({ status: 404 });
  });

  it("shows an out-of-band rename on refresh, and the next up puts the name back", async () => {
    const id = cloud.stack.resource("net").id;
    await cloud.api.perform("renameVpc", { vpc: id, body: { name: "changed-by-hand" } });
    const refreshed = expectNoErrors(await cloud.stack.refresh());
    expect(refreshed.steps.map((s) => s.op)).toEqual(["refresh-update"]);
    expect(cloud.stack.resource("net").outputs.name).toBe("changed-by-hand");
    expect(cloud.stack.resource("net").inputs.name).toBe("changed-by-hand");
    const preview = expectNoErrors(await cloud.stack.preview(net({ name: "renamed-net", cidr: "10.1.0.0/16" })));
    expect(ops(preview)).toEqual({ net: "update" });
    const r = expectNoErrors(await cloud.stack.up(net({ name: "renamed-net", cidr: "10.1.0.0/16" })));
    expect(ops(r)).toEqual({ net: "update" });
    expect((await cloud.api.perform("getVpc", { vpc: id })).name).toBe("renamed-net");
  });

  it("drops a VPC deleted out of band on refresh, and the next up creates it again", async () => {
    const id = cloud.stack.resource("net").id;
    await cloud.api.perform("deleteVpc", { vpc: id });
    const refreshed = expectNoErrors(await cloud.stack.refresh());
    expect(refreshed.steps.map((s) => s.op)).toEqual(["refresh-delete"]);
    expect(cloud.stack.resources()).toEqual([]);
    const r = expectNoErrors(await cloud.stack.up(net()));
    expect(ops(r)).toEqual({ net: "create" });
    expect(cloud.stack.resource("net").id).not.toBe(id);
  });

  it("looks a VPC up read-only with Vpc.get", async () => {
    const id = cloud.stack.resource("net").id;
    const r = expectNoErrors(
      await cloud.stack.up(() => {
        net()();
        const found = clouddb.Vpc.get("found", id);
        return { cidr: found.cidr, name: found.name };
      }),
    );
    expect(r.outputs).toEqual({ cidr: "10.0.0.0/16", name: "prod-net" });
    expect(cloud.stack.resources().map((x) => x.name)).toEqual(["net"]);
  });

  it("retries a delete refused while a service is attached, then names what is attached", async () => {
    const id = cloud.stack.resource("net").id;
    const svc = await cloud.api.perform("createService", { body: { name: "attached-db" } });
    await cloud.api.waitForService(svc.service_id, { until: ["READY"], timeoutMs: 10_000 });
    await cloud.api.perform("attachServiceToVpc", { service: svc.service_id, body: { vpc_id: id } });
    await cloud.stack.up(net({ timeouts: { delete: "3s" } }));
    const r = await cloud.stack.destroy();
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0].message).toContain(`VPC ${id}`);
    expect(r.errors[0].message).toContain(svc.service_id);
    expect(cloud.stack.resources().map((x) => x.name)).toEqual(["net"]);
    await cloud.api.waitForService(svc.service_id, { until: ["READY"], timeoutMs: 10_000 });
    await cloud.api.perform("detachServiceFromVpc", { service: svc.service_id, body: { vpc_id: id } });
    await cloud.api.perform("deleteService", { service: svc.service_id });
  });

  it("destroys the VPC", async () => {
    const id = cloud.stack.resource("net").id;
    const r = expectNoErrors(await cloud.stack.destroy());
    expect(ops(r)).toEqual({ net: "delete" });
    expect(cloud.stack.resources()).toEqual([]);
    await expect(cloud.api.perform("getVpc", { vpc: id })).rejects.toMatchObject({ status: 404 });
  });

  it("adopts an existing VPC with adoptId instead of creating one", async () => {
    const existing = await cloud.api.perform("createVpc", {
      body: { name: "made-by-hand", cidr: "10.9.0.0/16", region_code: "us-east-1" },
    });
    const before = (await cloud.api.perform("listVpcs")).items.length;
    const r = expectNoErrors(await cloud.stack.up(net({ adoptId: existing.id, name: "now-managed", cidr: "10.9.0.0/16" })));
    expect(ops(r)).toEqual({ net: "create" });
    expect(cloud.stack.resource("net").id).toBe(existing.id);
    expect((await cloud.api.perform("getVpc", { vpc: existing.id })).name).toBe("now-managed");
    expect((await cloud.api.perform("listVpcs")).items.length).toBe(before);
    expectNoErrors(await cloud.stack.destroy());
  });

  it("refuses to adopt a VPC whose cidr differs, naming the property", async () => {
    const existing = await cloud.api.perform("createVpc", { body: { name: "other", cidr: "10.8.0.0/16", region_code: "us-east-1" } });
    const r = await cloud.stack.up(net({ adoptId: existing.id }));
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0].message).toMatch(/cidr "10\.8\.0\.0\/16".*"10\.0\.0\.0\/16"/);
    expect(cloud.stack.resources()).toEqual([]);
    await cloud.api.perform("deleteVpc", { vpc: existing.id });
  });
});

describe("VpcPeering", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.close();
  });

  const peered = (peerAccountId: string) => () => {
    const vpc = new clouddb.Vpc("net", { name: "peered-net", cidr: "10.2.0.0/16", regionCode: "us-east-1" });
    const peer = new clouddb.VpcPeering("peer", {
      vpcId: vpc.vpcId,
      peerAccountId,
      peerRegionCode: "us-east-1",
      peerVpcId: "vpc-0abc",
    });
    return { peeringId: peer.peeringId, status: peer.status };
  };

  it("previews a peering of a VPC not yet created, with its vpcId unknown, sending nothing", async () => {
    await cloud.clearRequests();
    const r = expectNoErrors(await cloud.stack.preview(peered("123456789012")));
    expect(ops(r)).toEqual({ net: "create", peer: "create" });
    expect(await cloud.requests()).toEqual([]);
  });

  it("creates a peering and waits until it is active", async () => {
    const r = expectNoErrors(await cloud.stack.up(peered("123456789012")));
    expect(ops(r)).toEqual({ net: "create", peer: "create" });
    expect(r.outputs.status).toBe("active");
    const vpcId = cloud.stack.resource("net").id;
    const live = await cloud.api.perform("getPeering", { vpc: vpcId, peering: String(r.outputs.peeringId) });
    expect(live).toMatchObject({ status: "active", peer_account_id: "123456789012", peer_vpc_id: "vpc-0abc" });
  });

  it("replaces the peering when an input changes", async () => {
    const oldId = cloud.stack.resource("peer").id;
    const r = expectNoErrors(await cloud.stack.up(peered("210987654321")));
    expect(ops(r)).toEqual({ net: "same", peer: "replace,delete-replaced" });
    const vpcId = cloud.stack.resource("net").id;
    expect((await cloud.api.perform("listPeerings", { vpc: vpcId })).items.map((p) => p.id)).toEqual([cloud.stack.resource("peer").id]);
    expect(cloud.stack.resource("peer").id).not.toBe(oldId);
  });

  it("keeps a failed peering in state with its id, and reports it again on the next up", async () => {
    const replacedId = cloud.stack.resource("peer").id;
    const r = await cloud.stack.up(peered("invalid-account"));
    expect(r.errors).toHaveLength(1);
    const peer = cloud.stack.resource("peer");
    expect(peer.initFailed).toBe(true);
    expect(peer.id).toMatch(/^[0-9]+$/);
    expect(r.errors[0].message).toContain(`VPC peering ${peer.id} failed`);
    const vpcId = cloud.stack.resource("net").id;
    const live = await cloud.api.perform("getPeering", { vpc: vpcId, peering: peer.id });
    expect(live.status).toBe("failed");
    expect(r.errors[0].message).toContain(String(live.error_message));

    const again = await cloud.stack.up(peered("invalid-account"));
    expect(again.errors).toHaveLength(1);
    expect(again.errors[0].message).toContain(`VPC peering ${peer.id} failed`);
    expect(cloud.stack.resource("peer").id).toBe(peer.id);
    // The active peering it replaces waits, marked for deletion, for an up that gets to its
    // deletes (Pulumi stops a run at its first failed step): nothing is made twice.
    expect((await cloud.api.perform("listPeerings", { vpc: vpcId })).items.map((p) => p.id).sort()).toEqual([peer.id, replacedId].sort());
    expect(
      cloud.stack
        .resources()
        .filter((x) => x.pendingDelete)
        .map((x) => x.id),
    ).toEqual([replacedId]);
  });

  it("replaces the failed peering once the program fixes it", async () => {
    const failedId = cloud.stack.resource("peer").id;
    const r = expectNoErrors(await cloud.stack.up(peered("123456789012")));
    expect(ops(r)).toEqual({ net: "same", peer: "replace,delete-replaced,delete-replaced" });
    const vpcId = cloud.stack.resource("net").id;
    const peerings = (await cloud.api.perform("listPeerings", { vpc: vpcId })).items;
    expect(peerings.map((p) => p.id)).toEqual([cloud.stack.resource("peer").id]);
    expect(peerings[0].id).not.toBe(failedId);
  });

  it("destroys the peering before its VPC", async () => {
    const r = expectNoErrors(await cloud.stack.destroy());
    expect(r.steps.map((s) => `${s.op} ${s.name}`)).toEqual(["delete peer", "delete net"]);
    expect((await cloud.api.perform("listVpcs")).items).toEqual([]);
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

  const cases: Array<[string, Partial<clouddb.VpcArgs>, string, RegExp]> = [
    ["a cidr with host bits set", { cidr: "10.0.0.1/16" }, "cidr", /"10\.0\.0\.1\/16".*host bits zero/],
    ["a cidr prefix out of range", { cidr: "10.0.0.0/8" }, "cidr", /prefix length of \/16 to \/28, not \/8/],
    ["an unknown region", { regionCode: "mars-1" }, "regionCode", /"mars-1".*us-east-1/],
    ["an empty name", { name: "" }, "name", /1 to 128 characters/],
    ["a project id of the wrong shape", { projectId: "Nope" }, "projectId", /10 characters/],
    ["a bad timeout", { timeouts: { create: "soon" } }, "timeouts.create", /duration/],
  ];
  it.each(cases)("rejects %s naming the property, and sends nothing", async (_what, args, property, reason) => {
    await cloud.clearRequests();
    const r = await cloud.stack.up(net(args));
    expect(r.checkFailures.map((f) => f.property)).toEqual([property]);
    expect(r.checkFailures[0].reason).toMatch(reason);
    expect(await cloud.requests()).toEqual([]);
    expect(cloud.stack.resources()).toEqual([]);
  });

  it("rejects every bad peering input at once, one failure per property", async () => {
    const vpcId = (await cloud.api.perform("createVpc", { body: { name: "n", cidr: "10.3.0.0/16", region_code: "us-east-1" } })).id;
    await cloud.clearRequests();
    const r = await cloud.stack.up(() => {
      new clouddb.VpcPeering("peer", { vpcId: "not-a-number", peerAccountId: "", peerRegionCode: "mars-1", peerVpcId: vpcId });
    });
    expect(r.checkFailures.map((f) => f.property).sort()).toEqual(["peerAccountId", "peerRegionCode", "vpcId"]);
    expect(await cloud.requests()).toEqual([]);
  });

  it("fails without credentials, at check, with a message naming the config key and variable", async () => {
    const { "clouddb:apiKey": _key, ...rest } = stackConfig(cloud.emulator);
    const bare = await TestStack.create({ config: rest, env: { CLOUDDB_API_KEY: "" } });
    try {
      const r = await bare.up(net());
      expect(r.checkFailures.map((f) => f.reason)).toEqual([
        "clouddb:apiKey / CLOUDDB_API_KEY: neither is set: run `pulumi config set --secret clouddb:apiKey <key>` or set CLOUDDB_API_KEY",
      ]);
      expect(bare.resources()).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});
