/**
 * Functions for programs: read what exists, without managing it. Each takes the same
 * configuration as the resources (`clouddb:apiUrl`, `clouddb:apiKey`,
 * `clouddb:projectId`, else the CLOUDDB_* environment variables), and has an
 * `...Output` variant taking Inputs and returning an Output, in Pulumi's usual style. Each
 * runs its entry of the provider's lookup table (provider/lookups, which the native plugin's
 * functions serve too), loaded with the API client and the definitions when a lookup first
 * runs; the result types are generated from the same table and definitions (sdk/outputs.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import type { ConfigSource } from "../provider/framework/settings";
import type * as lookups from "../provider/lookups";
import type { AuthInfoResult, ReadReplicaSetResult, ServiceResult, VpcPeeringResult, VpcResult } from "./outputs";

export type { AuthInfoResult, ReadReplicaSetResult, ServiceResult, VpcPeeringResult, VpcResult } from "./outputs";

/** Overrides of the configuration for one call. */
export interface FunctionOptions {
  /** API base URL; default `clouddb:apiUrl` / CLOUDDB_API_URL. */
  apiUrl?: string;
  /** API key; default `clouddb:apiKey` / CLOUDDB_API_KEY. */
  apiKey?: string;
  /** Project; default `clouddb:projectId` / CLOUDDB_PROJECT_ID. */
  projectId?: string;
}

/** The lookups' table (provider/lookups), loaded on first use. */
function table(): typeof lookups.LOOKUPS {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require("../provider/lookups") as typeof lookups).LOOKUPS;
}

/** The program's stack configuration (`clouddb:*`), where a program's lookups read their settings. */
function programConfig(): ConfigSource {
  const config = new pulumi.Config("clouddb");
  return { get: (key) => config.get(key.replace(/^clouddb:/, "")) };
}

/** Who the configured credential is (`GET /auth/info`). */
export function getAuthInfo(opts?: FunctionOptions): Promise<AuthInfoResult> {
  return table().getAuthInfo.run({}, opts, programConfig());
}

/** One service of the project. @throws NotFoundError when there is none with that id. */
export function getService(args: { serviceId: string; projectId?: string }, opts?: FunctionOptions): Promise<ServiceResult> {
  return table().getService.run(args, opts, programConfig()) as Promise<ServiceResult>;
}

/** Every service of the project. */
export function getServices(args: { projectId?: string } = {}, opts?: FunctionOptions): Promise<ServiceResult[]> {
  return table().getServices.run(args, opts, programConfig()) as Promise<ServiceResult[]>;
}

/** One VPC of the project. @throws NotFoundError when there is none with that id. */
export function getVpc(args: { vpcId: string; projectId?: string }, opts?: FunctionOptions): Promise<VpcResult> {
  return table().getVpc.run(args, opts, programConfig()) as Promise<VpcResult>;
}

/** Every VPC of the project. */
export function getVpcs(args: { projectId?: string } = {}, opts?: FunctionOptions): Promise<VpcResult[]> {
  return table().getVpcs.run(args, opts, programConfig()) as Promise<VpcResult[]>;
}

/** The peerings of a VPC. */
export function getVpcPeerings(args: { vpcId: string; projectId?: string }, opts?: FunctionOptions): Promise<VpcPeeringResult[]> {
  return table().getVpcPeerings.run(args, opts, programConfig()) as Promise<VpcPeeringResult[]>;
}

/** The read replica sets of a service. */
export function getReadReplicaSets(
  args: { serviceId: string; projectId?: string },
  opts?: FunctionOptions,
): Promise<ReadReplicaSetResult[]> {
  return table().getReadReplicaSets.run(args, opts, programConfig()) as Promise<ReadReplicaSetResult[]>;
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
