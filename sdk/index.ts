/**
 * pulumi-clouddb: Pulumi resources for CloudDB managed databases.
 *
 * ```ts
 * import * as clouddb from "pulumi-clouddb";
 * const net = new clouddb.Vpc("net", { name: "prod-net", cidr: "10.0.0.0/16", regionCode: "us-east-1" });
 * const db = new clouddb.Service("db", { name: "orders", vpcId: net.vpcId, connectionPooler: true });
 * ```
 */
export { Vpc, type VpcArgs } from "./vpc";
export { VpcPeering, type VpcPeeringArgs } from "./vpcPeering";
export { Service, type ServiceArgs, type HaReplicasArgs, type ForkFromArgs, type Size } from "./service";
export { ReadReplicaSet, type ReadReplicaSetArgs } from "./readReplicaSet";
export * from "./functions";
export { MissingArgumentError, type Timeouts } from "./inputs";
