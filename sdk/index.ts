/**
 * pulumi-clouddb: Pulumi resources for CloudDB managed databases.
 *
 * ```ts
 * import * as clouddb from "pulumi-clouddb";
 * const net = new clouddb.Vpc("net", { name: "prod-net", cidr: "10.0.0.0/16", regionCode: "us-east-1" });
 * ```
 */
export { Vpc, type VpcArgs } from "./vpc";
export { VpcPeering, type VpcPeeringArgs } from "./vpcPeering";
export { MissingArgumentError, type Timeouts } from "./inputs";
