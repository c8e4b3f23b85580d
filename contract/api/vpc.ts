/** API description of VPCs: their operations, request bodies and answer. */
import { z } from "zod";
import { agreesOn, type Fields } from "../matching";
import { cidr, name, region } from "../rules";
import { action, create, NO_REPLY, PROJECT_PATH, read, type OperationSpec } from "./operation";
import { MESSAGE, tolerant } from "./reading";

/** Schema of a VPC: `id` is relied upon. */
export const VpcSchema = z.looseObject({
  id: z.string(),
  cidr: tolerant(z.string()),
  name: tolerant(z.string()),
  region_code: tolerant(z.string()),
});

/** A VPC. */
export type Vpc = z.infer<typeof VpcSchema>;

const VPCS = `${PROJECT_PATH}/vpcs`;
const VPC = `${VPCS}/{vpc}`;

const CreateVpcBody = z.object({ name, cidr, region_code: region });

/** What a VPC made by a create is to show: any fields of its create's body, each compared. */
export type WantedVpc = Partial<z.input<typeof CreateVpcBody>>;

/** Whether a listed VPC may be the one wanted: each of name, CIDR and region given. */
export function fitsVpc(wanted: WantedVpc, item: Fields): boolean {
  return agreesOn(item, wanted);
}

/** The operations on VPCs. */
export const VPC_API = {
  listVpcs: read({ path: VPCS, reply: { list: { item: VpcSchema, idField: "id", noun: "VPC" } } }),
  createVpc: create({ path: VPCS, reply: { one: VpcSchema }, status: 201, request: CreateVpcBody }, { list: "listVpcs", fits: fitsVpc }),
  getVpc: read({ path: VPC, reply: { one: VpcSchema } }),
  deleteVpc: { method: "DELETE", path: VPC, retry: "delete", reply: NO_REPLY, status: 204 },
  renameVpc: action({ path: `${VPC}/rename`, reply: MESSAGE, status: 200, request: z.object({ name }) }),
} as const satisfies Record<string, OperationSpec>;
