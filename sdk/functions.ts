/**
 * Functions for programs: read what exists, without managing it. Each takes the same
 * configuration as the resources (`clouddb:apiUrl`, `clouddb:apiKey`,
 * `clouddb:projectId`, else the CLOUDDB_* environment variables), and has an
 * `...Output` variant taking Inputs and returning an Output, in Pulumi's usual style. The
 * implementation (sdk/lookups.ts: the API client and the definitions) is loaded when a
 * lookup first runs.
 */
import * as pulumi from "@pulumi/pulumi";
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

/** The implementation, loaded on first use. */
function impl(): typeof import("./lookups") {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require("./lookups") as typeof import("./lookups");
}

/** Who the configured credential is (`GET /auth/info`). */
export function getAuthInfo(opts?: FunctionOptions): Promise<AuthInfoResult> {
  return impl().getAuthInfo(opts);
}

/** One service of the project. @throws NotFoundError when there is none with that id. */
export function getService(args: { serviceId: string; projectId?: string }, opts?: FunctionOptions): Promise<ServiceResult> {
  return impl().getService(args, opts);
}

/** Every service of the project. */
export function getServices(args: { projectId?: string } = {}, opts?: FunctionOptions): Promise<ServiceResult[]> {
  return impl().getServices(args, opts);
}

/** One VPC of the project. @throws NotFoundError when there is none with that id. */
export function getVpc(args: { vpcId: string; projectId?: string }, opts?: FunctionOptions): Promise<VpcResult> {
  return impl().getVpc(args, opts);
}

/** Every VPC of the project. */
export function getVpcs(args: { projectId?: string } = {}, opts?: FunctionOptions): Promise<VpcResult[]> {
  return impl().getVpcs(args, opts);
}

/** The peerings of a VPC. */
export function getVpcPeerings(args: { vpcId: string; projectId?: string }, opts?: FunctionOptions): Promise<VpcPeeringResult[]> {
  return impl().getVpcPeerings(args, opts);
}

/** The read replica sets of a service. */
export function getReadReplicaSets(
  args: { serviceId: string; projectId?: string },
  opts?: FunctionOptions,
): Promise<ReadReplicaSetResult[]> {
  return impl().getReadReplicaSets(args, opts);
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
export const getServiceOutput = lifted(getService);
/** {@link getServices} taking Inputs, as an Output. */
export const getServicesOutput = lifted(getServices);
/** {@link getVpc} taking Inputs, as an Output. */
export const getVpcOutput = lifted(getVpc);
/** {@link getVpcs} taking Inputs, as an Output. */
export const getVpcsOutput = lifted(getVpcs);
/** {@link getVpcPeerings} taking Inputs, as an Output. */
export const getVpcPeeringsOutput = lifted(getVpcPeerings);
/** {@link getReadReplicaSets} taking Inputs, as an Output. */
export const getReadReplicaSetsOutput = lifted(getReadReplicaSets);
