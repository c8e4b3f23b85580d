/** Entry point `pulumi-clouddb/provider/vpcPeering`, which the serialized trampolines load: the dynamic provider. */
export { provider } from "./resources/vpcPeering";
