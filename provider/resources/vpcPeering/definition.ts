/**
 * The VpcPeering resource: a peering from one of our VPCs to a VPC of another cloud
 * account. Every input replaces it. Create waits for `active`; a peering that turns
 * `failed` stays in state and its `error_message` is reported on every `up`.
 */
import { z } from "zod";
import * as rules from "../../../contract/rules";
import { hasStatusClass } from "../../../contract/statuses";
import type { Peering } from "../../client";
import type { ResourceDefinition } from "../../framework/resourceProvider";
import { kindLookups } from "../../framework/kindLookups";
import { recordedFields } from "../../framework/outputs";
import { input, outputsFrom, outputsReadFrom } from "../../framework/schema";
import { readablePeerId, readableRegion, readableStatus } from "../../../contract/readable";
import { isText, oddly } from "../../framework/unreadable";
import { resourceSchema, type InProject } from "../common";

/** What a VpcPeering's outputs read from: the live peering, its VPC and its project. */
export interface VpcPeeringSource extends InProject {
  readonly live: Peering;
  readonly vpcId: string;
}

const output = outputsReadFrom<VpcPeeringSource>();
const recorded = recordedFields<Peering>();

/** Inputs and outputs of a VpcPeering. */
export const vpcPeeringSchema = resourceSchema({
  kind: "VpcPeering",
  doc: "A peering from one of the project's VPCs to a VPC of another cloud account. Every argument replaces it.",
  example:
    'new clouddb.VpcPeering("peer", { vpcId: net.vpcId, peerAccountId: "123456789012", peerRegionCode: "us-east-1", peerVpcId: "vpc-0abc" });',
  inputs: {
    vpcId: input(rules.numericId, { change: "replace", doc: "Our VPC." }),
    peerAccountId: input(rules.peerId, { change: "replace", doc: "The peer's cloud account.", wire: { createPeering: "peer_account_id" } }),
    peerRegionCode: input(rules.region, {
      change: "replace",
      doc: "The peer VPC's region.",
      sdkType: "string",
      wire: { createPeering: "peer_region_code" },
    }),
    peerVpcId: input(rules.peerId, { change: "replace", doc: "The peer VPC's id in its account.", wire: { createPeering: "peer_vpc_id" } }),
  },
  adopt: { id: rules.numericId, what: "peering under `vpcId` (its peer account, region and VPC)" },
  outputs: {
    peeringId: output(z.string(), { doc: "The peering's id.", from: (s) => s.live.id }),
    vpcId: output(z.string(), { doc: "Our VPC.", from: (s) => s.vpcId }),
    peerAccountId: output(z.string(), { doc: "The peer's cloud account.", ...recorded("peer_account_id", readablePeerId, "") }),
    peerRegionCode: output(z.string(), { doc: "The peer VPC's region.", ...recorded("peer_region_code", readableRegion, "") }),
    peerVpcId: output(z.string(), { doc: "The peer VPC's id.", ...recorded("peer_vpc_id", readablePeerId, "") }),
    status: output(z.string(), {
      doc: "`pending`, `active` or `failed` when last read.",
      ...recorded("status", (value) => readableStatus("peering", value), ""),
    }),
    provisionedId: output(z.string(), { doc: "The peering's id in the cloud's network.", ...recorded("provisioned_id", isText, "") }),
    // Absent or `null` while the peering has not failed (a value: none).
    errorMessage: output(z.string(), {
      doc: "Why the peering failed, when it did.",
      field: "error_message",
      shows: (p) => !oddly(p, "error_message"),
      from: (s) => s.live.error_message ?? "",
    }),
  },
  idOutput: "peeringId",
  lookup: ["vpcId", "projectId"],
});

/** How warnings and lookups name a VPC peering they are about: `VPC peering 7`. */
export function peeringNamed(live: Peering): string {
  return `VPC peering ${live.id}`;
}

/** The VpcPeering resource type. */
export const vpcPeeringDefinition: ResourceDefinition<typeof vpcPeeringSchema.inputs, typeof vpcPeeringSchema.outputs> = {
  schema: vpcPeeringSchema,
  settled: (recorded) => hasStatusClass("peering", recorded.status, "ready"),
  lookups: kindLookups<Peering>({
    all: {
      name: "getVpcPeerings",
      doc: "The peerings of a VPC.",
      list: "peerings",
      listDoc: "The VPC's peerings.",
      read: async (api, { vpcId, projectId }) => (await api.perform("listPeerings", { vpc: vpcId, projectId })).items,
    },
    named: peeringNamed,
    idOf: (live) => live.id,
    outputs: (live, { vpcId, projectId }) => outputsFrom(vpcPeeringSchema, { live, vpcId, projectId }),
    imported: { name: (live, vpc) => `${vpc}-peering-${live.id}` },
  }),
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  operations: () => (require("./operations") as typeof import("./operations")).vpcPeeringOperations,
};
