/**
 * The Vpc resource: a private network in a project. Renamed in place; a new cidr, region
 * or project replaces it. Created, renamed and deleted at once by the API.
 */
import { z } from "zod";
import * as rules from "../../../contract/rules";
import type { Vpc } from "../../client";
import type { ResourceDefinition } from "../../framework/resourceProvider";
import { AT_ONCE, type Action, type ConvergeContext } from "../../framework/convergence";
import { input, optionalInput, outputsReadFrom, type DesiredOf } from "../../framework/schema";
import { resourceSchema, type InProject } from "../common";
import { AUTONAME_DOC } from "../../framework/autonaming";
import { CIDR_PREFIX_TEXT, NAME_LENGTH_TEXT } from "../../../contract/describe";
import { readableCidr, readableName, readableRegion } from "../../../contract/readable";
import { bodyOf } from "../../framework/requestBodies";
import { kindLookups } from "../../framework/kindLookups";
import { recordedFields, showsReadably } from "../../framework/outputs";
import { outputsFrom } from "../../framework/schema";

/** What a Vpc's outputs read from: the live VPC and its project. */
export interface VpcSource extends InProject {
  readonly live: Vpc;
}

const output = outputsReadFrom<VpcSource>();
const recorded = recordedFields<Vpc>();

/** Inputs and outputs of a Vpc. */
export const vpcSchema = resourceSchema({
  kind: "Vpc",
  doc: "A private network (VPC) of a project.",
  example: 'const net = new clouddb.Vpc("net", { name: "prod-net", cidr: "10.0.0.0/16", regionCode: "us-east-1" });',
  inputs: {
    name: optionalInput(rules.name, {
      change: "in-place",
      unsetKeeps: () => true,
      doc: `Name of the VPC, ${NAME_LENGTH_TEXT}. A change renames it. ${AUTONAME_DOC}`,
      wire: { createVpc: "name", renameVpc: "name" },
    }),
    cidr: input(rules.cidr, {
      change: "replace",
      doc: `IPv4 network, ${CIDR_PREFIX_TEXT}, host bits zero (\`10.0.0.0/16\`).`,
      wire: { createVpc: "cidr" },
    }),
    regionCode: input(rules.region, {
      change: "replace",
      doc: "Region, e.g. `us-east-1`.",
      sdkType: "string",
      wire: { createVpc: "region_code" },
    }),
  },
  adopt: { id: rules.numericId, what: "VPC (its `cidr` and `regionCode`)" },
  outputs: {
    vpcId: output(z.string(), { doc: "The VPC's id.", from: (s) => s.live.id }),
    name: output(z.string(), { doc: "The VPC's name.", ...recorded("name", readableName, "") }),
    cidr: output(z.string(), { doc: "The VPC's network.", ...recorded("cidr", readableCidr, "") }),
    regionCode: output(z.string(), { doc: "The VPC's region.", ...recorded("region_code", readableRegion, "") }),
  },
  idOutput: "vpcId",
  lookup: ["projectId"],
});

/** The API's actions on a VPC (framework/convergence.ts): a rename, applied before the API answers. */
export const VPC_ACTIONS: readonly Action<Vpc, DesiredOf<typeof vpcSchema.inputs>, ConvergeContext>[] = [
  {
    name: "rename",
    // No name (adopted without one): the VPC keeps its own. A name the answer does not show readably is not another name.
    needed: (live, want) => showsReadably(vpcSchema, live, "name") && want.name !== null && live.name !== want.name,
    send: (ctx, id, want) =>
      ctx.api.perform("renameVpc", { vpc: id, body: bodyOf(vpcSchema, "renameVpc", want), projectId: ctx.projectId }),
    then: AT_ONCE,
  },
];

/** How warnings and lookups name a Vpc they are about: `VPC 12`. */
export function vpcNamed(live: Vpc): string {
  return `VPC ${live.id}`;
}

/** The Vpc resource type. */
export const vpcDefinition: ResourceDefinition<typeof vpcSchema.inputs, typeof vpcSchema.outputs> = {
  schema: vpcSchema,
  lookups: kindLookups<Vpc>({
    one: {
      name: "getVpc",
      finds: "One VPC of the project",
      read: (api, id, { projectId }) => api.perform("getVpc", { vpc: id, projectId }),
    },
    all: {
      name: "getVpcs",
      doc: "Every VPC of the project.",
      list: "vpcs",
      listDoc: "The VPCs.",
      read: async (api, { projectId }) => (await api.perform("listVpcs", { projectId })).items,
    },
    named: vpcNamed,
    idOf: (live) => live.id,
    outputs: (live, { projectId }) => outputsFrom(vpcSchema, { live, projectId }),
    imported: { name: (live) => live.name ?? live.id },
  }),
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  operations: () => (require("./operations") as typeof import("./operations")).vpcOperations,
};
