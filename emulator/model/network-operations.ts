/** VPC and VPC-peering operations. VPCs change at once; peerings go `pending` → `active`/`failed`. */
import { NOMINAL_MS, type RegionCode } from "./catalog";
import { ConflictError } from "./errors";
import { newNumericId, newProvisionedId } from "./ids";
import type { ModelStore } from "./model-store";
import type { PeeringRecord } from "./records";
import { parseBody } from "./request-schemas";
import { peeringView, vpcView, type MessageBody, type PeeringBody, type VpcBody } from "./views";

/** Peer accounts whose id starts with this prefix cannot be reached: their peerings fail. */
export const UNREACHABLE_PEER_PREFIX = "invalid";

/** VPCs and their peerings, in one project at a time. */
export class NetworkOperations {
  /** @param store - the shared model state. */
  constructor(private readonly store: ModelStore) {}

  /** All VPCs of the project. */
  listVpcs(projectId: string): VpcBody[] {
    return this.store.vpcs(projectId).map(vpcView);
  }

  /** Creates a VPC from `{name, cidr, region_code}`. @throws InvalidRequestError */
  createVpc(projectId: string, body: unknown): VpcBody {
    const input = parseBody("createVpc", body);
    const id = newNumericId((candidate) => this.store.state.vpcs.some((v) => v.id === candidate));
    const vpc = { id, projectId, name: input.name, cidr: input.cidr, regionCode: input.region_code as RegionCode };
    this.store.state.vpcs.push(vpc);
    return vpcView(vpc);
  }

  /** One VPC. @throws NotFoundError */
  getVpc(projectId: string, vpcId: string): VpcBody {
    return vpcView(this.store.vpc(projectId, vpcId));
  }

  /**
   * Deletes a VPC at once.
   * @throws NotFoundError; ConflictError while services are attached or peerings exist,
   *   with `details` naming them.
   */
  deleteVpc(projectId: string, vpcId: string): void {
    const vpc = this.store.vpc(projectId, vpcId);
    const services = this.store
      .services(projectId)
      .filter((s) => s.vpcId === vpc.id)
      .map((s) => s.id);
    const peerings = this.store.peerings(vpc).map((p) => p.id);
    if (services.length > 0 || peerings.length > 0) {
      const parts: string[] = [];
      if (services.length > 0) parts.push(`attached services: ${services.join(", ")}`);
      if (peerings.length > 0) parts.push(`peerings: ${peerings.join(", ")}`);
      throw new ConflictError("The VPC still has services attached or peerings", parts.join("; "));
    }
    this.store.state.vpcs = this.store.state.vpcs.filter((v) => v !== vpc);
  }

  /** Renames a VPC from `{name}`. @throws NotFoundError, InvalidRequestError */
  renameVpc(projectId: string, vpcId: string, body: unknown): MessageBody {
    const vpc = this.store.vpc(projectId, vpcId);
    const input = parseBody("renameVpc", body);
    vpc.name = input.name;
    return { message: `VPC ${vpc.id} renamed` };
  }

  /** Peerings of a VPC. @throws NotFoundError */
  listPeerings(projectId: string, vpcId: string): PeeringBody[] {
    const vpc = this.store.vpc(projectId, vpcId);
    return this.store.peerings(vpc).map((p) => peeringView(this.store, p));
  }

  /**
   * Creates a peering (status `pending`). It becomes `active`, or `failed` when the peer
   * account id starts with {@link UNREACHABLE_PEER_PREFIX}.
   * @throws NotFoundError, InvalidRequestError
   */
  createPeering(projectId: string, vpcId: string, body: unknown): PeeringBody {
    const vpc = this.store.vpc(projectId, vpcId);
    const input = parseBody("createPeering", body);
    const unreachable = input.peer_account_id.startsWith(UNREACHABLE_PEER_PREFIX);
    const peering: PeeringRecord = {
      id: newNumericId((candidate) => this.store.state.peerings.some((p) => p.id === candidate)),
      projectId,
      vpcId: vpc.id,
      peerAccountId: input.peer_account_id,
      peerRegionCode: input.peer_region_code as RegionCode,
      peerVpcId: input.peer_vpc_id,
      provisionedId: newProvisionedId(),
      phase: this.store.phase([["pending", NOMINAL_MS.peeringPending]], unreachable ? "failed" : "active"),
    };
    if (unreachable) peering.errorMessage = `peer account ${input.peer_account_id} could not be reached`;
    this.store.state.peerings.push(peering);
    return peeringView(this.store, peering);
  }

  /** One peering. @throws NotFoundError */
  getPeering(projectId: string, vpcId: string, peeringId: string): PeeringBody {
    const vpc = this.store.vpc(projectId, vpcId);
    return peeringView(this.store, this.store.peering(vpc, peeringId));
  }

  /** Deletes a peering at once, in any state. @throws NotFoundError */
  deletePeering(projectId: string, vpcId: string, peeringId: string): void {
    const vpc = this.store.vpc(projectId, vpcId);
    const peering = this.store.peering(vpc, peeringId);
    this.store.state.peerings = this.store.state.peerings.filter((p) => p !== peering);
  }
}
