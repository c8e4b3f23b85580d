/** Entry point `pulumi-clouddb/provider/service`, which the serialized trampolines load: the dynamic provider. */
export { provider } from "./resources/service/service";
