/**
 * The Vpc resource: a private network in a project. Renamed in place; a new cidr,
 * region or project replaces it. Created, renamed and deleted at once by the API.
 */
import { ConflictError, NotFoundError, type Vpc } from "../client";
import { assertAdoptable, nothingToAdopt } from "../framework/adoption";
import { retryWhileConflict } from "../framework/pacing";
import { defineResourceProvider, type ResourceDefinition } from "../framework/resourceProvider";
import { client, projectOf } from "../framework/settings";
import { describeMs, timeoutMs, type TimeoutsInput } from "../framework/timeouts";
import * as v from "./values";

/** Inputs of a Vpc as the provider receives them. */
export interface VpcInputs {
  readonly name: string;
  readonly cidr: string;
  readonly regionCode: string;
  readonly projectId?: string;
  readonly adoptId?: string;
  readonly timeouts?: TimeoutsInput;
}

/** Outputs of a Vpc. */
export interface VpcOutputs {
  readonly vpcId: string;
  readonly name: string;
  readonly cidr: string;
  readonly regionCode: string;
  readonly projectId: string;
}

/** Outputs of a live VPC. */
export function vpcOutputs(vpc: Vpc, projectId: string): VpcOutputs {
  return { vpcId: vpc.id, name: vpc.name ?? "", cidr: vpc.cidr ?? "", regionCode: vpc.region_code ?? "", projectId };
}

async function converge(id: string, news: VpcInputs, projectId: string): Promise<VpcOutputs> {
  const api = client();
  const live = await api.getVpc(id, { projectId });
  if (live.name !== news.name) {
    await api.renameVpc(id, news.name, { projectId });
    return vpcOutputs({ ...live, name: news.name }, projectId);
  }
  return vpcOutputs(live, projectId);
}

async function attachmentsOf(vpcId: string, projectId: string): Promise<string> {
  const api = client();
  const [services, peerings] = await Promise.all([
    api.listServices({ projectId }).catch(() => []),
    api.listPeerings(vpcId, { projectId }).catch(() => []),
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

const definition: ResourceDefinition = {
  kind: "Vpc",
  idOutput: "vpcId",
  rules: {
    schemas: {
      name: v.name,
      cidr: v.cidr,
      regionCode: v.regionCode,
      projectId: v.projectId,
      adoptId: v.numericId,
      timeouts: v.timeouts,
    },
    required: ["name", "cidr", "regionCode"],
  },
  diffKeys: [
    { property: "name", replace: false },
    { property: "cidr", replace: true },
    { property: "regionCode", replace: true },
    { property: "projectId", replace: true },
  ],


  async create(raw) {
    const news = raw as unknown as VpcInputs;
    const projectId = projectOf(news.projectId);
    if (news.adoptId !== undefined) {
      const live = await client()
        .getVpc(news.adoptId, { projectId })
        .catch((e: unknown) => {
          throw NotFoundError.isInstance(e) ? nothingToAdopt(`no VPC ${news.adoptId} in project ${projectId}`) : e;
        });
      assertAdoptable(`VPC ${live.id}`, [
        ["cidr", news.cidr, live.cidr],
        ["regionCode", news.regionCode, live.region_code],
      ]);
      return { id: live.id, outs: { ...(await converge(live.id, news, projectId)) } };
    }
    const vpc = await client().createVpc(
      { name: news.name, cidr: news.cidr, region_code: news.regionCode },
      { projectId },
    );
    return { id: vpc.id, outs: { ...vpcOutputs(vpc, projectId) } };
  },

  async read(id, props) {
    const projectId = projectOf(props.projectId as string | undefined);
    return { ...vpcOutputs(await client().getVpc(id, { projectId }), projectId) };
  },

  async update(id, olds, raw) {
    const news = raw as unknown as VpcInputs;
    return { ...(await converge(id, news, projectOf(news.projectId ?? (olds.projectId as string | undefined)))) };
  },

  async delete(id, props) {
    const projectId = projectOf(props.projectId as string | undefined);
    const limit = timeoutMs(props.timeouts as TimeoutsInput | undefined, "delete");
    const deadline = Date.now() + limit;
    try {
      await retryWhileConflict(deadline, () => client().deleteVpc(id, { projectId }));
    } catch (e) {
      if (NotFoundError.isInstance(e)) return;
      if (!ConflictError.isInstance(e)) throw e;
      const attached = await attachmentsOf(id, projectId);
      throw new Error(
        `VPC ${id} (${String(props.name)}) could not be deleted within ${describeMs(limit)}: still attached: ${attached}. Detach or delete those first, or raise timeouts.delete.`,
      );
    }
  },
};

/** The dynamic provider behind `clouddb.Vpc`, loaded by the serialized trampoline. */
export const provider = defineResourceProvider(definition);
