/**
 * The native plugin from TypeScript: an explicit provider (its API key a secret), a VPC, a
 * `DatabaseCluster` component, and an existing service adopted when `adoptId` is set (the
 * stack never deletes it), and a lookup function.
 */
import * as pulumi from "@pulumi/pulumi";
import * as clouddb from "@clouddb/pulumi-clouddb";
import { DatabaseCluster } from "./databaseCluster";

const config = new pulumi.Config();
const provider = new clouddb.Provider("prov", {
  apiUrl: config.require("apiUrl"),
  apiKey: config.requireSecret("apiKey"),
  projectId: config.require("projectId"),
  pollInterval: "20ms",
  pollMaxInterval: "200ms",
});

const net = new clouddb.Vpc("net", { cidr: "10.40.0.0/16", regionCode: "us-east-1" }, { provider });
const cluster = new DatabaseCluster(
  "orders",
  { vpcId: net.vpcId, cpuMillis: config.getNumber("cpuMillis") ?? 500, readNodes: 1 },
  { providers: [provider] },
);
const adoptId = config.get("adoptId");
const legacy = adoptId ? new clouddb.Service("legacy", { adoptId }, { provider }) : undefined;

export const vpcId = net.vpcId;
export const host = cluster.host;
export const address = cluster.address;
export const password = cluster.password;
export const readsId = cluster.readsId;
export const legacyId = legacy?.serviceId;
// Looked up once the cluster exists (a function runs when the program reaches it).
export const serviceCount = cluster.readsId.apply(async () => (await clouddb.getServices({}, { provider })).services.length);
