/** What a Vpc does against the API: create (or adopt), read, rename, delete. */
import { fitsVpc } from "../../../contract";
import type { Vpc } from "../../client";
import { ConflictError, NotFoundError } from "../../client/errors";
import { assertAdoptable, nothingToAdopt } from "../../framework/adoption";
import { CloudStateError, ProviderErrorCode } from "../../framework/errors";
import { nameOf } from "../../framework/autonaming";
import { absentIfNotFound, createOnce, forgetInterrupted, listedOf, type Recovery } from "../../framework/journal";
import { intentOf } from "../../framework/createIntent";
import { retryWhileConflict } from "../../framework/pacing";
import type { ResourceOperations } from "../../framework/resourceProvider";
import { wantedNow } from "../../framework/changes";
import { converge, type Convergence, type ConvergeContext } from "../../framework/convergence";
import type { OperationContext } from "../../framework/operationContext";
import { desiredOf, outputsFrom, type DesiredOf, type OutputsOf } from "../../framework/schema";
import type { ProviderContext } from "../../framework/settings";
import { describeMs, longerTimeoutAdvice } from "../../framework/timeouts";
import { fixedProperties } from "../../framework/outputs";
import { keepingRecorded } from "../../framework/unreadable";
import { bodyOf } from "../../framework/requestBodies";
import { VPC_ACTIONS, vpcNamed, vpcSchema } from "./definition";

type VpcOutputs = OutputsOf<typeof vpcSchema.outputs>;

/**
 * Outputs of a live VPC, each one of a field the answer does not show readably taken from
 * `baseline`: what state recorded, or for a create what it asked for (framework/unreadable.ts).
 */
function vpcOutputs(live: Vpc, projectId: string, baseline: Partial<VpcOutputs> = {}, as: "recorded" | "sent" = "recorded"): VpcOutputs {
  return keepingRecorded(vpcNamed(live), live, outputsFrom(vpcSchema, { live, projectId }), baseline, vpcSchema, as);
}

/** The VPC's convergence: its action table; a VPC never moves on its own. */
const vpcConvergence: Convergence<Vpc, DesiredOf<typeof vpcSchema.inputs>, ConvergeContext> = {
  actions: VPC_ACTIONS,
  idOf: (x) => x.id,
  settle: async (_ctx, live) => live,
  waitFor: (ctx, id) => ctx.api.perform("getVpc", { vpc: id, projectId: ctx.projectId }),
  reread: (ctx, id) => ctx.api.perform("getVpc", { vpc: id, projectId: ctx.projectId }),
};

/** Brings the VPC `live` to `want`; returns its outputs (those it does not show readably from `baseline`). */
async function convergedOutputs(
  ctx: OperationContext,
  live: Vpc,
  want: DesiredOf<typeof vpcSchema.inputs>,
  baseline: Partial<VpcOutputs>,
  as: "recorded" | "sent",
): Promise<VpcOutputs> {
  const cctx = { api: ctx.client(), projectId: ctx.projectId, limitMs: ctx.limitMs, progress: { sent: [] } };
  return vpcOutputs(await converge(vpcConvergence, cctx, live, want), ctx.projectId, baseline, as);
}

/** What a create asked for, as outputs: its desired values that are set. */
function asked(desired: DesiredOf<typeof vpcSchema.inputs>): Partial<VpcOutputs> {
  return Object.fromEntries(Object.entries(desired).filter(([, v]) => v !== null));
}

/**
 * How much of a delete's `limit` (ms) is kept for {@link attachmentsOf}: its two list reads each
 * wait for a turn of the client's pacer, and no wait lasts past the operation's deadline
 * (client/deadline.ts); retries of the delete that took it all left the second read unsent.
 */
const namingMs = (limit: number): number => Math.min(2_000, limit / 4);

/** What is still attached to a VPC, in words, for the error of a delete the API refused. */
async function attachmentsOf(ctx: ProviderContext, vpcId: string, projectId: string): Promise<string> {
  const api = ctx.client();
  const [services, peerings] = await Promise.all([
    api.perform("listServices", { projectId }).then(
      ({ items }) => items,
      () => [],
    ),
    api.perform("listPeerings", { vpc: vpcId, projectId }).then(
      ({ items }) => items,
      () => [],
    ),
  ]);
  const attached = services.filter((s) => {
    const endpoint = s.vpcEndpoint as { vpc_id?: unknown } | null | undefined;
    return endpoint !== null && typeof endpoint === "object" && String(endpoint.vpc_id) === vpcId;
  });
  const parts = [
    attached.length ? `services ${attached.map((s) => `${s.service_id} (${s.name})`).join(", ")}` : "",
    peerings.length ? `peerings ${peerings.map((p) => p.id).join(", ")}` : "",
  ].filter(Boolean);
  return parts.length ? parts.join(" and ") : "resources the API did not list";
}

/** The Vpc's operations. */
export const vpcOperations: ResourceOperations<typeof vpcSchema.inputs, typeof vpcSchema.outputs> = {
  async create(news, ctx) {
    const { projectId } = ctx;
    if (news.adoptId !== undefined) {
      const live = await ctx
        .client()
        .perform("getVpc", { vpc: news.adoptId, projectId })
        .catch((e: unknown) => {
          throw NotFoundError.isInstance(e) ? nothingToAdopt(`no VPC ${news.adoptId} in project ${projectId}`) : e;
        });
      assertAdoptable(`VPC ${live.id}`, fixedProperties(vpcSchema, news, live));
      forgetInterrupted(ctx, "Vpc", projectId);
      const want = desiredOf(vpcSchema, news, {});
      return { id: live.id, outs: { ...(await convergedOutputs(ctx, live, want, asked(want), "sent")) } };
    }
    const api = ctx.client();
    const req = bodyOf(vpcSchema, "createVpc", desiredOf(vpcSchema, news, {}));
    const recovery: Recovery<Vpc> = {
      get: (id) => absentIfNotFound(api.perform("getVpc", { vpc: id, projectId })),
      list: async () => listedOf(await api.perform("listVpcs", { projectId })),
      sharedList: "vpcs",
      fits: (x) => fitsVpc({ cidr: req.cidr, region_code: req.region_code }, x),
      nameOf: (x) => x.name,
      idOf: (x) => x.id,
      // A VPC can be renamed: one without its name may still be what an interrupted create made.
      renamable: true,
    };
    const intent = intentOf(ctx, { kind: "Vpc", noun: "VPC" }, projectId, req, nameOf(news));
    // A name the program did not set is the VPC's own: a lost answer is recovered by it (framework/autonaming.ts).
    const created = await createOnce(intent, recovery, (watch) =>
      api.perform("createVpc", { body: req, projectId, uniqueName: ctx.autonamed, watch }),
    );
    created.settled();
    return { id: created.resource.id, outs: { ...vpcOutputs(created.resource, projectId, asked(desiredOf(vpcSchema, news, {})), "sent") } };
  },

  async read(id, recorded, ctx) {
    const { projectId } = ctx;
    return { ...vpcOutputs(await ctx.client().perform("getVpc", { vpc: id, projectId }), projectId, recorded) };
  },

  async update(id, recorded, news, ctx, changed) {
    // One action (rename): when it fails, nothing changed.
    const live = await ctx.client().perform("getVpc", { vpc: id, projectId: ctx.projectId });
    const want = wantedNow(desiredOf(vpcSchema, news, recorded), vpcOutputs(live, ctx.projectId, recorded), recorded, changed);
    return { ...(await convergedOutputs(ctx, live, want, recorded, "recorded")) };
  },

  async delete(id, recorded, ctx) {
    const { projectId } = ctx;
    const limit = ctx.limitMs;
    try {
      // The retries leave time, within the delete's deadline, for the reads that name what is still attached.
      await retryWhileConflict(Date.now() + limit - namingMs(limit), ctx.settings.poll, () =>
        ctx.client().perform("deleteVpc", { vpc: id, projectId }),
      );
    } catch (e) {
      if (NotFoundError.isInstance(e)) return;
      if (!ConflictError.isInstance(e)) throw e;
      const attached = await attachmentsOf(ctx, id, projectId);
      throw new CloudStateError(
        `VPC ${id} (${String(recorded.name)}) could not be deleted within ${describeMs(limit)}: still attached: ${attached}. Detach or delete those first, or ${longerTimeoutAdvice("delete")}.`,
        ProviderErrorCode.InUse,
      );
    }
  },
};
