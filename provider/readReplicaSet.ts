/** Entry point `pulumi-clouddb/provider/readReplicaSet`, which the serialized trampolines load: the dynamic provider. */
export { provider } from "./resources/readReplicaSet";
