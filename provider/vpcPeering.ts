/** Entry point `pulumi-clouddb/provider/vpcPeering`, which the serialized trampolines load: the dynamic provider. */
import { defineResourceProvider } from "./framework/resourceProvider";
import { vpcPeeringDefinition } from "./resources/vpcPeering/schema";

/** The dynamic provider behind `clouddb.VpcPeering`. */
export const provider = defineResourceProvider(vpcPeeringDefinition);
