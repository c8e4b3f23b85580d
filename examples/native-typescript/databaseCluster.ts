/**
 * A component built on the native resources: a service (replaced, not resized, when its CPU
 * changes: `replaceOnChanges`) and a read replica set of it, with its password.
 */
import * as pulumi from "@pulumi/pulumi";
import * as clouddb from "@clouddb/pulumi-clouddb";

/** What a cluster is made of. */
export interface DatabaseClusterArgs {
  /** The VPC to attach the service to. */
  vpcId: pulumi.Input<string>;
  /** CPU in millicores (memory follows: 4 GB per 1000 millicores). */
  cpuMillis: number;
  /** Nodes of the read replica set. */
  readNodes: number;
}

/** A service and a read replica set of it. */
export class DatabaseCluster extends pulumi.ComponentResource {
  /** The service's host. */
  readonly host: pulumi.Output<string>;
  /** Where clients connect: `host:port`. */
  readonly address: pulumi.Output<string>;
  /** The service's password (secret). */
  readonly password: pulumi.Output<string | undefined>;
  /** The read replica set's id. */
  readonly readsId: pulumi.Output<string>;

  constructor(name: string, args: DatabaseClusterArgs, opts?: pulumi.ComponentResourceOptions) {
    super("examples:index:DatabaseCluster", name, {}, opts);
    const memoryGbs = args.cpuMillis / 250;
    const db = new clouddb.Service(
      `${name}-db`,
      { vpcId: args.vpcId, cpuMillis: args.cpuMillis, memoryGbs, connectionPooler: true },
      // customTimeouts: how long its create, update and delete may wait (the provider's clouddb:createTimeout etc. otherwise).
      { parent: this, replaceOnChanges: ["cpuMillis"], customTimeouts: { create: "30m", update: "30m", delete: "20m" } },
    );
    const reads = new clouddb.ReadReplicaSet(
      `${name}-reads`,
      { serviceId: db.serviceId, nodes: args.readNodes, cpuMillis: 500, memoryGbs: 2, password: db.password },
      { parent: this },
    );
    this.host = db.host;
    this.address = pulumi.interpolate`${db.host}:${db.port}`;
    this.password = db.password;
    this.readsId = reads.replicaSetId;
    this.registerOutputs({ host: this.host, address: this.address, readsId: this.readsId });
  }
}
