/** API description of VPCs: their operations, request bodies and answer. */
import { z } from "zod";
import { fitsVpc } from "../createMatching";
import { cidrProblem } from "./cidr";
import { action, create, NO_REPLY, PROJECT_PATH, read, type OperationSpec } from "./operation";
import { MESSAGE, tolerant } from "./reading";
import { name, region } from "./requestFields";

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

const CreateVpcBody = z.object({
  name,
  cidr: z.string().superRefine((cidr, ctx) => {
    const problem = cidrProblem(cidr);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }),
  region_code: region,
});

/** The operations on VPCs. */
export const VPC_API = {
  listVpcs: read({ path: VPCS, reply: { list: { item: VpcSchema, idField: "id", noun: "VPC" } } }),
  createVpc: create(
    { path: VPCS, reply: { one: VpcSchema }, status: 201, request: CreateVpcBody },
    { list: "listVpcs", fits: (body, item) => fitsVpc(body)(item) },
  ),
  getVpc: read({ path: VPC, reply: { one: VpcSchema } }),
  deleteVpc: { method: "DELETE", path: VPC, retry: "delete", reply: NO_REPLY, status: 204 },
  renameVpc: action({ path: `${VPC}/rename`, reply: MESSAGE, status: 200, request: z.object({ name }) }),
} as const satisfies Record<string, OperationSpec>;
