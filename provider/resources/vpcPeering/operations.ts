/** What a VpcPeering does against the API: create (or adopt) and wait for `active`, read, delete. */
import { fitsPeering, hasStatusClass, statusesIn } from "../../../contract";
import type { Peering } from "../../client";
import { NotFoundError, WaitError } from "../../client/errors";
import { assertAdoptable, nothingToAdopt } from "../../framework/adoption";
import { clause, ResourceInitError } from "../../framework/errors";
import { parentIdOf } from "../../framework/parents";
import { absentIfNotFound, createOnce, forgetInterrupted, listedOf, type Recovery } from "../../framework/journal";
import { intentOf } from "../../framework/createIntent";
import type { ResourceOperations } from "../../framework/resourceProvider";
import { desiredOf, outputsFrom, type InputsOf, type OutputsOf } from "../../framework/schema";
import type { OperationContext } from "../../framework/operationContext";
import { fixedProperties } from "../../framework/outputs";
import { keepingRecorded } from "../../framework/unreadable";
import { bodyOf } from "../../framework/requestBodies";
import { peeringNamed, vpcPeeringSchema } from "./definition";

type VpcPeeringInputs = InputsOf<typeof vpcPeeringSchema.inputs>;
type VpcPeeringOutputs = OutputsOf<typeof vpcPeeringSchema.outputs>;

/**
 * Outputs of a live peering, each one of a field the answer does not show readably taken
 * from `baseline`: what state recorded, or while it is created what it asked for (framework/unreadable.ts).
 */
function peeringOutputs(
  live: Peering,
  vpcId: string,
  projectId: string,
  baseline: Partial<VpcPeeringOutputs>,
  as: "recorded" | "sent",
): VpcPeeringOutputs {
  return keepingRecorded(
    peeringNamed(live),
    live,
    outputsFrom(vpcPeeringSchema, { live, vpcId, projectId }),
    baseline,
    vpcPeeringSchema,
    as,
  );
}

/** What a create asked for, as outputs. */
function asked(news: VpcPeeringInputs): Partial<VpcPeeringOutputs> {
  return { peerAccountId: news.peerAccountId, peerRegionCode: news.peerRegionCode, peerVpcId: news.peerVpcId, vpcId: news.vpcId };
}

/**
 * Waits until the peering is ready (`active`). A failure or a timeout becomes a
 * ResourceInitError that keeps the peering in state with what is known of it.
 */
async function untilActive(
  ctx: OperationContext,
  peeringId: string,
  news: VpcPeeringInputs,
  projectId: string,
  operation: "create" | "update",
  recorded: Partial<VpcPeeringOutputs> = {},
) {
  // The operation's own bound: the resource's `timeouts`, within the engine's (framework/core.ts).
  const limit = ctx.limitMs;
  const baseline = { ...asked(news), ...recorded };
  const as = operation === "create" ? "sent" : "recorded";
  try {
    const live = await ctx
      .client()
      .waitForPeering(news.vpcId, peeringId, { until: statusesIn("peering", "ready"), timeoutMs: limit, projectId });
    return peeringOutputs(live, news.vpcId, projectId, baseline, as);
  } catch (e) {
    if (!WaitError.isInstance(e, "peering")) throw e;
    const last = e.lastSeen;
    const known = last ? peeringOutputs(last, news.vpcId, projectId, baseline, as) : { peeringId, vpcId: news.vpcId, projectId };
    const why =
      last !== undefined && hasStatusClass("peering", last.status, "failed")
        ? `VPC peering ${peeringId} failed: ${last.error_message ?? "no error message"}`
        : `VPC peering ${peeringId} is not active: ${clause(e.message)}`;
    throw new ResourceInitError(
      peeringId,
      known,
      `${why}. It is kept in state: fix the peer and run \`pulumi up\` again (a changed input replaces it), or remove it from the program to delete it.`,
    );
  }
}

/** The VpcPeering's operations. */
export const vpcPeeringOperations: ResourceOperations<typeof vpcPeeringSchema.inputs, typeof vpcPeeringSchema.outputs> = {
  async create(news, ctx) {
    const { projectId } = ctx;
    let peeringId: string;
    let settled = (): void => undefined;
    if (news.adoptId !== undefined) {
      const live = await ctx
        .client()
        .perform("getPeering", { vpc: news.vpcId, peering: news.adoptId, projectId })
        .catch((e: unknown) => {
          throw NotFoundError.isInstance(e)
            ? nothingToAdopt(`no peering ${news.adoptId} under VPC ${news.vpcId} in project ${projectId}`)
            : e;
        });
      assertAdoptable(`peering ${live.id}`, fixedProperties(vpcPeeringSchema, news, live));
      peeringId = live.id;
      forgetInterrupted(ctx, "VpcPeering", projectId);
    } else {
      const api = ctx.client();
      // Our VPC is the request's path, not its body.
      const req = bodyOf(vpcPeeringSchema, "createPeering", desiredOf(vpcPeeringSchema, news, {}));
      // A peering has no name: what proves it is this create's is its absence from the VPC's list just before (createRecovery.ts, journal.ts).
      const recovery: Recovery<Peering> = {
        get: (id) => absentIfNotFound(api.perform("getPeering", { vpc: news.vpcId, peering: id, projectId })),
        list: async () => listedOf(await api.perform("listPeerings", { vpc: news.vpcId, projectId })),
        fits: (p) => fitsPeering(req, p),
        idOf: (p) => p.id,
      };
      const intent = intentOf(ctx, { kind: "VpcPeering", noun: "peering" }, projectId, { vpcId: news.vpcId, ...req });
      const created = await createOnce(intent, recovery, (watch) =>
        api.perform("createPeering", { vpc: news.vpcId, body: req, projectId, watch }),
      );
      peeringId = created.resource.id;
      settled = created.settled;
    }
    try {
      return { id: peeringId, outs: { ...(await untilActive(ctx, peeringId, news, projectId, "create")) } };
    } finally {
      settled();
    }
  },

  async read(id, recorded, ctx) {
    const vpcId = parentIdOf(recorded, "vpcId", `VPC peering ${id}`, "VpcPeering");
    const { projectId } = ctx;
    const live = await ctx.client().perform("getPeering", { vpc: vpcId, peering: id, projectId });
    return { ...peeringOutputs(live, vpcId, projectId, recorded, "recorded") };
  },

  async update(id, recorded, news, ctx) {
    // Every input replaces, so update only runs to resume a create that did not finish.
    const { projectId } = ctx;
    return { ...(await untilActive(ctx, id, news, projectId, "update", recorded)) };
  },

  async delete(id, recorded, ctx) {
    const { projectId } = ctx;
    try {
      const vpc = parentIdOf(recorded, "vpcId", `VPC peering ${id}`, "VpcPeering");
      await ctx.client().perform("deletePeering", { vpc, peering: id, projectId });
    } catch (e) {
      if (!NotFoundError.isInstance(e)) throw e;
    }
  },
};
