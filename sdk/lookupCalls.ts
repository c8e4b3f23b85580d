/**
 * How the TypeScript SDK's lookup functions (sdk/functions.ts, the kinds' generated in
 * sdk/kindFunctions.ts) call the provider's lookups' table (provider/lookups), loaded with the
 * API client and the definitions when a lookup first runs, with the program's configuration.
 */
import * as pulumi from "@pulumi/pulumi";
import type * as lookups from "../provider/lookups";

/** Overrides of the configuration for one call. */
export interface FunctionOptions {
  /** API base URL; default `clouddb:apiUrl` / CLOUDDB_API_URL. */
  apiUrl?: string;
  /** API key; default `clouddb:apiKey` / CLOUDDB_API_KEY. */
  apiKey?: string;
  /** Project; default `clouddb:projectId` / CLOUDDB_PROJECT_ID. */
  projectId?: string;
}

/**
 * The lookups' table (provider/lookups), loaded on first use. Not exported: the SDK's declarations
 * name none of the provider's types (no client or zod types in a program's type graph).
 */
function table(): typeof lookups.LOOKUPS {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require("../provider/lookups") as typeof lookups).LOOKUPS;
}

/** The program's stack configuration (`clouddb:*`), where a program's lookups read their settings: a ConfigSource (provider/framework/settings.ts). */
export function programConfig(): { get(key: string): string | undefined } {
  const config = new pulumi.Config("clouddb");
  return { get: (key) => config.get(key.replace(/^clouddb:/, "")) };
}

/** Runs the table's lookup `name` with `args`, the call's options and the program's configuration. */
export function runLookup(name: string, args: object, opts: FunctionOptions | undefined): Promise<unknown> {
  return table()[name].run(args as Record<string, string | undefined>, opts, programConfig());
}

/** The arguments of a lookup function, each of which may be an Input: what the `...Output` variants take. */
export type InputArgs<T> = { [K in keyof T]: pulumi.Input<T[K]> };
