/**
 * Rounds of values no rule takes (contract/readable.ts), for every field whose value can drive a
 * replacement or an update of every kind, as the emulator's rewrites give them to the providers
 * over real HTTP: in each round every such field of a stack of all four kinds is rewritten in
 * the answers that read it. Blank strings, values of other types, values of other fields and
 * resources. A status of another type is not among them: the client relies on statuses, so
 * such an answer is unreadable as a whole (see the suites).
 */
import type { RewriteRule } from "../../../emulator/control-client";

/** Where each kind is read, with the stack config of the harness (no shared list cache): a GET of one, or its list. */
export const PATHS = {
  vpc: "/vpcs/[0-9]+$",
  peering: "/peerings(/[0-9]+)?$",
  service: "/services/[a-z0-9]+$",
  replicaSet: "/replicaSets$",
} as const;

/** One field of one kind: the path of the answers it is read from, its name there, and the field a warning names. */
interface Field {
  readonly path: string;
  readonly field: string;
  readonly warned: string;
  readonly type: "text" | "number" | "pooler" | "vpc";
}

/** Every field whose value can drive a replacement or an update, of a stack of all four kinds (statuses apart). */
export const FIELDS: readonly Field[] = [
  { path: PATHS.vpc, field: "name", warned: "name", type: "text" },
  { path: PATHS.vpc, field: "cidr", warned: "cidr", type: "text" },
  { path: PATHS.vpc, field: "region_code", warned: "region_code", type: "text" },
  { path: PATHS.peering, field: "peer_account_id", warned: "peer_account_id", type: "text" },
  { path: PATHS.peering, field: "peer_region_code", warned: "peer_region_code", type: "text" },
  { path: PATHS.peering, field: "peer_vpc_id", warned: "peer_vpc_id", type: "text" },
  { path: PATHS.service, field: "name", warned: "name", type: "text" },
  { path: PATHS.service, field: "service_type", warned: "service_type", type: "text" },
  { path: PATHS.service, field: "region_code", warned: "region_code", type: "text" },
  { path: PATHS.service, field: "cpu_millis", warned: "resources", type: "number" },
  { path: PATHS.service, field: "memory_gbs", warned: "resources", type: "number" },
  { path: PATHS.service, field: "replica_count", warned: "ha_replicas", type: "number" },
  { path: PATHS.service, field: "sync_replica_count", warned: "ha_replicas", type: "number" },
  { path: PATHS.service, field: "environment", warned: "metadata.environment", type: "text" },
  { path: PATHS.service, field: "connection_pooler", warned: "connection_pooler", type: "pooler" },
  { path: PATHS.service, field: "vpc_id", warned: "vpcEndpoint", type: "vpc" },
  { path: PATHS.replicaSet, field: "name", warned: "name", type: "text" },
  { path: PATHS.replicaSet, field: "nodes", warned: "nodes", type: "number" },
  { path: PATHS.replicaSet, field: "cpu_millis", warned: "cpu_millis", type: "number" },
  { path: PATHS.replicaSet, field: "memory_gbs", warned: "memory_gbs", type: "number" },
  { path: PATHS.replicaSet, field: "environment", warned: "metadata.environment", type: "text" },
  { path: PATHS.replicaSet, field: "connection_pooler", warned: "connection_pooler", type: "pooler" },
];

/** The statuses, in the answers of each kind that has one. */
export const STATUSES: readonly Field[] = [
  { path: PATHS.peering, field: "status", warned: "status", type: "text" },
  { path: PATHS.service, field: "status", warned: "status", type: "text" },
  { path: PATHS.replicaSet, field: "status", warned: "status", type: "text" },
];

/** A value of another field or resource, for each field (by kind path and name): what none of its rules takes. */
const FOREIGN: Readonly<Record<string, readonly unknown[]>> = {
  [`${PATHS.vpc} name`]: ["x".repeat(129), "bad\u0001name", "tab\tname"],
  [`${PATHS.vpc} cidr`]: ["us-east-1", "10.0.0.1/16", "10.0.0.0/8"],
  [`${PATHS.vpc} region_code`]: ["TIMESERIES", "10.0.0.0/16", "US-EAST-1"],
  [`${PATHS.peering} peer_account_id`]: ["x".repeat(129), "x".repeat(200), "y".repeat(300)],
  [`${PATHS.peering} peer_region_code`]: ["10.0.0.0/16", "us-east-1 ", "DEV"],
  [`${PATHS.peering} peer_vpc_id`]: ["x".repeat(129), "x".repeat(200), "y".repeat(300)],
  [`${PATHS.service} name`]: ["x".repeat(129), "bad\u0001name", "tab\tname"],
  [`${PATHS.service} service_type`]: ["us-east-1", "ANALYTICS", "timeseries"],
  [`${PATHS.service} region_code`]: ["TIMESERIES", "abcdefghij", "us-east-1 "],
  [`${PATHS.service} cpu_millis`]: [3, 1001, 2000],
  [`${PATHS.service} memory_gbs`]: [8, 0, 3],
  [`${PATHS.service} replica_count`]: [3, -1, 1.5],
  [`${PATHS.service} sync_replica_count`]: [2, 3, 0.5],
  [`${PATHS.service} environment`]: ["STAGING", "us-east-1", "dev"],
  [`${PATHS.service} connection_pooler`]: ["true", true, 6432],
  [`${PATHS.service} vpc_id`]: ["abcdefghij", "10.0.0.0/16", "12a"],
  [`${PATHS.replicaSet} name`]: ["x".repeat(129), "bad\u0001name", "tab\tname"],
  [`${PATHS.replicaSet} nodes`]: [11, 0, 1.5],
  [`${PATHS.replicaSet} cpu_millis`]: [3, 0, 1001],
  [`${PATHS.replicaSet} memory_gbs`]: [8, 0, 3],
  [`${PATHS.replicaSet} environment`]: ["STAGING", "TIMESERIES", "prod"],
  [`${PATHS.replicaSet} connection_pooler`]: ["on", false, 1],
};

/** A value of each other type, for a field of `type`. */
function otherTypes(type: Field["type"]): readonly unknown[] {
  switch (type) {
    case "text":
      return [7, true, {}, ["x"]];
    case "number":
      return ["abc", true, {}, [1]];
    case "pooler":
      return ["", 7, "x", [{}]];
    case "vpc":
      return [true, {}, [], ""];
  }
}

/** Blank strings: what every field reads as no value. */
export const BLANKS: readonly string[] = ["", "  ", "\t", " \n "];

/** One round: a value for every field. */
export interface Round {
  readonly name: string;
  readonly rules: readonly (RewriteRule & { readonly warned: string })[];
}

/** The rounds: each blank string, each other type, each value of another field or resource (three of each field), every field in each. */
export function rounds(): Round[] {
  const rule = (f: Field, value: unknown) => ({ method: "GET", path: f.path, field: f.field, value, count: 10_000, warned: f.warned });
  const blanks = BLANKS.map((b) => ({ name: `blank ${JSON.stringify(b)}`, rules: FIELDS.map((f) => rule(f, b)) }));
  const types = [0, 1, 2, 3].map((i) => ({ name: `another type (${i + 1})`, rules: FIELDS.map((f) => rule(f, otherTypes(f.type)[i])) }));
  const foreign = [0, 1, 2].map((i) => ({
    name: `a value of another field or resource (${i + 1})`,
    rules: FIELDS.map((f) => {
      const value = FOREIGN[`${f.path} ${f.field}`]?.[i];
      if (value === undefined) throw new Error(`no value ${i + 1} of another field for ${f.field} at ${f.path}`);
      return rule(f, value);
    }),
  }));
  return [...blanks, ...types, ...foreign];
}
