/**
 * The lookup functions, defined once: each one's documentation, arguments, result and what it
 * runs. Both hosts serve this table: the TypeScript SDK's `getService` & co (sdk/functions.ts)
 * run its entries with the program's configuration, the native plugin's Invoke
 * (native/functions.ts, `clouddb:index:<name>`) with its provider's; the package schema's
 * functions (scripts/generate/packageFunctions.ts) and the SDK's `AuthInfoResult` are generated
 * from it. What an entry runs (./run.ts, with the API client) is loaded when a lookup first runs.
 */
import type { z } from "zod";
import type { ConfigSource } from "../framework/settings";
import { readReplicaSetSchema } from "../resources/readReplicaSet/definition";
import { serviceSchema } from "../resources/service/definition";
import { vpcSchema } from "../resources/vpc/definition";
import { vpcPeeringSchema } from "../resources/vpcPeering/definition";
import { authInfoResultSchema, type AuthInfoLookup } from "./authInfo";
import type * as runModule from "./run";
import type { LookupOptions, LookupOutputs } from "./run";

export { authInfoResultSchema, type AuthInfoLookup } from "./authInfo";
export type { LookupOptions, LookupOutputs } from "./run";

/** One argument of a lookup: a string, documented. */
export interface LookupArgument {
  readonly doc: string;
  readonly required: boolean;
}

/**
 * What a lookup returns: a kind's lookup outputs (`<Kind>Result`), a list of them (held in
 * the native function's result under `list`), or an object of its own, described by `schema`.
 */
export type LookupResultShape =
  | { readonly kind: string }
  | { readonly kind: string; readonly list: string; readonly listDoc: string }
  | { readonly name: string; readonly schema: z.ZodObject; readonly doc: string };

/** A lookup: its documentation, arguments (each a string), result, and what it runs. */
export interface Lookup<Args extends object = Record<string, string | undefined>, Result = unknown> {
  readonly doc: string;
  readonly args: { readonly [K in keyof Args]-?: LookupArgument };
  readonly result: LookupResultShape;
  /** Runs it with `args` (and the call's `opts`) against the API `config` points at. */
  run(args: Args, opts: LookupOptions | undefined, config: ConfigSource): Promise<Result>;
}

/** ./run.ts, loaded when a lookup first runs (with the API client). */
function impl(): typeof runModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require("./run") as typeof runModule;
}

const projectId: LookupArgument = { doc: vpcSchema.inputs.projectId.doc, required: false };
const serviceId: LookupArgument = { doc: serviceSchema.outputs.serviceId.doc, required: true };
const vpcId: LookupArgument = { doc: vpcSchema.outputs.vpcId.doc, required: true };

type InProject = { projectId?: string };
type OfService = { serviceId: string; projectId?: string };
type OfVpc = { vpcId: string; projectId?: string };

/** Every lookup, by its name (`getService`; the native function's token is `clouddb:index:<name>`). */
export const LOOKUPS = {
  getAuthInfo: {
    doc: "Who the configured credential is (`GET /auth/info`).",
    args: {},
    result: { name: "AuthInfo", schema: authInfoResultSchema, doc: "Who the configured credential is." },
    run: (a, opts, config) => impl().getAuthInfo(a, opts, config),
  } satisfies Lookup<object, AuthInfoLookup>,
  getService: {
    doc: "One service of the project, by its id (fails when there is none).",
    args: { serviceId, projectId },
    result: { kind: serviceSchema.kind },
    run: (a, opts, config) => impl().getService(a, opts, config),
  } satisfies Lookup<OfService, LookupOutputs>,
  getServices: {
    doc: "Every service of the project.",
    args: { projectId },
    result: { kind: serviceSchema.kind, list: "services", listDoc: "The services." },
    run: (a, opts, config) => impl().getServices(a, opts, config),
  } satisfies Lookup<InProject, LookupOutputs[]>,
  getVpc: {
    doc: "One VPC of the project, by its id (fails when there is none).",
    args: { vpcId, projectId },
    result: { kind: vpcSchema.kind },
    run: (a, opts, config) => impl().getVpc(a, opts, config),
  } satisfies Lookup<OfVpc, LookupOutputs>,
  getVpcs: {
    doc: "Every VPC of the project.",
    args: { projectId },
    result: { kind: vpcSchema.kind, list: "vpcs", listDoc: "The VPCs." },
    run: (a, opts, config) => impl().getVpcs(a, opts, config),
  } satisfies Lookup<InProject, LookupOutputs[]>,
  getVpcPeerings: {
    doc: "The peerings of a VPC.",
    args: { vpcId, projectId },
    result: { kind: vpcPeeringSchema.kind, list: "peerings", listDoc: "The VPC's peerings." },
    run: (a, opts, config) => impl().getVpcPeerings(a, opts, config),
  } satisfies Lookup<OfVpc, LookupOutputs[]>,
  getReadReplicaSets: {
    doc: "The read replica sets of a service.",
    args: { serviceId, projectId },
    result: { kind: readReplicaSetSchema.kind, list: "replicaSets", listDoc: "The service's read replica sets." },
    run: (a, opts, config) => impl().getReadReplicaSets(a, opts, config),
  } satisfies Lookup<OfService, LookupOutputs[]>,
};
