/** What a Vpc does against the API: create (or adopt), read, rename, delete. */
import { fitsVpc } from "../../../contract";
import type { Vpc } from "../../client";
import { ConflictError, NotFoundError } from "../../client/errors";
import { assertAdoptable, nothingToAdopt } from "../../framework/adoption";
import { CloudStateError, ProviderErrorCode } from "../../framework/errors";
import { nameOf } from "../../framework/autonaming";
import { absentIfNotFound, createOnce, forgetInterrupted, intentOf, type Recovery } from "../../framework/journal";
import { retryWhileConflict } from "../../framework/pacing";
import type { ResourceOperations } from "../../framework/resourceProvider";
import { outputsFrom, type InputsOf, type OutputsOf } from "../../framework/schema";
import type { ProviderContext } from "../../framework/settings";
import { describeMs, type TimeoutsInput } from "../../framework/timeouts";
import { vpcSchema } from "./definition";

type VpcInputs = InputsOf<typeof vpcSchema.inputs>;
type VpcOutputs = OutputsOf<typeof vpcSchema.outputs>;

/** Outputs of a live VPC. */
function vpcOutputs(live: Vpc, projectId: string): VpcOutputs {
  return outputsFrom(vpcSchema, { live, projectId });
}

/** Renames the VPC when `rename` says its name is to change and the live one differs; returns its outputs. */
async function converge(ctx: ProviderContext, id: string, news: VpcInputs, projectId: string, rename: boolean): Promise<VpcOutputs> {
  const api = ctx.client();
  const live = await api.perform("getVpc", { vpc: id, projectId });
  // No name (adopted without one): the VPC keeps its own.
  if (rename && news.name !== undefined && live.name !== news.name) {
    await api.perform("renameVpc", { vpc: id, body: { name: news.name }, projectId });
    return vpcOutputs({ ...live, name: news.name }, projectId);
  }
  return vpcOutputs(live, projectId);
}

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
export const vpcOperations: ResourceOperations<typeof vpcSchema.inputs> = {
  async create(news, ctx) {
    const projectId = ctx.projectOf(news.projectId);
    if (news.adoptId !== undefined) {
      const live = await ctx
        .client()
        .perform("getVpc", { vpc: news.adoptId, projectId })
        .catch((e: unknown) => {
          throw NotFoundError.isInstance(e) ? nothingToAdopt(`no VPC ${news.adoptId} in project ${projectId}`) : e;
        });
      assertAdoptable(`VPC ${live.id}`, [
        ["cidr", news.cidr, live.cidr],
        ["regionCode", news.regionCode, live.region_code],
      ]);
      forgetInterrupted(ctx, "Vpc", projectId);
      return { id: live.id, outs: { ...(await converge(ctx, live.id, news, projectId, true)) } };
    }
    const api = ctx.client();
    const req = { name: nameOf(news), cidr: news.cidr, region_code: news.regionCode };
    const recovery: Recovery<Vpc> = {
      get: (id) => absentIfNotFound(api.perform("getVpc", { vpc: id, projectId })),
      list: async () => (await api.perform("listVpcs", { projectId })).items,
      fits: (x) => fitsVpc({ cidr: req.cidr, region_code: req.region_code }, x),
      nameOf: (x) => x.name,
      idOf: (x) => x.id,
    };
    const intent = intentOf(ctx, { kind: "Vpc", noun: "VPC" }, projectId, req, req.name);
    // A name the program did not set is the VPC's own: a lost answer is recovered by it (framework/autonaming.ts).
    const created = await createOnce(intent, recovery, () => api.perform("createVpc", { body: req, projectId, uniqueName: ctx.autonamed }));
    created.settled();
    return { id: created.resource.id, outs: { ...vpcOutputs(created.resource, projectId) } };
  },

  async read(id, recorded, ctx) {
    const projectId = ctx.projectOf(recorded.projectId as string | undefined);
    return { ...vpcOutputs(await ctx.client().perform("getVpc", { vpc: id, projectId }), projectId) };
  },

  async update(id, olds, news, ctx, changed) {
    // One action (rename): when it fails, nothing changed.
    const projectId = ctx.projectOf(news.projectId ?? (olds.projectId as string | undefined));
    return { ...(await converge(ctx, id, news, projectId, changed.has("name"))) };
  },

  async delete(id, recorded, ctx) {
    const projectId = ctx.projectOf(recorded.projectId as string | undefined);
    const limit = ctx.timeoutMs(recorded.timeouts as TimeoutsInput | undefined, "delete");
    try {
      await retryWhileConflict(Date.now() + limit, ctx.settings.poll, () => ctx.client().perform("deleteVpc", { vpc: id, projectId }));
    } catch (e) {
      if (NotFoundError.isInstance(e)) return;
      if (!ConflictError.isInstance(e)) throw e;
      const attached = await attachmentsOf(ctx, id, projectId);
      throw new CloudStateError(
        `VPC ${id} (${String(recorded.name)}) could not be deleted within ${describeMs(limit)}: still attached: ${attached}. Detach or delete those first, or raise timeouts.delete.`,
        ProviderErrorCode.InUse,
      );
    }
  },
};
