/**
 * Entry point `pulumi-clouddb/provider`: the dynamic providers of the four resource types
 * (what the serialized trampolines load) and the API client.
 */
export { provider as vpc } from "./resources/vpc";
export { provider as vpcPeering } from "./resources/vpcPeering";
export { provider as service } from "./resources/service/service";
export { provider as readReplicaSet } from "./resources/readReplicaSet";
export * as client from "./client/index";
