/**
 * Entry point `pulumi-clouddb/provider`: the dynamic providers of the four resource types
 * (what the serialized trampolines load) and the API client.
 */
export { provider as vpc } from "./vpc";
export { provider as vpcPeering } from "./vpcPeering";
export { provider as service } from "./service";
export { provider as readReplicaSet } from "./readReplicaSet";
export * as client from "./client/index";
