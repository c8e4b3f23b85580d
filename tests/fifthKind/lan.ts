/**
 * A throwaway fifth resource kind, `Lan`, defined in this one file and in no file of the
 * product: its schema, its operations, its dynamic provider and its lookup (`getLan`, declared
 * in its definition, as a shipped kind's are: the lookups' table is built from it). It is
 * served by the VPC endpoints of the API (an existing path, so the emulator learns nothing):
 * a Lan is a private network, renamed in place, replaced on a new network or region.
 *
 * tests/fifthKind/fifthKind.test.ts serves it through both hosts: the dynamic provider, which
 * Pulumi's dynamic-provider host loads from this file compiled ({@link provider}), and the
 * native plugin's gRPC server, given {@link LAN} and {@link LAN_LOOKUPS}.
 */
import { z } from "zod";
import * as rules from "../../contract/rules";
import { readableCidr, readableName, readableRegion } from "../../contract/readable";
import { fitsVpc, type BodyOf } from "../../contract";
import type { Vpc } from "../../provider/client";
import { NotFoundError } from "../../provider/client/errors";
import { AUTONAME_DOC, nameOf } from "../../provider/framework/autonaming";
import { intentOf } from "../../provider/framework/createIntent";
import { absentIfNotFound, createOnce, listedOf } from "../../provider/framework/journal";
import { defineResourceProvider, type ResourceDefinition, type ResourceOperations } from "../../provider/framework/resourceProvider";
import { kindLookups } from "../../provider/framework/kindLookups";
import { recordedFields } from "../../provider/framework/outputs";
import { input, optionalInput, outputsFrom, outputsReadFrom } from "../../provider/framework/schema";
import { lookupsOf, type Lookup } from "../../provider/lookups";
import type { RegisteredResource } from "../../provider/resources/registration";
import { resourceSchema, type InProject } from "../../provider/resources/common";

/** What a Lan's outputs read from: the live VPC and its project. */
interface LanSource extends InProject {
  readonly live: Vpc;
}

const output = outputsReadFrom<LanSource>();
const recorded = recordedFields<Vpc>();

/** Inputs and outputs of a Lan. */
export const lanSchema = resourceSchema({
  kind: "Lan",
  doc: "A private network, served by the API's VPC endpoints (a test's fifth kind).",
  example: 'const lan = new clouddb.Lan("lan", { cidr: "10.40.0.0/16", regionCode: "us-east-1" });',
  inputs: {
    name: optionalInput(rules.name, { change: "in-place", unsetKeeps: () => true, doc: `Name of the network. ${AUTONAME_DOC}` }),
    cidr: input(rules.cidr, { change: "replace", doc: "IPv4 network." }),
    regionCode: input(rules.region, { change: "replace", doc: "Region.", sdkType: "string" }),
  },
  adopt: { id: rules.numericId, what: "network" },
  outputs: {
    lanId: output(z.string(), { doc: "The network's id.", from: (s) => s.live.id }),
    name: output(z.string(), { doc: "The network's name.", ...recorded("name", readableName, "") }),
    cidr: output(z.string(), { doc: "The network's range.", ...recorded("cidr", readableCidr, "") }),
    regionCode: output(z.string(), { doc: "The network's region.", ...recorded("region_code", readableRegion, "") }),
  },
  idOutput: "lanId",
  lookup: ["projectId"],
});

const outputsOf = (live: Vpc, projectId: string) => outputsFrom(lanSchema, { live, projectId });

/** What a Lan does against the API. */
const lanOperations: ResourceOperations<typeof lanSchema.inputs, typeof lanSchema.outputs> = {
  async create(news, ctx) {
    const { projectId } = ctx;
    const api = ctx.client();
    if (news.adoptId !== undefined) {
      const live = await api.perform("getVpc", { vpc: news.adoptId, projectId });
      return { id: live.id, outs: outputsOf(live, projectId) };
    }
    const req = { name: nameOf(news), cidr: news.cidr, region_code: news.regionCode } satisfies BodyOf<"createVpc">;
    const created = await createOnce(
      intentOf(ctx, { kind: "Lan", noun: "network" }, projectId, req, req.name),
      {
        get: (id) => absentIfNotFound(api.perform("getVpc", { vpc: id, projectId })),
        list: async () => listedOf(await api.perform("listVpcs", { projectId })),
        sharedList: "vpcs",
        fits: (x) => fitsVpc({ cidr: req.cidr, region_code: req.region_code }, x),
        nameOf: (x) => x.name,
        idOf: (x) => x.id,
        renamable: true,
      },
      (watch) => api.perform("createVpc", { body: req, projectId, uniqueName: ctx.autonamed, watch }),
    );
    created.settled();
    return { id: created.resource.id, outs: outputsOf(created.resource, projectId) };
  },
  async read(id, _recorded, ctx) {
    return outputsOf(await ctx.client().perform("getVpc", { vpc: id, projectId: ctx.projectId }), ctx.projectId);
  },
  async update(id, _recorded, news, ctx, changed) {
    const api = ctx.client();
    if (changed.has("name")) await api.perform("renameVpc", { vpc: id, body: { name: nameOf(news) }, projectId: ctx.projectId });
    return outputsOf(await api.perform("getVpc", { vpc: id, projectId: ctx.projectId }), ctx.projectId);
  },
  async delete(id, _recorded, ctx) {
    await ctx
      .client()
      .perform("deleteVpc", { vpc: id, projectId: ctx.projectId })
      .catch((e: unknown) => {
        if (!NotFoundError.isInstance(e)) throw e;
      });
  },
};

/** The Lan resource type. */
export const lanDefinition: ResourceDefinition<typeof lanSchema.inputs, typeof lanSchema.outputs> = {
  schema: lanSchema,
  lookups: kindLookups<Vpc>({
    one: {
      name: "getLan",
      finds: "One network of the project",
      read: (api, id, { projectId }) => api.perform("getVpc", { vpc: id, projectId }),
    },
    all: {
      name: "getLans",
      doc: "Every network of the project.",
      list: "lans",
      listDoc: "The networks.",
      read: async (api, { projectId }) => (await api.perform("listVpcs", { projectId })).items,
    },
    named: (live) => `network ${live.id}`,
    idOf: (live) => live.id,
    outputs: (live, { projectId }) => outputsOf(live, projectId),
  }),
  operations: () => lanOperations,
};

/** The Lan as the registry would list it. */
export const LAN: RegisteredResource = { module: "lan", source: "tests/fifthKind/lan.ts", definition: lanDefinition };

/** Its lookups, `getLan` (`clouddb:index:getLan`: one network of the project, by its id) and `getLans`, as the table builds them. */
export const LAN_LOOKUPS: Readonly<Record<string, Lookup>> = lookupsOf([LAN]);

/** The dynamic provider behind the Lan: what its `__provider` text loads from this file compiled. */
export const provider = defineResourceProvider(lanDefinition);
