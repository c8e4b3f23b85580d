/** Entry point `pulumi-clouddb/provider/service`, which the serialized trampolines load: the dynamic provider. */
import { defineResourceProvider } from "./framework/resourceProvider";
import { serviceDefinition } from "./resources/service/schema";

/** The dynamic provider behind `clouddb.Service`. */
export const provider = defineResourceProvider(serviceDefinition);
