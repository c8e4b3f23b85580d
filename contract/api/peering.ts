/** API description of VPC peerings: their operations, request body and answer. */
import { z } from "zod";
import { agreesOn, type Fields } from "../matching";
import { peerId, region } from "../rules";
import { type KnownStatus, knownStatuses } from "../statuses";
import { create, NO_REPLY, PROJECT_PATH, read, type OperationSpec } from "./operation";
import { open, tolerant, type Open } from "./reading";

/** Known values of `Peering.status` (CONTRACT "States"), from the status rules table. */
export const PEERING_STATUSES = knownStatuses("peering");
/** A peering status (known, or one the API added). */
export type PeeringStatus = Open<KnownStatus<"peering">>;
/** Schema of a peering status (any string). */
export const PeeringStatusSchema = open<KnownStatus<"peering">>();

/** Schema of a VPC peering: `id` and `status` (when present) are relied upon. */
export const PeeringSchema = z.looseObject({
  id: z.string(),
  status: PeeringStatusSchema.optional(),
  error_message: tolerant(z.string().nullable()),
  peer_account_id: tolerant(z.string()),
  peer_region_code: tolerant(z.string()),
  peer_vpc_id: tolerant(z.string()),
  provisioned_id: tolerant(z.string().nullable()),
});

/** A VPC peering. */
export type Peering = z.infer<typeof PeeringSchema>;

const PEERINGS = `${PROJECT_PATH}/vpcs/{vpc}/peerings`;
const PEERING = `${PEERINGS}/{peering}`;

const CreatePeeringBody = z.object({ peer_account_id: peerId, peer_region_code: region, peer_vpc_id: peerId });

/** What a peering made by a create is to show: any fields of its create's body, each compared. */
export type WantedPeering = Partial<z.input<typeof CreatePeeringBody>>;

/** Whether a listed peering may be the one wanted: each of peer account, region and VPC given. */
export function fitsPeering(wanted: WantedPeering, item: Fields): boolean {
  return agreesOn(item, wanted);
}

/** The operations on the peerings of a VPC. */
export const PEERING_API = {
  listPeerings: read({ path: PEERINGS, reply: { list: { item: PeeringSchema, idField: "id", noun: "peering" } } }),
  createPeering: create(
    { path: PEERINGS, reply: { one: PeeringSchema }, status: 201, request: CreatePeeringBody },
    {
      list: "listPeerings",
      snapshot: true,
      fits: fitsPeering,
      label: (body, params) => `to ${body.peer_vpc_id} in VPC ${params.vpc}`,
    },
  ),
  getPeering: read({ path: PEERING, reply: { one: PeeringSchema } }),
  deletePeering: { method: "DELETE", path: PEERING, retry: "delete", reply: NO_REPLY, status: 204 },
} as const satisfies Record<string, OperationSpec>;
