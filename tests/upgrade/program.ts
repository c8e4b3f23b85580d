/**
 * The program of the upgrade fixtures: every resource kind, with most inputs set and some
 * left to their defaults, an adopted service, a fork and a paused service. Each release's
 * fixture is this program's state under that release (`record.ts`); the upgrade test runs it
 * again, unchanged, under the code of today. Keep it unchanged: a later fixture may add a
 * program of its own.
 */
import * as pulumi from "@pulumi/pulumi";
import * as clouddb from "pulumi-clouddb";

/** The project of the fixture's stack (its config keys are `upgrade:<key>`). */
export const UPGRADE_PROJECT = "upgrade";
/** The stack name of the fixture's stack. */
export const UPGRADE_STACK = "fixture";

/** Changes a test makes to the recorded program (none in the fixtures). */
export interface UpgradeEdits {
  /** The `paused` service's name, in place of `upgrade-paused`: a change that replaces it. */
  readonly pausedName?: string;
  /** The `adopted` service's arguments, in place of the recorded program's. */
  readonly adopted?: (adoptedId: string) => clouddb.ServiceArgs;
}

/**
 * The program; `adoptedOptions` are the adopted service's resource options (none in the
 * fixtures), `edits` what a test changes of it.
 */
export function upgradeProgram(adoptedOptions: pulumi.CustomResourceOptions = {}, edits: UpgradeEdits = {}): Record<string, unknown> {
  const config = new pulumi.Config(UPGRADE_PROJECT);
  const net = new clouddb.Vpc("net", { name: "upgrade-net", cidr: "10.20.0.0/16", regionCode: "us-east-1" });
  const peer = new clouddb.VpcPeering("peer", {
    vpcId: net.vpcId,
    peerAccountId: "123456789012",
    peerRegionCode: "us-west-2",
    peerVpcId: "vpc-0a1b2c3d",
  });
  const db = new clouddb.Service("db", {
    name: "upgrade-db",
    serviceType: "RELATIONAL",
    cpuMillis: 1000,
    memoryGbs: 4,
    haReplicas: { replicaCount: 1, syncReplicaCount: 0 },
    environment: "PROD",
    connectionPooler: true,
    vpcId: net.vpcId,
    password: config.requireSecret("dbPassword"),
    timeouts: { create: "20m", update: "15m", delete: "10m" },
  });
  const minimal = new clouddb.Service("minimal", { name: "upgrade-minimal" });
  const paused = new clouddb.Service("paused", { name: edits.pausedName ?? "upgrade-paused", paused: true });
  const fork = new clouddb.Service("fork", { name: "upgrade-fork", forkFrom: { serviceId: minimal.serviceId, strategy: "NOW" } });
  const adoptedId = config.require("adoptedId");
  const adopted = new clouddb.Service(
    "adopted",
    edits.adopted?.(adoptedId) ?? { name: "upgrade-legacy", adoptId: adoptedId, environment: "PROD" },
    adoptedOptions,
  );
  const reads = new clouddb.ReadReplicaSet("reads", {
    serviceId: db.serviceId,
    name: "upgrade-reads",
    nodes: 2,
    cpuMillis: 1000,
    memoryGbs: 4,
    environment: "PROD",
    connectionPooler: true,
    password: db.password,
  });
  const plainReads = new clouddb.ReadReplicaSet("plain-reads", {
    serviceId: minimal.serviceId,
    name: "upgrade-plain",
    nodes: 1,
    cpuMillis: 500,
    memoryGbs: 2,
  });
  return {
    vpcId: net.vpcId,
    peeringId: peer.peeringId,
    dbHost: db.host,
    dbUrl: db.connectionString,
    forkOf: fork.forkedFrom,
    pausedStatus: paused.status,
    adoptedId: adopted.serviceId,
    readsUrl: reads.connectionString,
    plainReadsId: plainReads.replicaSetId,
  };
}
