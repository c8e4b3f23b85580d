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
import { input, outputsFrom, outputsReadFrom } from "../../framework/schema";
import { readablePeerId, readableRegion, readableStatus } from "../../../contract/readable";
import { isText, oddly, type ShownField } from "../../framework/unreadable";
import { resourceSchema, type InProject } from "../common";

/** What a VpcPeering's outputs read from: the live peering, its VPC and its project. */
export interface VpcPeeringSource extends InProject {
  readonly live: Peering;
  readonly vpcId: string;
}

const output = outputsReadFrom<VpcPeeringSource>();

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
    peerAccountId: output(z.string(), { doc: "The peer's cloud account.", from: (s) => s.live.peer_account_id ?? "" }),
    peerRegionCode: output(z.string(), { doc: "The peer VPC's region.", from: (s) => s.live.peer_region_code ?? "" }),
    peerVpcId: output(z.string(), { doc: "The peer VPC's id.", from: (s) => s.live.peer_vpc_id ?? "" }),
    status: output(z.string(), { doc: "`pending`, `active` or `failed` when last read.", from: (s) => s.live.status ?? "" }),
    provisionedId: output(z.string(), { doc: "The peering's id in the cloud's network.", from: (s) => s.live.provisioned_id ?? "" }),
    errorMessage: output(z.string(), { doc: "Why the peering failed, when it did.", from: (s) => s.live.error_message ?? "" }),
  },
  idOutput: "peeringId",
  lookup: ["vpcId", "projectId"],
});

/**
 * The fields of a peering its outputs are read from, each with the contract's rule of a
 * readable value (contract/readable.ts; framework/unreadable.ts): an answer that does not show
 * one readably changes nothing. `error_message` is absent or `null` while the peering has not
 * failed (a value: none); every other field is always there.
 */
export const PEERING_FIELDS: readonly ShownField<Peering>[] = [
  { field: "peer_account_id", outputs: ["peerAccountId"], shows: (p) => readablePeerId(p.peer_account_id) },
  { field: "peer_region_code", outputs: ["peerRegionCode"], shows: (p) => readableRegion(p.peer_region_code) },
  { field: "peer_vpc_id", outputs: ["peerVpcId"], shows: (p) => readablePeerId(p.peer_vpc_id) },
  { field: "status", outputs: ["status"], shows: (p) => readableStatus("peering", p.status) },
  { field: "provisioned_id", outputs: ["provisionedId"], shows: (p) => isText(p.provisioned_id) },
  { field: "error_message", outputs: ["errorMessage"], shows: (p) => !oddly(p, "error_message") },
];

/** How warnings and lookups name a VPC peering they are about: `VPC peering 7`. */
export function peeringNamed(live: Peering): string {
  return `VPC peering ${live.id}`;
}

/** The VpcPeering resource type. */
export const vpcPeeringDefinition: ResourceDefinition<typeof vpcPeeringSchema.inputs, typeof vpcPeeringSchema.outputs> = {
  schema: vpcPeeringSchema,
  readable: { peerAccountId: readablePeerId, peerRegionCode: readableRegion, peerVpcId: readablePeerId },
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
    fields: PEERING_FIELDS,
    imported: { name: (live, vpc) => `${vpc}-peering-${live.id}` },
  }),
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  operations: () => (require("./operations") as typeof import("./operations")).vpcPeeringOperations,
};
