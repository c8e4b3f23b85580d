/**
 * What each lookup of the table (./index.ts) runs: loaded when a lookup first runs, so that
 * neither host loads the API client (undici) before it looks something up. Each reads the
 * configuration it is given (a program's stack configuration for the TypeScript SDK, the
 * provider's for the native plugin), overridden by the call's options.
 */
import { ClouddbClient } from "../client";
import type { KindLookups, LookupScope } from "../framework/kindLookups";
import { configurationError } from "../framework/settingProblems";
import { providerContext, readSettings, type ConfigSource } from "../framework/settings";
import { lookupResult, type OutputSpecs, type Props, type ResourceSchema } from "../framework/schema";
import type { ReadFromFields } from "../framework/outputs";
import { keepingRecorded } from "../framework/unreadable";
import { authInfoResult, type AuthInfoLookup } from "./authInfo";

/** Overrides of the configuration for one call (the SDK's `FunctionOptions`). */
export interface LookupOptions {
  /** API base URL; default `clouddb:apiUrl` / CLOUDDB_API_URL. */
  readonly apiUrl?: string;
  /** API key; default `clouddb:apiKey` / CLOUDDB_API_KEY. */
  readonly apiKey?: string;
  /** Project; default `clouddb:projectId` / CLOUDDB_PROJECT_ID. */
  readonly projectId?: string;
}

/** One resource as a lookup returns it: its lookup outputs (framework/schema.ts `lookupResult`), typed for programs by the SDK's generated `<Kind>Result`. */
export type LookupOutputs = object;

/**
 * Runs `use` with a client on the API the configuration `source` points at (overridden by
 * `opts`), and the project to look in; closes the client after. Every lookup runs through it.
 */
export async function withClient<T>(
  opts: LookupOptions | undefined,
  source: ConfigSource,
  use: (api: ClouddbClient, projectId: () => string) => Promise<T>,
): Promise<T> {
  const s = readSettings(source);
  // What the options give is the options' to check (the client does); the rest, the configuration's.
  const given = new Set(Object.keys(opts ?? {}).map((k) => `clouddb:${k}`));
  const problems = s.problems.filter((p) => !given.has(p.key));
  if (problems.length > 0) throw configurationError(problems);
  const api = new ClouddbClient({
    apiUrl: opts?.apiUrl ?? s.apiUrl,
    apiKey: opts?.apiKey ?? s.apiKey,
    projectId: opts?.projectId ?? s.projectId,
  });
  try {
    return await use(api, () => opts?.projectId ?? s.projectId ?? providerContext().projectOf(undefined));
  } finally {
    await api.close();
  }
}

/** The options with the lookup's own `projectId` argument, which wins over theirs. */
export function scoped(args: { projectId?: string }, opts: LookupOptions | undefined): LookupOptions {
  return { ...opts, projectId: args.projectId ?? opts?.projectId };
}

/** The schema a kind's lookups read by: its kind, outputs, id output and the inputs its lookups take. */
type LookedUpSchema = Pick<ResourceSchema, "kind" | "outputs" | "idOutput" | "lookup"> & { readonly outputs: OutputSpecs };

/** Where a lookup with `args` looks: the project, and the other arguments its kind's lookups take (a parent's id). */
function scopeOf(schema: LookedUpSchema, args: Props, projectId: string): LookupScope {
  const parents = schema.lookup.filter((key) => key !== "projectId").map((key): [string, string] => [key, String(args[key])]);
  return { ...Object.fromEntries(parents), projectId };
}

/**
 * The lookup outputs of `live`. A lookup has nothing recorded to keep: a field the answer does
 * not show readably (contract/readable.ts) is shown as the API gave it, and the program is told
 * (keepingRecorded warns). The registry holds each kind's schema untyped, as it holds its lookups: its
 * outputs read the live resource its lookups read.
 */
function shown(schema: LookedUpSchema, declared: KindLookups<unknown>, live: unknown, scope: LookupScope): LookupOutputs {
  return lookupResult(
    schema,
    keepingRecorded(declared.named(live), live, declared.outputs(live, scope), {}, schema as ReadFromFields<unknown>),
  );
}

/** Who the configured credential is. */
export function getAuthInfo(_args: object, opts: LookupOptions | undefined, config: ConfigSource): Promise<AuthInfoLookup> {
  return withClient(opts, config, async (api) => authInfoResult(await api.perform("getAuthInfo")));
}

/** One resource of a kind, by the id its id output names in `args` (`getVpc`): its declared `one` lookup. */
export function lookUpOne(
  schema: LookedUpSchema,
  declared: KindLookups<unknown>,
  args: Props,
  opts: LookupOptions | undefined,
  config: ConfigSource,
): Promise<LookupOutputs> {
  const one = declared.one;
  if (!one) throw new Error(`${schema.kind} declares no lookup by id`);
  return withClient(scoped(args, opts), config, async (api, project) => {
    const scope = scopeOf(schema, args, project());
    return shown(schema, declared, await one.read(api, String(args[schema.idOutput]), scope), scope);
  });
}

/** Every resource of a kind in the scope `args` give (`getVpcs`, `getVpcPeerings`): its declared `all` lookup. */
export function lookUpAll(
  schema: LookedUpSchema,
  declared: KindLookups<unknown>,
  args: Props,
  opts: LookupOptions | undefined,
  config: ConfigSource,
): Promise<LookupOutputs[]> {
  return withClient(scoped(args, opts), config, async (api, project) => {
    const scope = scopeOf(schema, args, project());
    return (await declared.all.read(api, scope)).map((live) => shown(schema, declared, live, scope));
  });
}
