/**
 * The Vpc resource: a private network in a project. Renamed in place; a new cidr, region
 * or project replaces it. Created, renamed and deleted at once by the API.
 */
import { z } from "zod";
import type { ResourceDefinition } from "../../framework/resourceProvider";
import { input, output, resourceSchema } from "../../framework/schema";
import { adoptIdInput, projectIdInput, timeoutsInput } from "../common";
import * as v from "../values";

/** Inputs and outputs of a Vpc. */
export const vpcSchema = resourceSchema({
  kind: "Vpc",
  doc: "A private network (VPC) of a project.",
  example: 'const net = new clouddb.Vpc("net", { name: "prod-net", cidr: "10.0.0.0/16", regionCode: "us-east-1" });',
  inputs: {
    name: input(v.name, { change: "in-place", doc: "Name of the VPC, 1 to 128 characters. A change renames it." }),
    cidr: input(v.cidr, { change: "replace", doc: "IPv4 network, prefix 16 to 28, host bits zero (`10.0.0.0/16`)." }),
    regionCode: input(v.regionCode, { change: "replace", doc: "Region, e.g. `us-east-1`.", sdkType: "string" }),
    projectId: projectIdInput,
    adoptId: adoptIdInput(v.numericId, "VPC (its `cidr` and `regionCode`)"),
    timeouts: timeoutsInput,
  },
  outputs: {
    vpcId: output(z.string(), { doc: "The VPC's id." }),
    name: output(z.string(), { doc: "The VPC's name." }),
    cidr: output(z.string(), { doc: "The VPC's network." }),
    regionCode: output(z.string(), { doc: "The VPC's region." }),
    projectId: output(z.string(), { doc: "The project the VPC belongs to." }),
  },
  idOutput: "vpcId",
  lookup: ["projectId"],
});

/** The Vpc resource type. */
export const vpcDefinition: ResourceDefinition<typeof vpcSchema.inputs, typeof vpcSchema.outputs> = {
  schema: vpcSchema,
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  operations: () => (require("./operations") as typeof import("./operations")).vpcOperations,
};
