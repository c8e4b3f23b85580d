import * as pulumi from "@pulumi/pulumi";
import { requireArguments, type Timeouts } from "./inputs";
import { providers } from "./trampoline";

/** CPU (millicores) or memory (GB): a number, or `"shared"` for the shared plan. */
export type Size = number | "shared";

/** High-availability replicas of a service. */
export interface HaReplicasArgs {
  /** 0 to 2. @default 0 */
  replicaCount?: pulumi.Input<number>;
  /** 0 to `replicaCount`. @default 0 */
  syncReplicaCount?: pulumi.Input<number>;
}

/** Makes a service by forking another one. */
export interface ForkFromArgs {
  /** The service to fork. */
  serviceId: pulumi.Input<string>;
  /** `LAST_SNAPSHOT`, `NOW`, or `PITR` (point in time: needs `targetTime`). */
  strategy: pulumi.Input<"LAST_SNAPSHOT" | "NOW" | "PITR">;
  /** RFC 3339 time between the source's creation and now, for `PITR`. */
  targetTime?: pulumi.Input<string>;
}

/** Arguments of a {@link Service}. */
export interface ServiceArgs {
  /** Name, 1 to 128 characters. The API cannot rename a service: a new name replaces it. */
  name: pulumi.Input<string>;
  /** `TIMESERIES` (default), `RELATIONAL` or `VECTOR`. Replaces. A fork has its source's. */
  serviceType?: pulumi.Input<"TIMESERIES" | "RELATIONAL" | "VECTOR">;
  /** Region. @default "us-east-1" (a fork: its source's). Replaces. */
  regionCode?: pulumi.Input<string>;
  /** CPU in millicores, paired with `memoryGbs`: shared/shared, 500/2, 1000/4, 2000/8, 4000/16, 8000/32, 16000/64, 32000/128. @default 500 */
  cpuMillis?: pulumi.Input<Size>;
  /** Memory in GB, paired with `cpuMillis`. @default 2 */
  memoryGbs?: pulumi.Input<Size>;
  /** High-availability replicas. In place. */
  haReplicas?: pulumi.Input<HaReplicasArgs>;
  /** `DEV` or `PROD`. @default "DEV". In place. */
  environment?: pulumi.Input<"DEV" | "PROD">;
  /** Connection pooler on or off. @default false. In place. */
  connectionPooler?: pulumi.Input<boolean>;
  /** VPC to attach the service to (same project and region). In place: detached from the old one first. */
  vpcId?: pulumi.Input<string>;
  /** Password, 8 to 128 characters (secret). Unset: the service keeps the initial password the API generated, exposed as the `password` output. */
  password?: pulumi.Input<string>;
  /** Paused (stopped) or running. @default false. In place. */
  paused?: pulumi.Input<boolean>;
  /** Create the service by forking another one. Replaces when it changes. */
  forkFrom?: pulumi.Input<ForkFromArgs>;
  /** Project; defaults to `clouddb:projectId`. Replaces. */
  projectId?: pulumi.Input<string>;
  /** Id of an existing service to take over instead of creating one (read at create only); its name, type and region must match. */
  adoptId?: pulumi.Input<string>;
  /** How long operations may wait. */
  timeouts?: pulumi.Input<Timeouts>;
}

/**
 * A managed database service.
 *
 * ```ts
 * const db = new clouddb.Service("db", { name: "orders", cpuMillis: 1000, memoryGbs: 4 }, { protect: true });
 * export const password = db.password; // secret
 * ```
 *
 * The API cannot rename a service, so a new `name` replaces it (a new, empty database):
 * protect production services with `protect: true`.
 */
export class Service extends pulumi.dynamic.Resource {
  /** The service's id. */
  declare readonly serviceId: pulumi.Output<string>;
  /** The project. */
  declare readonly projectId: pulumi.Output<string>;
  /** The name. */
  declare readonly name: pulumi.Output<string>;
  /** The type. */
  declare readonly serviceType: pulumi.Output<string>;
  /** The region. */
  declare readonly regionCode: pulumi.Output<string>;
  /** Status when last read (`READY`, `PAUSED`, ...). */
  declare readonly status: pulumi.Output<string>;
  /** Creation time (RFC 3339). */
  declare readonly created: pulumi.Output<string>;
  /** Connection host. */
  declare readonly host: pulumi.Output<string>;
  /** Connection port. */
  declare readonly port: pulumi.Output<number>;
  /** Pooler host, while the pooler is on. */
  declare readonly poolerHost: pulumi.Output<string | undefined>;
  /** Pooler port, while the pooler is on. */
  declare readonly poolerPort: pulumi.Output<number | undefined>;
  /** Whether the pooler is on. */
  declare readonly connectionPooler: pulumi.Output<boolean>;
  /** The VPC the service is attached to, if any. */
  declare readonly vpcId: pulumi.Output<string | undefined>;
  /** The VPC endpoint `{ vpc_id, host, port }`, while attached. */
  declare readonly vpcEndpoint: pulumi.Output<Record<string, unknown> | undefined>;
  /** CPU in millicores or `"shared"`. */
  declare readonly cpuMillis: pulumi.Output<Size>;
  /** Memory in GB or `"shared"`. */
  declare readonly memoryGbs: pulumi.Output<Size>;
  /** Allocated resources. */
  declare readonly resources: pulumi.Output<Array<{ id: string; cpuMillis: Size; memoryGbs: Size; volumeType: string }>>;
  /** HA replicas. */
  declare readonly haReplicas: pulumi.Output<{ replicaCount: number; syncReplicaCount: number }>;
  /** `DEV` or `PROD`. */
  declare readonly environment: pulumi.Output<string>;
  /** Whether the service is paused. */
  declare readonly paused: pulumi.Output<boolean>;
  /** Origin of a fork, as the API reports it. */
  declare readonly forkedFrom: pulumi.Output<{ serviceId: string; projectId: string; isStandby: boolean } | undefined>;
  /** The password (secret): the one given, else the initial password from the create or fork answer. */
  declare readonly password: pulumi.Output<string | undefined>;

  /**
   * Looks up an existing service without managing it (read-only). Its password is not
   * known (the API never returns it).
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: { projectId?: pulumi.Input<string> }, opts?: pulumi.CustomResourceOptions): Service {
    return new Service(name, state as ServiceArgs, { ...opts, id });
  }

  /**
   * @param name the resource's name in the program
   * @param args the service's arguments
   * @param opts resource options; `password` is always added to `additionalSecretOutputs`, and a
   *   given `password` is sent as a secret input
   */
  constructor(name: string, args: ServiceArgs, opts?: pulumi.CustomResourceOptions) {
    if (!opts?.id) requireArguments("clouddb.Service", name, args, ["name"]);
    const outputs = Object.fromEntries(
      [
        "projectId", "name", "serviceType", "regionCode", "status", "created", "host", "port",
        "poolerHost", "poolerPort", "connectionPooler", "vpcId", "vpcEndpoint", "cpuMillis", "memoryGbs",
        "resources", "haReplicas", "environment", "paused", "forkedFrom", "password",
      ].map((k) => [k, undefined]),
    );
    // The password is a secret input too, so state never holds it in plain text, even
    // when the program passes a plain string.
    const inputs = args?.password === undefined ? args : { ...args, password: pulumi.secret(args.password) };
    super(
      providers.service,
      name,
      Object.assign(outputs, inputs),
      { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), "password"] },
      "clouddb",
      "Service",
    );
    // The resource's id, so it stays known while an update is only previewed (see Vpc).
    (this as { serviceId: pulumi.Output<string> }).serviceId = this.id;
  }
}
