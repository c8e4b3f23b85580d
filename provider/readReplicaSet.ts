/** Entry point `pulumi-clouddb/provider/readReplicaSet`, which the serialized trampolines load: the dynamic provider. */
import { defineResourceProvider } from "./framework/resourceProvider";
import { readReplicaSetDefinition } from "./resources/readReplicaSet/schema";

/** The dynamic provider behind `clouddb.ReadReplicaSet`. */
export const provider = defineResourceProvider(readReplicaSetDefinition);
