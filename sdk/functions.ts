/**
 * Functions for programs: read what exists, without managing it. Each takes the same
 * configuration as the resources (`clouddb:apiUrl`, `clouddb:apiKey`,
 * `clouddb:projectId`, else the CLOUDDB_* environment variables), and has an
 * `...Output` variant taking Inputs and returning an Output, in Pulumi's usual style.
 */
import * as pulumi from "@pulumi/pulumi";
import { ClouddbClient, type AuthInfo } from "../provider/client";
import { configurationError } from "../provider/framework/settingProblems";
import { providerContext, readSettings } from "../provider/framework/settings";
import { lookupResult, outputsFrom } from "../provider/framework/schema";
import { readReplicaSetSchema } from "../provider/resources/readReplicaSet/definition";
import { serviceOutputs, serviceSchema } from "../provider/resources/service/definition";
import { vpcSchema } from "../provider/resources/vpc/definition";
import { vpcPeeringSchema } from "../provider/resources/vpcPeering/definition";
import type { ReadReplicaSetResult, ServiceResult, VpcPeeringResult, VpcResult } from "./outputs";

export type { ReadReplicaSetResult, ServiceResult, VpcPeeringResult, VpcResult } from "./outputs";

/** Overrides of the configuration for one call. */
export interface FunctionOptions {
  /** API base URL; default `clouddb:apiUrl` / CLOUDDB_API_URL. */
  apiUrl?: string;
  /** API key; default `clouddb:apiKey` / CLOUDDB_API_KEY. */
  apiKey?: string;
  /** Project; default `clouddb:projectId` / CLOUDDB_PROJECT_ID. */
  projectId?: string;
}

/** Who the configured credential is. */
export interface AuthInfoResult {
  /** `apiKey` for a personal access token, `oauth` for an OAuth user. */
  type: "apiKey" | "oauth";
  /** The token's details, for `apiKey`. */
  apiKey?: {
    name: string;
    created: string;
    publicKey: string;
    project: { id: string; name: string; planType: string };
    issuingUser: { id: string; email: string; name: string };
  };
  /** The user, for `oauth`. */
  oauth?: { user: { id: string; email: string; name: string } };
}

async function withClient<T>(
  opts: FunctionOptions | undefined,
  use: (api: ClouddbClient, projectId: () => string) => Promise<T>,
): Promise<T> {
  const config = new pulumi.Config("clouddb");
  const s = readSettings({ get: (key) => config.get(key.replace(/^clouddb:/, "")) });
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

function service(s: Parameters<typeof serviceOutputs>[0]): ServiceResult {
  return lookupResult<ServiceResult>(serviceSchema, serviceOutputs(s));
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

/** Who the configured credential is (`GET /auth/info`). */
export function getAuthInfo(opts?: FunctionOptions): Promise<AuthInfoResult> {
  return withClient(opts, async (api) => authInfo(await api.getAuthInfo()));
}

/** One service of the project. @throws NotFoundError when there is none with that id. */
export function getService(args: { serviceId: string; projectId?: string }, opts?: FunctionOptions): Promise<ServiceResult> {
  return withClient({ ...opts, projectId: args.projectId ?? opts?.projectId }, async (api, project) =>
    service(await api.getService(args.serviceId, { projectId: project() })),
  );
}

/** Every service of the project. */
export function getServices(args: { projectId?: string } = {}, opts?: FunctionOptions): Promise<ServiceResult[]> {
  return withClient({ ...opts, projectId: args.projectId ?? opts?.projectId }, async (api, project) =>
    (await api.listServices({ projectId: project() })).map(service),
  );
}

/** One VPC of the project. @throws NotFoundError when there is none with that id. */
export function getVpc(args: { vpcId: string; projectId?: string }, opts?: FunctionOptions): Promise<VpcResult> {
  return withClient({ ...opts, projectId: args.projectId ?? opts?.projectId }, async (api, project) =>
    lookupResult<VpcResult>(
      vpcSchema,
      outputsFrom(vpcSchema, { live: await api.getVpc(args.vpcId, { projectId: project() }), projectId: project() }),
    ),
  );
}

/** Every VPC of the project. */
export function getVpcs(args: { projectId?: string } = {}, opts?: FunctionOptions): Promise<VpcResult[]> {
  return withClient({ ...opts, projectId: args.projectId ?? opts?.projectId }, async (api, project) =>
    (await api.listVpcs({ projectId: project() })).map((live) =>
      lookupResult<VpcResult>(vpcSchema, outputsFrom(vpcSchema, { live, projectId: project() })),
    ),
  );
}

/** The peerings of a VPC. */
export function getVpcPeerings(args: { vpcId: string; projectId?: string }, opts?: FunctionOptions): Promise<VpcPeeringResult[]> {
  return withClient({ ...opts, projectId: args.projectId ?? opts?.projectId }, async (api, project) =>
    (await api.listPeerings(args.vpcId, { projectId: project() })).map((live) =>
      lookupResult<VpcPeeringResult>(vpcPeeringSchema, outputsFrom(vpcPeeringSchema, { live, vpcId: args.vpcId, projectId: project() })),
    ),
  );
}

/** The read replica sets of a service. */
export function getReadReplicaSets(
  args: { serviceId: string; projectId?: string },
  opts?: FunctionOptions,
): Promise<ReadReplicaSetResult[]> {
  return withClient({ ...opts, projectId: args.projectId ?? opts?.projectId }, async (api, project) =>
    (await api.listReplicaSets(args.serviceId, { projectId: project() })).map((live) =>
      lookupResult<ReadReplicaSetResult>(
        readReplicaSetSchema,
        outputsFrom(readReplicaSetSchema, { live, serviceId: args.serviceId, projectId: project() }),
      ),
    ),
  );
}

/** The arguments of a lookup function, each of which may be an Input: what the `...Output` variants take. */
export type InputArgs<T> = { [K in keyof T]: pulumi.Input<T[K]> };

function lifted<A extends object, R>(fn: (args: A, opts?: FunctionOptions) => Promise<R>) {
  return (args: InputArgs<A>, opts?: FunctionOptions): pulumi.Output<R> => pulumi.output(args).apply((plain) => fn(plain as A, opts));
}

/** {@link getAuthInfo} as an Output. */
export function getAuthInfoOutput(opts?: FunctionOptions): pulumi.Output<AuthInfoResult> {
  return pulumi.output(getAuthInfo(opts));
}
/** {@link getService} taking Inputs, as an Output. */
export function getServiceOutput(
  args: InputArgs<{ serviceId: string; projectId?: string }>,
  opts?: FunctionOptions,
): pulumi.Output<ServiceResult> {
  return lifted(getService)(args, opts);
}

/** {@link getServices} taking Inputs, as an Output. */
export function getServicesOutput(args: InputArgs<{ projectId?: string }> = {}, opts?: FunctionOptions): pulumi.Output<ServiceResult[]> {
  return lifted(getServices)(args, opts);
}

/** {@link getVpc} taking Inputs, as an Output. */
export function getVpcOutput(args: InputArgs<{ vpcId: string; projectId?: string }>, opts?: FunctionOptions): pulumi.Output<VpcResult> {
  return lifted(getVpc)(args, opts);
}

/** {@link getVpcs} taking Inputs, as an Output. */
export function getVpcsOutput(args: InputArgs<{ projectId?: string }> = {}, opts?: FunctionOptions): pulumi.Output<VpcResult[]> {
  return lifted(getVpcs)(args, opts);
}

/** {@link getVpcPeerings} taking Inputs, as an Output. */
export function getVpcPeeringsOutput(
  args: InputArgs<{ vpcId: string; projectId?: string }>,
  opts?: FunctionOptions,
): pulumi.Output<VpcPeeringResult[]> {
  return lifted(getVpcPeerings)(args, opts);
}

/** {@link getReadReplicaSets} taking Inputs, as an Output. */
export function getReadReplicaSetsOutput(
  args: InputArgs<{ serviceId: string; projectId?: string }>,
  opts?: FunctionOptions,
): pulumi.Output<ReadReplicaSetResult[]> {
  return lifted(getReadReplicaSets)(args, opts);
}
