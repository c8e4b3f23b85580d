/**
 * The fixed values of the contract (CONTRACT.md, "Identifiers and values"): regions,
 * service types, environments, fork strategies, identifier shapes and bounds. The rules
 * (rules.ts) check against them; the emulator offers exactly these.
 */

/** Regions the API offers for VPCs, services and peers. */
export const REGIONS = ["us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-southeast-1", "ap-southeast-2", "sa-east-1"] as const;

/**
 * The shape of a region code, the regions above and any the API adds (`us-gov-west-1`): two
 * letters, words of letters, a number, joined by dashes. What an answer shows as a region is
 * read only in this shape (readable.ts); a request's region is one of {@link REGIONS}.
 */
export const REGION_SHAPE = /^[a-z]{2}(-[a-z]+)+-[0-9]+$/;

/** Known values of `Service.service_type`. */
export const SERVICE_TYPES = ["TIMESERIES", "RELATIONAL", "VECTOR"] as const;

/** Allowed environment tags of services and replica sets. */
export const ENVIRONMENTS = ["DEV", "PROD"] as const;

/** Fork strategies accepted by `forkService`. */
export const FORK_STRATEGIES = ["LAST_SNAPSHOT", "NOW", "PITR"] as const;

/** A region code the API offers. */
export type RegionCode = (typeof REGIONS)[number];
/** A service type this client knows (what a create may ask for). */
export type KnownServiceType = (typeof SERVICE_TYPES)[number];
/** An environment tag. */
export type Environment = (typeof ENVIRONMENTS)[number];
/** Allowed fork strategies. */
export type ForkStrategy = (typeof FORK_STRATEGIES)[number];

/** Shape of project, service and replica set ids: 10 characters of `[a-z0-9]`. */
export const SHORT_ID_PATTERN = /^[a-z0-9]{10}$/;

/** Shape of VPC and peering ids: a decimal number as a string. */
export const NUMERIC_ID_PATTERN = /^[0-9]+$/;

/** Bounds of the values the API accepts. */
export const LIMITS = {
  /** Names of services, VPCs and replica sets, and the peer ids of a peering: at least this many characters (code points). */
  nameMinLength: 1,
  /** Names of services, VPCs and replica sets, and the peer ids of a peering: at most this many characters (code points). */
  nameMaxLength: 128,
  passwordMinLength: 8,
  passwordMaxLength: 128,
  replicaSetNodesMin: 1,
  replicaSetNodesMax: 10,
  haReplicaCountMin: 0,
  haReplicaCountMax: 2,
  cidrPrefixMin: 16,
  cidrPrefixMax: 28,
} as const;
