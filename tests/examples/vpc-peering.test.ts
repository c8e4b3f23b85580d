/**
 * examples/vpc-peering through the real plugin host: a VPC and an active peering, a
 * previewed change of peer, the failure its README describes, destroy.
 */
import vpcPeering = require("../../examples/vpc-peering");
import { expectNoErrors } from "../../harness";
import type { Cloud } from "../../harness/cloud";
import { expectNoDrift, inventory, ops, previewWithoutWrites, example } from "./support";

const { cfg, start: startExampleCloud } = example("vpc-peering");

describe("examples/vpc-peering", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startExampleCloud();
  });
  afterAll(async () => {
    await cloud.close();
  });

  it("creates a VPC and a peering to the default peer, waiting until it is active", async () => {
    const r = expectNoErrors(await cloud.stack.up(vpcPeering));
    expect(ops(r)).toEqual({ net: "create", peer: "create" });
    expect(r.outputs).toMatchObject({ status: "active", provisionedId: expect.stringMatching(/^pcx-/) });
    const vpcId = String(r.outputs.vpcId);
    expect(await cloud.api.perform("getVpc", { vpc: vpcId })).toMatchObject({
      name: "shared-net",
      cidr: "10.20.0.0/16",
      region_code: "eu-west-1",
    });
    expect(await cloud.api.perform("getPeering", { vpc: vpcId, peering: String(r.outputs.peeringId) })).toMatchObject({
      status: "active",
      peer_account_id: "123456789012",
      peer_region_code: "eu-west-1",
      peer_vpc_id: "vpc-0abc1234",
      provisioned_id: r.outputs.provisionedId,
    });
  });

  it("changes nothing on a second up", async () => {
    await expectNoDrift(cloud, vpcPeering);
  });

  it("previews another peer VPC as a replacement of the peering", async () => {
    cloud.stack.setConfig(cfg("peerVpcId"), "vpc-0def5678");
    const r = await previewWithoutWrites(cloud, vpcPeering);
    expect(ops(r)).toEqual({ net: "same", peer: "replace,delete-replaced" });
  });

  it("reports a peer that cannot be reached (an `invalid...` account on the emulator), then recovers once fixed", async () => {
    cloud.stack.setConfig(cfg("peerAccountId"), "invalid-account");
    const failed = await cloud.stack.up(vpcPeering);
    expect(failed.errors).toHaveLength(1);
    const peer = cloud.stack.resource("peer");
    expect(peer.initFailed).toBe(true);
    expect(failed.errors[0].message).toContain(`VPC peering ${peer.id} failed`);

    cloud.stack.setConfig(cfg("peerAccountId"), "123456789012");
    const r = expectNoErrors(await cloud.stack.up(vpcPeering));
    // the replacement, then, with the other deletes, both old halves: the active peering the
    // failed replacement left pending, and the failed one
    expect(ops(r)).toEqual({ net: "same", peer: "replace,delete-replaced,delete-replaced" });
    expect(r.outputs.status).toBe("active");
    const peerings = (await cloud.api.perform("listPeerings", { vpc: String(r.outputs.vpcId) })).items;
    expect(peerings.map((p) => [p.id, p.peer_vpc_id])).toEqual([[r.outputs.peeringId, "vpc-0def5678"]]);
  });

  it("destroys the peering, then the VPC", async () => {
    const r = expectNoErrors(await cloud.stack.destroy());
    expect(r.steps.map((s) => `${s.op} ${s.name}`)).toEqual(["delete peer", "delete net"]);
    expect(await inventory(cloud)).toEqual({ services: [], vpcs: [] });
  });
});
