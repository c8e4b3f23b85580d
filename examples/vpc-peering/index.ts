/**
 * A VPC peered with a VPC of another cloud account. Create waits until the peering is
 * `active`; if the peer cannot be reached it fails, stays in state, and each `up`
 * reports its error until the program fixes it (which replaces it).
 */
import * as pulumi from "@pulumi/pulumi";
import * as clouddb from "pulumi-clouddb";

export = async () => {
  const config = new pulumi.Config();
  const net = new clouddb.Vpc("net", { name: "shared-net", cidr: "10.20.0.0/16", regionCode: "eu-west-1" });
  const peer = new clouddb.VpcPeering("peer", {
    vpcId: net.vpcId,
    peerAccountId: config.get("peerAccountId") ?? "123456789012",
    peerRegionCode: config.get("peerRegionCode") ?? "eu-west-1",
    peerVpcId: config.get("peerVpcId") ?? "vpc-0abc1234",
  });
  return { vpcId: net.vpcId, peeringId: peer.peeringId, status: peer.status, provisionedId: peer.provisionedId };
};
