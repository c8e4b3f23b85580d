import * as pulumi from "@pulumi/pulumi";
import * as clouddb from "pulumi-clouddb";

/** One read replica set of a {@link DatabaseCluster}. */
export interface ReplicaSetSpec {
  /** Name of the set, unique within the cluster. */
  name: string;
  /** Nodes, 1 to 10. */
  nodes: number;
  /** CPU per node in millicores. @default 500 */
  cpuMillis?: number;
  /** Memory per node in GB. @default 2 */
  memoryGbs?: number;
}

/** Arguments of a {@link DatabaseCluster}. */
export interface DatabaseClusterArgs {
  /** Name of the service (cannot change: protect the cluster in production). */
  name: pulumi.Input<string>;
  /** `DEV` or `PROD`, for the service and every replica set. @default "DEV" */
  environment?: "DEV" | "PROD";
  /** Service size. @default 500/2 */
  cpuMillis?: number;
  /** Service memory. */
  memoryGbs?: number;
  /** HA replicas of the service. */
  haReplicas?: clouddb.HaReplicasArgs;
  /** VPC to attach to. */
  vpcId?: pulumi.Input<string>;
  /** Read replica sets to run beside the service. */
  replicaSets?: ReplicaSetSpec[];
}

/**
 * A service with its read replica sets and a pooler, as one component that other stacks
 * can instantiate. Its children inherit its `protect` option.
 */
export class DatabaseCluster extends pulumi.ComponentResource {
  /** The primary service. */
  readonly service: clouddb.Service;
  /** The replica sets, by name. */
  readonly replicaSets: Record<string, clouddb.ReadReplicaSet>;
  /** Primary host. */
  readonly host: pulumi.Output<string>;
  /** Pooler endpoint `host:port`. */
  readonly poolerEndpoint: pulumi.Output<string>;
  /** Password (secret). */
  readonly password: pulumi.Output<string | undefined>;

  /**
   * @param name the component's name
   * @param args what to build
   * @param opts component options (`protect` is inherited by the children)
   */
  constructor(name: string, args: DatabaseClusterArgs, opts?: pulumi.ComponentResourceOptions) {
    super("clouddb-examples:index:DatabaseCluster", name, {}, opts);
    const environment = args.environment ?? "DEV";
    this.service = new clouddb.Service(
      `${name}-db`,
      {
        name: args.name,
        cpuMillis: args.cpuMillis,
        memoryGbs: args.memoryGbs,
        haReplicas: args.haReplicas,
        environment,
        vpcId: args.vpcId,
        connectionPooler: true,
      },
      { parent: this },
    );
    this.replicaSets = {};
    for (const spec of args.replicaSets ?? []) {
      this.replicaSets[spec.name] = new clouddb.ReadReplicaSet(
        `${name}-${spec.name}`,
        {
          serviceId: this.service.serviceId,
          name: spec.name,
          nodes: spec.nodes,
          cpuMillis: spec.cpuMillis ?? 500,
          memoryGbs: spec.memoryGbs ?? 2,
          environment,
        },
        { parent: this },
      );
    }
    this.host = this.service.host;
    this.poolerEndpoint = pulumi.interpolate`${this.service.poolerHost}:${this.service.poolerPort}`;
    this.password = this.service.password;
    this.registerOutputs({ host: this.host, poolerEndpoint: this.poolerEndpoint, password: this.password });
  }
}
