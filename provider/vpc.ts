/** Entry point `pulumi-clouddb/provider/vpc`, which the serialized trampolines load: the dynamic provider. */
import { defineResourceProvider } from "./framework/resourceProvider";
import { vpcDefinition } from "./resources/vpc/schema";

/** The dynamic provider behind `clouddb.Vpc`. */
export const provider = defineResourceProvider(vpcDefinition);
