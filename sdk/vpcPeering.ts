import * as pulumi from "@pulumi/pulumi";
import { requireArguments, type Timeouts } from "./inputs";
import { providers } from "./trampoline";

/** Arguments of a {@link VpcPeering}. Every argument replaces the peering when it changes. */
export interface VpcPeeringArgs {
  /** Our VPC. */
  vpcId: pulumi.Input<string>;
  /** The peer's cloud account id. */
  peerAccountId: pulumi.Input<string>;
  /** The peer VPC's region. */
  peerRegionCode: pulumi.Input<string>;
  /** The peer VPC's id. */
  peerVpcId: pulumi.Input<string>;
  /** Project; defaults to `clouddb:projectId`. */
  projectId?: pulumi.Input<string>;
  /** Id of an existing peering under `vpcId` to take over instead of creating one. Its peer must match. */
  adoptId?: pulumi.Input<string>;
  /** How long operations may wait. */
  timeouts?: pulumi.Input<Timeouts>;
}

/**
 * A peering between one of our VPCs and a VPC of another account. Create waits until it
 * is `active`. A peering that fails stays in state and its error is reported by every
 * `up` until the program changes it (which replaces it) or removes it.
 */
export class VpcPeering extends pulumi.dynamic.Resource {
  /** The peering's id. */
  declare readonly peeringId: pulumi.Output<string>;
  /** Our VPC. */
  declare readonly vpcId: pulumi.Output<string>;
  /** The peer's account. */
  declare readonly peerAccountId: pulumi.Output<string>;
  /** The peer VPC's region. */
  declare readonly peerRegionCode: pulumi.Output<string>;
  /** The peer VPC. */
  declare readonly peerVpcId: pulumi.Output<string>;
  /** The project. */
  declare readonly projectId: pulumi.Output<string>;
  /** `pending`, `active` or `failed`. */
  declare readonly status: pulumi.Output<string>;
  /** The peer cloud's id of the connection, once provisioned ("" before). */
  declare readonly provisionedId: pulumi.Output<string>;
  /** Why the peering failed ("" unless it did). */
  declare readonly errorMessage: pulumi.Output<string>;

  /**
   * Looks up an existing peering without managing it (read-only).
   *
   * @param state `vpcId` (required: peerings live under a VPC) and `projectId` when not the configured one
   */
  static get(
    name: string,
    id: pulumi.Input<pulumi.ID>,
    state: { vpcId: pulumi.Input<string>; projectId?: pulumi.Input<string> },
    opts?: pulumi.CustomResourceOptions,
  ): VpcPeering {
    return new VpcPeering(name, state as VpcPeeringArgs, { ...opts, id });
  }

  /**
   * @param name the resource's name in the program
   * @param args the peering's arguments
   * @param opts resource options
   */
  constructor(name: string, args: VpcPeeringArgs, opts?: pulumi.CustomResourceOptions) {
    if (!opts?.id) requireArguments("clouddb.VpcPeering", name, args, ["vpcId", "peerAccountId", "peerRegionCode", "peerVpcId"]);
    super(
      providers.vpcPeering,
      name,
      Object.assign({
        status: undefined,
        provisionedId: undefined,
        errorMessage: undefined,
        vpcId: undefined,
        peerAccountId: undefined,
        peerRegionCode: undefined,
        peerVpcId: undefined,
        projectId: undefined,
      }, args),
      opts,
      "clouddb",
      "VpcPeering",
    );
    // The resource's id, so it stays known while an update is only previewed (see Vpc).
    (this as { peeringId: pulumi.Output<string> }).peeringId = this.id;
  }
}
