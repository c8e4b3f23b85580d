import * as pulumi from "@pulumi/pulumi";
import { requireArguments, type Timeouts } from "./inputs";
import { providers } from "./trampoline";

/** Arguments of a {@link Vpc}. */
export interface VpcArgs {
  /** Name of the VPC, 1 to 128 characters. Changes rename it in place. */
  name: pulumi.Input<string>;
  /** IPv4 network, prefix 16 to 28, host bits zero (`10.0.0.0/16`). Changes replace the VPC. */
  cidr: pulumi.Input<string>;
  /** Region, e.g. `us-east-1`. Changes replace the VPC. */
  regionCode: pulumi.Input<string>;
  /** Project; defaults to `clouddb:projectId`. Changes replace the VPC. */
  projectId?: pulumi.Input<string>;
  /**
   * Id of an existing VPC to take over instead of creating one: create reads it and
   * renames it to `name`. Its `cidr` and `regionCode` must match. Read only at create.
   */
  adoptId?: pulumi.Input<string>;
  /** How long operations may wait. */
  timeouts?: pulumi.Input<Timeouts>;
}

/**
 * A private network (VPC) of a project.
 *
 * ```ts
 * const net = new clouddb.Vpc("net", { name: "prod-net", cidr: "10.0.0.0/16", regionCode: "us-east-1" });
 * ```
 */
export class Vpc extends pulumi.dynamic.Resource {
  /** The VPC's id. */
  declare readonly vpcId: pulumi.Output<string>;
  /** The VPC's name. */
  declare readonly name: pulumi.Output<string>;
  /** The VPC's network. */
  declare readonly cidr: pulumi.Output<string>;
  /** The VPC's region. */
  declare readonly regionCode: pulumi.Output<string>;
  /** The project the VPC belongs to. */
  declare readonly projectId: pulumi.Output<string>;

  /**
   * Looks up an existing VPC without managing it (read-only).
   *
   * @param name the name of the resulting resource in the program
   * @param id the VPC's id
   * @param state `projectId` when it is not the configured project
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, state?: { projectId?: pulumi.Input<string> }, opts?: pulumi.CustomResourceOptions): Vpc {
    return new Vpc(name, state as VpcArgs, { ...opts, id });
  }

  /**
   * @param name the resource's name in the program
   * @param args the VPC's arguments
   * @param opts resource options
   */
  constructor(name: string, args: VpcArgs, opts?: pulumi.CustomResourceOptions) {
    if (!opts?.id) requireArguments("clouddb.Vpc", name, args, ["name", "cidr", "regionCode"]);
    super(
      providers.vpc,
      name,
      Object.assign({ name: undefined, cidr: undefined, regionCode: undefined, projectId: undefined }, args),
      opts,
      "clouddb",
      "Vpc",
    );
    // The resource's id, so it stays known while an update is only previewed (the engine
    // previews a dynamic resource's update with its inputs as outputs): resources that
    // depend on it are not shown as replaced when they are not.
    (this as { vpcId: pulumi.Output<string> }).vpcId = this.id;
  }
}
