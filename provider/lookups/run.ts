/**
 * What each lookup of the table (./index.ts) runs: loaded when a lookup first runs, so that
 * neither host loads the API client (undici) before it looks something up. Each reads the
 * configuration it is given (a program's stack configuration for the TypeScript SDK, the
 * provider's for the native plugin), overridden by the call's options.
 */
import { ClouddbClient, type Vpc } from "../client";
import { configurationError } from "../framework/settingProblems";
import { providerContext, readSettings, type ConfigSource } from "../framework/settings";
import { lookupResult, outputsFrom } from "../framework/schema";
import { keepingRecorded } from "../framework/unreadable";
import { REPLICA_SET_FIELDS, readReplicaSetSchema } from "../resources/readReplicaSet/definition";
import { serviceOutputs, serviceSchema } from "../resources/service/definition";
import { SERVICE_FIELDS } from "../resources/service/live";
import { VPC_FIELDS, vpcSchema } from "../resources/vpc/definition";
import { PEERING_FIELDS, vpcPeeringSchema } from "../resources/vpcPeering/definition";
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

// A lookup has nothing recorded to keep: a field the answer does not show readably (contract/readable.ts)
// is shown as the API gave it, and the program is told (keepingRecorded warns).

function service(s: Parameters<typeof serviceOutputs>[0]): LookupOutputs {
  return lookupResult(serviceSchema, keepingRecorded(`service ${s.service_id}`, s, serviceOutputs(s), {}, SERVICE_FIELDS));
}

function vpc(live: Vpc, projectId: string): LookupOutputs {
  return lookupResult(vpcSchema, keepingRecorded(`VPC ${live.id}`, live, outputsFrom(vpcSchema, { live, projectId }), {}, VPC_FIELDS));
}

/** Who the configured credential is. */
export function getAuthInfo(_args: object, opts: LookupOptions | undefined, config: ConfigSource): Promise<AuthInfoLookup> {
  return withClient(opts, config, async (api) => authInfoResult(await api.perform("getAuthInfo")));
}

/** One service of the project, by its id. */
export function getService(
  args: { serviceId: string; projectId?: string },
  opts: LookupOptions | undefined,
  config: ConfigSource,
): Promise<LookupOutputs> {
  return withClient(scoped(args, opts), config, async (api, project) =>
    service(await api.perform("getService", { service: args.serviceId, projectId: project() })),
  );
}

/** Every service of the project. */
export function getServices(args: { projectId?: string }, opts: LookupOptions | undefined, config: ConfigSource): Promise<LookupOutputs[]> {
  return withClient(scoped(args, opts), config, async (api, project) =>
    (await api.perform("listServices", { projectId: project() })).items.map(service),
  );
}

/** One VPC of the project, by its id. */
export function getVpc(
  args: { vpcId: string; projectId?: string },
  opts: LookupOptions | undefined,
  config: ConfigSource,
): Promise<LookupOutputs> {
  return withClient(scoped(args, opts), config, async (api, project) =>
    vpc(await api.perform("getVpc", { vpc: args.vpcId, projectId: project() }), project()),
  );
}

/** Every VPC of the project. */
export function getVpcs(args: { projectId?: string }, opts: LookupOptions | undefined, config: ConfigSource): Promise<LookupOutputs[]> {
  return withClient(scoped(args, opts), config, async (api, project) =>
    (await api.perform("listVpcs", { projectId: project() })).items.map((live) => vpc(live, project())),
  );
}

/** The peerings of a VPC. */
export function getVpcPeerings(
  args: { vpcId: string; projectId?: string },
  opts: LookupOptions | undefined,
  config: ConfigSource,
): Promise<LookupOutputs[]> {
  return withClient(scoped(args, opts), config, async (api, project) =>
    (await api.perform("listPeerings", { vpc: args.vpcId, projectId: project() })).items.map((live) =>
      lookupResult(
        vpcPeeringSchema,
        keepingRecorded(
          `VPC peering ${live.id}`,
          live,
          outputsFrom(vpcPeeringSchema, { live, vpcId: args.vpcId, projectId: project() }),
          {},
          PEERING_FIELDS,
        ),
      ),
    ),
  );
}

/** The read replica sets of a service. */
export function getReadReplicaSets(
  args: { serviceId: string; projectId?: string },
  opts: LookupOptions | undefined,
  config: ConfigSource,
): Promise<LookupOutputs[]> {
  return withClient(scoped(args, opts), config, async (api, project) =>
    (await api.perform("listReplicaSets", { service: args.serviceId, projectId: project() })).items.map((live) =>
      lookupResult(
        readReplicaSetSchema,
        keepingRecorded(
          `read replica set ${live.id}`,
          live,
          outputsFrom(readReplicaSetSchema, { live, serviceId: args.serviceId, projectId: project() }),
          {},
          REPLICA_SET_FIELDS,
        ),
      ),
    ),
  );
}
