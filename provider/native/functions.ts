/**
 * The functions the plugin serves (Invoke), `clouddb:index:<name>`: the lookups of
 * sdk/lookups.ts, the very code a TypeScript program's `getService` & co run, each reading
 * the configuration of the provider it is invoked on instead of the program's. A function's
 * result is an object (the package schema's functions return objects): a lookup of one
 * resource returns its outputs, a lookup of many holds them in a list property.
 *
 * The table also describes each function for the package schema (scripts/generate/packageFunctions.ts):
 * its arguments (documented by the definitions) and what it returns.
 */
import { z } from "zod";
import type { ConfigSource } from "../framework/settings";
import { readReplicaSetSchema } from "../resources/readReplicaSet/definition";
import { serviceSchema } from "../resources/service/definition";
import { vpcSchema } from "../resources/vpc/definition";
import { vpcPeeringSchema } from "../resources/vpcPeering/definition";
import type * as lookupsModule from "../../sdk/lookups";
import type { Bag } from "./protos";

/** One argument of a function: a string, documented. */
export interface FunctionArgument {
  readonly doc: string;
  readonly required: boolean;
}

/** What a function returns: a kind's lookup outputs (`<Kind>Result`), a list of them under `property`, or an object of its own. */
export type FunctionResult =
  | { readonly kind: string }
  | { readonly kind: string; readonly list: string; readonly listDoc: string }
  | { readonly name: string; readonly schema: z.ZodObject; readonly doc: string };

/** A function: its documentation, arguments, result, and what it runs. */
export interface FunctionSpec {
  readonly doc: string;
  readonly args: Readonly<Record<string, FunctionArgument>>;
  readonly result: FunctionResult;
  /** Runs it with `args` against the API `config` points at. */
  run(args: Bag, config: ConfigSource): Promise<Bag>;
}

const projectId: FunctionArgument = { doc: vpcSchema.inputs.projectId.doc, required: false };
const serviceId: FunctionArgument = { doc: serviceSchema.outputs.serviceId.doc, required: true };
const vpcId: FunctionArgument = { doc: vpcSchema.outputs.vpcId.doc, required: true };

/** sdk/lookups.ts, loaded when a function first runs (with the API client). */
function lookups(): typeof lookupsModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require("../../sdk/lookups") as typeof lookupsModule;
}

/** A string argument, or undefined. */
function str(args: Bag, key: string): string | undefined {
  const v = args[key];
  return typeof v === "string" && v !== "" ? v : undefined;
}

/** A required string argument (checked before: {@link argumentFailures}). */
function req(args: Bag, key: string): string {
  return String(args[key]);
}

const party = z.object({ id: z.string(), email: z.string(), name: z.string() });

/** `getAuthInfo`'s result, as sdk/functions.ts `AuthInfoResult` declares it for TypeScript. */
const authInfo = z.object({
  type: z.enum(["apiKey", "oauth"]).describe("`apiKey` for a personal access token, `oauth` for an OAuth user."),
  apiKey: z
    .object({
      name: z.string(),
      created: z.string(),
      publicKey: z.string(),
      project: z.object({ id: z.string(), name: z.string(), planType: z.string() }),
      issuingUser: party,
    })
    .optional()
    .describe("The token's details, for `apiKey`."),
  oauth: z.object({ user: party }).optional().describe("The user, for `oauth`."),
});

/** Every function, by its name (`getService`): its token is `clouddb:index:<name>`. */
export const FUNCTIONS: Readonly<Record<string, FunctionSpec>> = {
  getAuthInfo: {
    doc: "Who the configured credential is (`GET /auth/info`).",
    args: {},
    result: { name: "AuthInfo", schema: authInfo, doc: "Who the configured credential is." },
    run: async (_args, config) => ({ ...(await lookups().getAuthInfo(undefined, config)) }),
  },
  getService: {
    doc: "One service of the project, by its id (fails when there is none).",
    args: { serviceId, projectId },
    result: { kind: serviceSchema.kind },
    run: async (a, config) => ({
      ...(await lookups().getService({ serviceId: req(a, "serviceId"), projectId: str(a, "projectId") }, undefined, config)),
    }),
  },
  getServices: {
    doc: "Every service of the project.",
    args: { projectId },
    result: { kind: serviceSchema.kind, list: "services", listDoc: "The services." },
    run: async (a, config) => ({ services: await lookups().getServices({ projectId: str(a, "projectId") }, undefined, config) }),
  },
  getVpc: {
    doc: "One VPC of the project, by its id (fails when there is none).",
    args: { vpcId, projectId },
    result: { kind: vpcSchema.kind },
    run: async (a, config) => ({
      ...(await lookups().getVpc({ vpcId: req(a, "vpcId"), projectId: str(a, "projectId") }, undefined, config)),
    }),
  },
  getVpcs: {
    doc: "Every VPC of the project.",
    args: { projectId },
    result: { kind: vpcSchema.kind, list: "vpcs", listDoc: "The VPCs." },
    run: async (a, config) => ({ vpcs: await lookups().getVpcs({ projectId: str(a, "projectId") }, undefined, config) }),
  },
  getVpcPeerings: {
    doc: "The peerings of a VPC.",
    args: { vpcId, projectId },
    result: { kind: vpcPeeringSchema.kind, list: "peerings", listDoc: "The VPC's peerings." },
    run: async (a, config) => ({
      peerings: await lookups().getVpcPeerings({ vpcId: req(a, "vpcId"), projectId: str(a, "projectId") }, undefined, config),
    }),
  },
  getReadReplicaSets: {
    doc: "The read replica sets of a service.",
    args: { serviceId, projectId },
    result: { kind: readReplicaSetSchema.kind, list: "replicaSets", listDoc: "The service's read replica sets." },
    run: async (a, config) => ({
      replicaSets: await lookups().getReadReplicaSets(
        { serviceId: req(a, "serviceId"), projectId: str(a, "projectId") },
        undefined,
        config,
      ),
    }),
  },
};

/** The function a token names (`clouddb:index:getService`), or undefined. */
export function functionOf(token: string): FunctionSpec | undefined {
  const m = /^clouddb:index:(\w+)$/.exec(token);
  return m && Object.prototype.hasOwnProperty.call(FUNCTIONS, m[1]) ? FUNCTIONS[m[1]] : undefined;
}

/** What is wrong with a function's arguments: each required one missing or not a string, each unknown one; empty when none. */
export function argumentFailures(spec: FunctionSpec, args: Bag): { property: string; reason: string }[] {
  const failures: { property: string; reason: string }[] = [];
  for (const [key, arg] of Object.entries(spec.args)) {
    const v = args[key];
    if (v === undefined || v === null || v === "") {
      if (arg.required) failures.push({ property: key, reason: `${key} is required: ${arg.doc}` });
    } else if (typeof v !== "string") {
      failures.push({ property: key, reason: `${key} must be a string, not ${JSON.stringify(v)}` });
    }
  }
  for (const key of Object.keys(args)) {
    if (!(key in spec.args))
      failures.push({
        property: key,
        reason: `${key} is no argument of this function; its arguments: ${Object.keys(spec.args).join(", ") || "none"}`,
      });
  }
  return failures;
}
