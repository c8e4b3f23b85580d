/**
 * The VpcPeering resource: a peering from one of our VPCs to a VPC of another cloud
 * account. Every input replaces it. Create waits for `active`; a peering that turns
 * `failed` stays in state and its `error_message` is reported on every `up`.
 */
import { NotFoundError, ResourceFailedError, TimeoutError, type Peering } from "../client";
import { assertAdoptable, nothingToAdopt } from "../framework/adoption";
import { InputConflictError, ResourceInitError } from "../framework/errors";
import { defineResourceProvider, type ResourceDefinition } from "../framework/resourceProvider";
import { client, projectOf } from "../framework/settings";
import { timeoutMs, type TimeoutsInput } from "../framework/timeouts";
import * as v from "./values";
import { z } from "zod";

/** Inputs of a VpcPeering as the provider receives them. */
export interface VpcPeeringInputs {
  readonly vpcId: string;
  readonly peerAccountId: string;
  readonly peerRegionCode: string;
  readonly peerVpcId: string;
  readonly projectId?: string;
  readonly adoptId?: string;
  readonly timeouts?: TimeoutsInput;
}

/** Outputs of a VpcPeering. */
export interface VpcPeeringOutputs {
  readonly peeringId: string;
  readonly vpcId: string;
  readonly peerAccountId: string;
  readonly peerRegionCode: string;
  readonly peerVpcId: string;
  readonly projectId: string;
  readonly status: string;
  readonly provisionedId: string;
  readonly errorMessage: string;
}

const text = (what: string) =>
  z.string({ error: `expected ${what}` }).min(1, { error: `expected ${what}` }).max(128, { error: `expected ${what}` });

/** Outputs of a live peering. */
export function peeringOutputs(p: Peering, vpcId: string, projectId: string): VpcPeeringOutputs {
  return {
    peeringId: p.id,
    vpcId,
    peerAccountId: p.peer_account_id ?? "",
    peerRegionCode: p.peer_region_code ?? "",
    peerVpcId: p.peer_vpc_id ?? "",
    projectId,
    status: p.status ?? "",
    provisionedId: p.provisioned_id ?? "",
    errorMessage: p.error_message ?? "",
  };
}

/**
 * Waits until the peering is `active`. A failure or a timeout becomes a
 * ResourceInitError that keeps the peering in state with what is known of it.
 */
async function settle(peeringId: string, news: VpcPeeringInputs, projectId: string, operation: "create" | "update") {
  const limit = timeoutMs(news.timeouts, operation);
  try {
    const live = await client().waitForPeering(news.vpcId, peeringId, { until: ["active"], timeoutMs: limit, projectId });
    return peeringOutputs(live, news.vpcId, projectId);
  } catch (e) {
    if (ResourceFailedError.isInstance(e) || TimeoutError.isInstance(e)) {
      const last = (e as { lastSeen?: Peering }).lastSeen;
      const known = last ? peeringOutputs(last, news.vpcId, projectId) : { peeringId, vpcId: news.vpcId, projectId };
      const why =
        last?.status === "failed"
          ? `VPC peering ${peeringId} failed: ${last.error_message ?? "no error message"}`
          : `VPC peering ${peeringId} is not active: ${(e as Error).message}`;
      throw new ResourceInitError(
        peeringId,
        { ...news, ...known },
        `${why}. It is kept in state: fix the peer and run \`pulumi up\` again (a changed input replaces it), or remove it from the program to delete it.`,
      );
    }
    throw e;
  }
}

const definition: ResourceDefinition = {
  kind: "VpcPeering",
  idOutput: "peeringId",
  settled: (recorded) => recorded.status === "active",
  rules: {
    schemas: {
      vpcId: v.numericId,
      peerAccountId: text("the peer's cloud account id, 1 to 128 characters"),
      peerRegionCode: v.regionCode,
      peerVpcId: text("the peer VPC's id, 1 to 128 characters"),
      projectId: v.projectId,
      adoptId: v.numericId,
      timeouts: v.timeouts,
    },
    required: ["vpcId", "peerAccountId", "peerRegionCode", "peerVpcId"],
  },
  diffKeys: ["vpcId", "peerAccountId", "peerRegionCode", "peerVpcId", "projectId"].map((property) => ({
    property,
    replace: true,
  })),


  async create(raw) {
    const news = raw as unknown as VpcPeeringInputs;
    const projectId = projectOf(news.projectId);
    let peeringId: string;
    if (news.adoptId !== undefined) {
      const live = await client()
        .getPeering(news.vpcId, news.adoptId, { projectId })
        .catch((e: unknown) => {
          throw NotFoundError.isInstance(e)
            ? nothingToAdopt(`no peering ${news.adoptId} under VPC ${news.vpcId} in project ${projectId}`)
            : e;
        });
      assertAdoptable(`peering ${live.id}`, [
        ["peerAccountId", news.peerAccountId, live.peer_account_id],
        ["peerRegionCode", news.peerRegionCode, live.peer_region_code],
        ["peerVpcId", news.peerVpcId, live.peer_vpc_id],
      ]);
      peeringId = live.id;
    } else {
      const made = await client().createPeering(
        news.vpcId,
        { peer_account_id: news.peerAccountId, peer_region_code: news.peerRegionCode, peer_vpc_id: news.peerVpcId },
        { projectId },
      );
      peeringId = made.id;
    }
    return { id: peeringId, outs: { ...(await settle(peeringId, news, projectId, "create")) } };
  },

  async read(id, props) {
    const projectId = projectOf(props.projectId as string | undefined);
    const vpcId = props.vpcId as string | undefined;
    if (!vpcId) {
      throw new InputConflictError("vpcId", `reading VPC peering ${id} needs its vpcId: pass { vpcId } as the state of VpcPeering.get`);
    }
    return { ...peeringOutputs(await client().getPeering(vpcId, id, { projectId }), vpcId, projectId) };
  },

  async update(id, olds, raw) {
    // Every input replaces, so update only runs to resume a create that did not finish.
    const news = raw as unknown as VpcPeeringInputs;
    const projectId = projectOf(news.projectId ?? (olds.projectId as string | undefined));
    return { ...(await settle(id, news, projectId, "update")) };
  },

  async delete(id, props) {
    const projectId = projectOf(props.projectId as string | undefined);
    const vpcId = props.vpcId as string;
    try {
      await client().deletePeering(vpcId, id, { projectId });
    } catch (e) {
      if (NotFoundError.isInstance(e)) return;
      throw e;
    }
  },
};

/** The dynamic provider behind `clouddb.VpcPeering`, loaded by the serialized trampoline. */
export const provider = defineResourceProvider(definition);
