import * as pulumi from "@pulumi/pulumi";
import { requireArguments, type Timeouts } from "./inputs";
import { providers } from "./trampoline";

/** Arguments of a {@link ReadReplicaSet}. */
export interface ReadReplicaSetArgs {
  /** The service replicated. Replaces. */
  serviceId: pulumi.Input<string>;
  /** Name, 1 to 128 characters. Replaces. */
  name: pulumi.Input<string>;
  /** Nodes, 1 to 10. Resizes in place. */
  nodes: pulumi.Input<number>;
  /** CPU in millicores per node, paired with `memoryGbs` (500/2 ... 32000/128). Resizes in place. */
  cpuMillis: pulumi.Input<number>;
  /** Memory in GB per node. Resizes in place. */
  memoryGbs: pulumi.Input<number>;
  /** `DEV` or `PROD`. Unset: whatever the API gives it. In place. */
  environment?: pulumi.Input<"DEV" | "PROD">;
  /** Connection pooler on or off. @default false. In place. */
  connectionPooler?: pulumi.Input<boolean>;
  /** Project; defaults to `clouddb:projectId`. Replaces. */
  projectId?: pulumi.Input<string>;
  /** Id of an existing replica set of `serviceId` to take over (read at create only); its name must match. */
  adoptId?: pulumi.Input<string>;
  /** How long operations may wait. */
  timeouts?: pulumi.Input<Timeouts>;
}

/** A set of read replicas of a service. Create waits until it is `active`. */
export class ReadReplicaSet extends pulumi.dynamic.Resource {
  /** The replica set's id. */
  declare readonly replicaSetId: pulumi.Output<string>;
  /** The service. */
  declare readonly serviceId: pulumi.Output<string>;
  /** The project. */
  declare readonly projectId: pulumi.Output<string>;
  /** The name. */
  declare readonly name: pulumi.Output<string>;
  /** Nodes. */
  declare readonly nodes: pulumi.Output<number>;
  /** CPU per node. */
  declare readonly cpuMillis: pulumi.Output<number>;
  /** Memory per node. */
  declare readonly memoryGbs: pulumi.Output<number>;
  /** `DEV` or `PROD`. */
  declare readonly environment: pulumi.Output<string>;
  /** Whether the pooler is on. */
  declare readonly connectionPooler: pulumi.Output<boolean>;
  /** Status when last read (`active`, ...). */
  declare readonly status: pulumi.Output<string>;
  /** Connection host. */
  declare readonly host: pulumi.Output<string>;
  /** Connection port. */
  declare readonly port: pulumi.Output<number>;
  /** Pooler host, while the pooler is on. */
  declare readonly poolerHost: pulumi.Output<string | undefined>;
  /** Pooler port, while the pooler is on. */
  declare readonly poolerPort: pulumi.Output<number | undefined>;

  /**
   * Looks up an existing replica set without managing it (read-only).
   *
   * @param state `serviceId` (required) and `projectId` when not the configured one
   */
  static get(
    name: string,
    id: pulumi.Input<pulumi.ID>,
    state: { serviceId: pulumi.Input<string>; projectId?: pulumi.Input<string> },
    opts?: pulumi.CustomResourceOptions,
  ): ReadReplicaSet {
    return new ReadReplicaSet(name, state as ReadReplicaSetArgs, { ...opts, id });
  }

  /**
   * @param name the resource's name in the program
   * @param args the replica set's arguments
   * @param opts resource options
   */
  constructor(name: string, args: ReadReplicaSetArgs, opts?: pulumi.CustomResourceOptions) {
    if (!opts?.id) requireArguments("clouddb.ReadReplicaSet", name, args, ["serviceId", "name", "nodes", "cpuMillis", "memoryGbs"]);
    const outputs = Object.fromEntries(
      [
        "serviceId", "projectId", "name", "nodes", "cpuMillis", "memoryGbs", "environment",
        "connectionPooler", "status", "host", "port", "poolerHost", "poolerPort",
      ].map((k) => [k, undefined]),
    );
    super(providers.readReplicaSet, name, Object.assign(outputs, args), opts, "clouddb", "ReadReplicaSet");
    // The resource's id, so it stays known while an update is only previewed (see Service).
    (this as { replicaSetId: pulumi.Output<string> }).replicaSetId = this.id;
  }
}
