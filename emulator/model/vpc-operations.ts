/** The VPC operations of the API description (contract/api/vpc.ts): VPCs change at once. */
import { ConflictError } from "./errors";
import { newNumericId } from "./ids";
import type { ModelStore } from "./model-store";
import type { OperationHandlers } from "./operation-handlers";
import type { VpcRecord } from "./records";
import { vpcView, type MessageBody } from "./views";

/** The handlers of the VPC operations, over `store`. */
export function vpcOperations(store: ModelStore) {
  return {
    /** All VPCs of the project. */
    listVpcs: ({ params }) => store.vpcs(params.project).map(vpcView),

    /** Creates a VPC from `{name, cidr, region_code}`. @throws InvalidRequestError */
    createVpc: ({ params, body }) => {
      const input = body();
      const id = newNumericId((candidate) => store.state.vpcs.some((v) => v.id === candidate));
      const vpc: VpcRecord = { id, projectId: params.project, name: input.name, cidr: input.cidr, regionCode: input.region_code };
      store.state.vpcs.push(vpc);
      return vpcView(vpc);
    },

    /** One VPC. @throws NotFoundError */
    getVpc: ({ params }) => vpcView(store.vpc(params.project, params.vpc)),

    /**
     * Deletes a VPC at once.
     * @throws NotFoundError; ConflictError while services are attached or peerings exist,
     *   with `details` naming them.
     */
    deleteVpc: ({ params }) => {
      const vpc = store.vpc(params.project, params.vpc);
      const services = store
        .services(params.project)
        .filter((s) => s.vpcId === vpc.id)
        .map((s) => s.id);
      const peerings = store.peerings(vpc).map((p) => p.id);
      if (services.length > 0 || peerings.length > 0) {
        const parts: string[] = [];
        if (services.length > 0) parts.push(`attached services: ${services.join(", ")}`);
        if (peerings.length > 0) parts.push(`peerings: ${peerings.join(", ")}`);
        throw new ConflictError("The VPC still has services attached or peerings", parts.join("; "));
      }
      store.state.vpcs = store.state.vpcs.filter((v) => v !== vpc);
    },

    /** Renames a VPC from `{name}`. @throws NotFoundError, InvalidRequestError */
    renameVpc: ({ params, body }): MessageBody => {
      const vpc = store.vpc(params.project, params.vpc);
      vpc.name = body().name;
      return { message: `VPC ${vpc.id} renamed` };
    },
  } satisfies OperationHandlers;
}
