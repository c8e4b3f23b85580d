/**
 * Functions for programs: read what exists, without managing it. Each takes the same
 * configuration as the resources (`clouddb:apiUrl`, `clouddb:apiKey`,
 * `clouddb:projectId`, else the CLOUDDB_* environment variables), and has an
 * `...Output` variant taking Inputs and returning an Output, in Pulumi's usual style. Each
 * runs its entry of the provider's lookup table (provider/lookups, which the native plugin's
 * functions serve too), loaded with the API client and the definitions when a lookup first
 * runs; the result types are generated from the same table and definitions (sdk/outputs.ts),
 * and so are the resource kinds' functions (sdk/kindFunctions.ts, from what each definition
 * declares of its lookups).
 */
import * as pulumi from "@pulumi/pulumi";
import { runLookup, type FunctionOptions } from "./lookupCalls";
import type { AuthInfoResult } from "./outputs";

export type { AuthInfoResult } from "./outputs";
export type { FunctionOptions, InputArgs } from "./lookupCalls";
export * from "./kindFunctions";

/** Who the configured credential is (`GET /auth/info`). */
export function getAuthInfo(opts?: FunctionOptions): Promise<AuthInfoResult> {
  return runLookup("getAuthInfo", {}, opts) as Promise<AuthInfoResult>;
}

/** {@link getAuthInfo} as an Output. */
export function getAuthInfoOutput(opts?: FunctionOptions): pulumi.Output<AuthInfoResult> {
  return pulumi.output(getAuthInfo(opts));
}
