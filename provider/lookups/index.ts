/**
 * The lookup functions, defined once: each one's documentation, arguments, result and what it
 * runs. Both hosts serve this table: the TypeScript SDK's `getService` & co (sdk/functions.ts,
 * its kinds' wrappers generated in sdk/kindFunctions.ts) run its entries with the program's
 * configuration, the native plugin's Invoke (native/functions.ts, `clouddb:index:<name>`) with
 * its provider's; the package schema's functions (scripts/generate/packageFunctions.ts) and the
 * SDK's `AuthInfoResult` are generated from it. Each kind's lookups are built from what its
 * definition declares (framework/kindLookups.ts, {@link lookupsOf}); `getAuthInfo` is an entry of
 * its own. What an entry runs (./run.ts, with the API client) is loaded when a lookup first runs.
 */
import type { z } from "zod";
import type { KindLookups } from "../framework/kindLookups";
import type { ConfigSource } from "../framework/settings";
import type { InputSpecs, OutputSpecs, ResourceSchema } from "../framework/schema";
import type { RegisteredResource } from "../resources/registration";
import { RESOURCES } from "../resources/registry";
import { authInfoResultSchema, type AuthInfoLookup } from "./authInfo";
import type * as runModule from "./run";
import type { LookupOptions } from "./run";

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

/** A registered kind's schema, typed loosely for iteration. */
const schemaOf = (r: RegisteredResource): ResourceSchema<InputSpecs, OutputSpecs> =>
  r.definition.schema as ResourceSchema<InputSpecs, OutputSpecs>;

/**
 * The argument `key` of a lookup of `r`: the id of a kind of `resources` (`vpcId`) is documented
 * as that kind's id output, any other as `r`'s input; required as that input is (an id looked up
 * by is required).
 */
function argumentOf(r: RegisteredResource, key: string, resources: readonly RegisteredResource[]): LookupArgument {
  const owner = resources.find((x) => x.definition.schema.idOutput === key);
  const input = schemaOf(r).inputs[key] as InputSpecs[string] | undefined;
  const doc = owner ? schemaOf(owner).outputs[key].doc : input?.doc;
  if (doc === undefined) throw new Error(`${r.source}: the lookup argument ${key} is neither an input nor a kind's id`);
  return { doc, required: input ? input.required : true };
}

/** The lookups of one kind (what its definition's `lookups` declares), by name. */
function kindEntries(r: RegisteredResource, declared: KindLookups<unknown>, resources: readonly RegisteredResource[]): [string, Lookup][] {
  const schema = schemaOf(r);
  const scopeArgs = Object.fromEntries(schema.lookup.map((key) => [key, argumentOf(r, key, resources)]));
  const entries: [string, Lookup][] = [];
  if (declared.one) {
    entries.push([
      declared.one.name,
      {
        doc: `${declared.one.finds}, by its id (fails when there is none).`,
        args: { [schema.idOutput]: argumentOf(r, schema.idOutput, resources), ...scopeArgs },
        result: { kind: schema.kind },
        run: (a, opts, config) => impl().lookUpOne(schema, declared, a, opts, config),
      },
    ]);
  }
  const all = declared.all;
  entries.push([
    all.name,
    {
      doc: all.doc,
      args: scopeArgs,
      result: { kind: schema.kind, list: all.list, listDoc: all.listDoc },
      run: (a, opts, config) => impl().lookUpAll(schema, declared, a, opts, config),
    },
  ]);
  return entries;
}

/** The lookups of the kinds of `resources` that declare some, by name (the native function's token is `clouddb:index:<name>`). */
export function lookupsOf(resources: readonly RegisteredResource[]): Readonly<Record<string, Lookup>> {
  return Object.fromEntries(resources.flatMap((r) => (r.definition.lookups ? kindEntries(r, r.definition.lookups, resources) : [])));
}

/** `getAuthInfo`: who the configured credential is, an entry of its own (not a kind's). */
const getAuthInfo = {
  doc: "Who the configured credential is (`GET /auth/info`).",
  args: {},
  result: { name: "AuthInfo", schema: authInfoResultSchema, doc: "Who the configured credential is." },
  run: (a, opts, config) => impl().getAuthInfo(a, opts, config),
} satisfies Lookup<object, AuthInfoLookup>;

/** Every lookup, by its name (`getService`; the native function's token is `clouddb:index:<name>`): `getAuthInfo`, then each kind's. */
export const LOOKUPS: { readonly getAuthInfo: typeof getAuthInfo } & Readonly<Record<string, Lookup>> = {
  getAuthInfo,
  ...lookupsOf(RESOURCES),
};
