/**
 * The lookup functions' implementation: loaded by sdk/functions.ts when a lookup first runs,
 * so that a program that imports the SDK loads neither the API client (undici) nor the
 * definitions (zod) until it looks something up. The native plugin (provider/native) serves
 * the same functions to every language, each reading its provider's configuration (the
 * last argument) instead of the program's.
 */
import { ClouddbClient, type AuthInfo } from "../provider/client";
import { configurationError } from "../provider/framework/settingProblems";
import { providerContext, readSettings, type ConfigSource } from "../provider/framework/settings";
import { lookupResult, outputsFrom } from "../provider/framework/schema";
import { keepingRecorded } from "../provider/framework/unreadable";
import { REPLICA_SET_FIELDS, readReplicaSetSchema } from "../provider/resources/readReplicaSet/definition";
import { serviceOutputs, serviceSchema } from "../provider/resources/service/definition";
import { SERVICE_FIELDS } from "../provider/resources/service/live";
import { VPC_FIELDS, vpcSchema } from "../provider/resources/vpc/definition";
import type { Vpc } from "../provider/client";
import { PEERING_FIELDS, vpcPeeringSchema } from "../provider/resources/vpcPeering/definition";
import type { AuthInfoResult, FunctionOptions } from "./functions";
import type { ReadReplicaSetResult, ServiceResult, VpcPeeringResult, VpcResult } from "./outputs";

/** The program's stack configuration (`clouddb:*`), where a TypeScript program's lookups read their settings. */
function programConfig(): ConfigSource {
  // Loaded here: the native plugin, which passes its provider's configuration, never loads the SDK's runtime.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pulumi = require("@pulumi/pulumi") as typeof import("@pulumi/pulumi");
  const config = new pulumi.Config("clouddb");
  return { get: (key) => config.get(key.replace(/^clouddb:/, "")) };
}

async function withClient<T>(
  opts: FunctionOptions | undefined,
  source: ConfigSource | undefined,
  use: (api: ClouddbClient, projectId: () => string) => Promise<T>,
): Promise<T> {
  const s = readSettings(source ?? programConfig());
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

// A lookup has nothing recorded to keep: a field the answer does not show readably (contract/readable.ts)
// is shown as the API gave it, and the program is told (keepingRecorded warns).

function service(s: Parameters<typeof serviceOutputs>[0]): ServiceResult {
  return lookupResult<ServiceResult>(serviceSchema, keepingRecorded(`service ${s.service_id}`, s, serviceOutputs(s), {}, SERVICE_FIELDS));
}

function vpc(live: Vpc, projectId: string): VpcResult {
  return lookupResult<VpcResult>(
    vpcSchema,
    keepingRecorded(`VPC ${live.id}`, live, outputsFrom(vpcSchema, { live, projectId }), {}, VPC_FIELDS),
  );
}

function authInfo(info: AuthInfo): AuthInfoResult {
  const k = info.apiKey;
  const u = info.oauth?.user;
  return info.type === "apiKey"
    ? {
        type: "apiKey",
        apiKey: {
          name: k?.name ?? "",
          created: k?.created ?? "",
          publicKey: k?.public_key ?? "",
          project: { id: k?.project?.id ?? "", name: k?.project?.name ?? "", planType: k?.project?.plan_type ?? "" },
          issuingUser: { id: k?.issuing_user?.id ?? "", email: k?.issuing_user?.email ?? "", name: k?.issuing_user?.name ?? "" },
        },
      }
    : { type: "oauth", oauth: { user: { id: u?.id ?? "", email: u?.email ?? "", name: u?.name ?? "" } } };
}

/** See sdk/functions.ts. */
export function getAuthInfo(opts?: FunctionOptions, config?: ConfigSource): Promise<AuthInfoResult> {
  return withClient(opts, config, async (api) => authInfo(await api.perform("getAuthInfo")));
}

/** See sdk/functions.ts. */
export function getService(
  args: { serviceId: string; projectId?: string },
  opts?: FunctionOptions,
  config?: ConfigSource,
): Promise<ServiceResult> {
  return withClient({ ...opts, projectId: args.projectId ?? opts?.projectId }, config, async (api, project) =>
    service(await api.perform("getService", { service: args.serviceId, projectId: project() })),
  );
}

/** See sdk/functions.ts. */
export function getServices(args: { projectId?: string } = {}, opts?: FunctionOptions, config?: ConfigSource): Promise<ServiceResult[]> {
  return withClient({ ...opts, projectId: args.projectId ?? opts?.projectId }, config, async (api, project) =>
    (await api.perform("listServices", { projectId: project() })).items.map(service),
  );
}

/** See sdk/functions.ts. */
export function getVpc(args: { vpcId: string; projectId?: string }, opts?: FunctionOptions, config?: ConfigSource): Promise<VpcResult> {
  return withClient({ ...opts, projectId: args.projectId ?? opts?.projectId }, config, async (api, project) =>
    vpc(await api.perform("getVpc", { vpc: args.vpcId, projectId: project() }), project()),
  );
}

/** See sdk/functions.ts. */
export function getVpcs(args: { projectId?: string } = {}, opts?: FunctionOptions, config?: ConfigSource): Promise<VpcResult[]> {
  return withClient({ ...opts, projectId: args.projectId ?? opts?.projectId }, config, async (api, project) =>
    (await api.perform("listVpcs", { projectId: project() })).items.map((live) => vpc(live, project())),
  );
}

/** See sdk/functions.ts. */
export function getVpcPeerings(
  args: { vpcId: string; projectId?: string },
  opts?: FunctionOptions,
  config?: ConfigSource,
): Promise<VpcPeeringResult[]> {
  return withClient({ ...opts, projectId: args.projectId ?? opts?.projectId }, config, async (api, project) =>
    (await api.perform("listPeerings", { vpc: args.vpcId, projectId: project() })).items.map((live) =>
      lookupResult<VpcPeeringResult>(
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

/** See sdk/functions.ts. */
export function getReadReplicaSets(
  args: { serviceId: string; projectId?: string },
  opts?: FunctionOptions,
  config?: ConfigSource,
): Promise<ReadReplicaSetResult[]> {
  return withClient({ ...opts, projectId: args.projectId ?? opts?.projectId }, config, async (api, project) =>
    (await api.perform("listReplicaSets", { service: args.serviceId, projectId: project() })).items.map((live) =>
      lookupResult<ReadReplicaSetResult>(
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
