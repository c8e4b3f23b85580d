/** The peering operations of the API description (contract/api/peering.ts): peerings go `pending` → `active`/`failed`. */
import { PEERING_STATUS } from "../../contract";
import { NOMINAL_MS } from "./catalog";
import { newNumericId, newProvisionedId } from "./ids";
import type { ModelStore } from "./model-store";
import type { OperationHandlers } from "./operation-handlers";
import type { PeeringRecord } from "./records";
import { peeringView } from "./views";

/** Peer accounts whose id starts with this prefix cannot be reached: their peerings fail. */
export const UNREACHABLE_PEER_PREFIX = "invalid";

/** The handlers of the peering operations, over `store`. */
export function peeringOperations(store: ModelStore) {
  return {
    /** Peerings of a VPC. @throws NotFoundError */
    listPeerings: ({ params }) => store.peerings(store.vpc(params.project, params.vpc)).map((p) => peeringView(store, p)),

    /**
     * Creates a peering (status `pending`). It becomes `active`, or `failed` when the peer
     * account id starts with `UNREACHABLE_PEER_PREFIX` (`invalid`).
     * @throws NotFoundError, InvalidRequestError
     */
    createPeering: ({ params, body }) => {
      const vpc = store.vpc(params.project, params.vpc);
      const input = body();
      const unreachable = input.peer_account_id.startsWith(UNREACHABLE_PEER_PREFIX);
      const peering: PeeringRecord = {
        id: newNumericId((candidate) => store.state.peerings.some((p) => p.id === candidate)),
        projectId: params.project,
        vpcId: vpc.id,
        peerAccountId: input.peer_account_id,
        peerRegionCode: input.peer_region_code,
        peerVpcId: input.peer_vpc_id,
        provisionedId: newProvisionedId(),
        phase: store.phase(
          [[PEERING_STATUS.pending, NOMINAL_MS.peeringPending]],
          unreachable ? PEERING_STATUS.failed : PEERING_STATUS.active,
        ),
      };
      if (unreachable) peering.errorMessage = `peer account ${input.peer_account_id} could not be reached`;
      store.state.peerings.push(peering);
      return peeringView(store, peering);
    },

    /** One peering. @throws NotFoundError */
    getPeering: ({ params }) => peeringView(store, store.peering(store.vpc(params.project, params.vpc), params.peering)),

    /** Deletes a peering at once, in any state. @throws NotFoundError */
    deletePeering: ({ params }) => {
      const peering = store.peering(store.vpc(params.project, params.vpc), params.peering);
      store.state.peerings = store.state.peerings.filter((p) => p !== peering);
    },
  } satisfies OperationHandlers;
}
