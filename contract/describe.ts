/**
 * The contract's values and bounds in words, for documentation: every doc string of an input
 * that names a bound or a set of allowed values (a name's length, a password's, a CIDR's
 * prefixes, a replica count, the nodes of a replica set, the regions, types, environments and
 * fork strategies) takes it from here, and this file from values.ts. Changing a bound there
 * changes each generated doc string (`schema.json`, the SDKs, the README's tables) at the next
 * `npm run generate`; tests/unit/docLimits.test.ts fails when a doc retypes one.
 */
import { ENVIRONMENTS, FORK_STRATEGIES, LIMITS, SERVICE_TYPES } from "./values";

/**
 * Values as documentation lists them, each in backticks: `` `A` ``, `` `A` or `B` ``,
 * `` `A`, `B` or `C` `` (`` `A`, `B`, or `C` `` with `serialComma`).
 */
export function listed(values: readonly string[], serialComma = false): string {
  const quoted = values.map((v) => `\`${v}\``);
  if (quoted.length <= 1) return quoted.join("");
  const last = quoted.length > 2 && serialComma ? ", or " : " or ";
  return `${quoted.slice(0, -1).join(", ")}${last}${quoted[quoted.length - 1]}`;
}

/** A range in words: `1 to 10`. */
export function range(min: number | string, max: number | string): string {
  return `${min} to ${max}`;
}

/** What a name may be (services, VPCs, replica sets): `1 to 128 characters`. */
export const NAME_LENGTH_TEXT = `${range(LIMITS.nameMinLength, LIMITS.nameMaxLength)} characters`;

/** What a password may be: `8 to 128 characters`. */
export const PASSWORD_LENGTH_TEXT = `${range(LIMITS.passwordMinLength, LIMITS.passwordMaxLength)} characters`;

/** The prefix lengths a VPC's network may have: `prefix 16 to 28`. */
export const CIDR_PREFIX_TEXT = `prefix ${range(LIMITS.cidrPrefixMin, LIMITS.cidrPrefixMax)}`;

/** The nodes a replica set may have: `1 to 10`. */
export const REPLICA_SET_NODES_TEXT = range(LIMITS.replicaSetNodesMin, LIMITS.replicaSetNodesMax);

/** The HA replicas a service may have: `0 to 2`. */
export const HA_REPLICA_COUNT_TEXT = range(LIMITS.haReplicaCountMin, LIMITS.haReplicaCountMax);

/** The service types a create may ask for: `` `TIMESERIES`, `RELATIONAL` or `VECTOR` ``. */
export const SERVICE_TYPES_TEXT = listed(SERVICE_TYPES);

/** The environment tags: `` `DEV` or `PROD` ``. */
export const ENVIRONMENTS_TEXT = listed(ENVIRONMENTS);

/** The fork strategies: `` `LAST_SNAPSHOT`, `NOW` or `PITR` ``. */
export const FORK_STRATEGIES_TEXT = listed(FORK_STRATEGIES);
