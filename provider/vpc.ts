/** Entry point `pulumi-clouddb/provider/vpc`, which the serialized trampolines load: the dynamic provider. */
export { provider } from "./resources/vpc";
