/** API description of VPCs: their operations, request bodies and answer. */
import { z } from "zod";
import { cidrProblem } from "./cidr";
import { NO_REPLY, PROJECT_PATH, type OperationSpec } from "./operation";
import { MESSAGE_REPLY, tolerant } from "./reading";
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

/** The operations on VPCs. */
export const VPC_API = {
  listVpcs: { method: "GET", path: VPCS, retry: "read", reply: { list: { item: VpcSchema, idField: "id", noun: "VPC" } }, status: 200 },
  createVpc: {
    method: "POST",
    path: VPCS,
    retry: "create",
    reply: { one: VpcSchema },
    status: 201,
    request: z.object({
      name,
      cidr: z.string().superRefine((cidr, ctx) => {
        const problem = cidrProblem(cidr);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      }),
      region_code: region,
    }),
  },
  getVpc: { method: "GET", path: VPC, retry: "read", reply: { one: VpcSchema }, status: 200 },
  deleteVpc: { method: "DELETE", path: VPC, retry: "delete", reply: NO_REPLY, status: 204 },
  renameVpc: { method: "POST", path: `${VPC}/rename`, retry: "idempotent", reply: MESSAGE_REPLY, status: 200, request: z.object({ name }) },
} as const satisfies Record<string, OperationSpec>;
