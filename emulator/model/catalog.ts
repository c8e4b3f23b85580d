/**
 * The fixed values the emulator offers: regions, sizes, service types, limits and the
 * nominal durations of every transition (CONTRACT.md, "Identifiers and values").
 */

/** Regions the emulator offers for VPCs, services and peers. */
export const REGIONS = ["us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-southeast-1", "ap-southeast-2", "sa-east-1"] as const;

/** The kinds of service the API knows. */
export const SERVICE_TYPES = ["TIMESERIES", "RELATIONAL", "VECTOR"] as const;

/** Environment tags of services and replica sets. */
export const ENVIRONMENTS = ["DEV", "PROD"] as const;

/** Fork strategies accepted by `forkService`. */
export const FORK_STRATEGIES = ["LAST_SNAPSHOT", "NOW", "PITR"] as const;

/** A region code the emulator offers. */
export type RegionCode = (typeof REGIONS)[number];
/** A service type. */
export type ServiceType = (typeof SERVICE_TYPES)[number];
/** An environment tag. */
export type Environment = (typeof ENVIRONMENTS)[number];
/** A fork strategy. */
export type ForkStrategy = (typeof FORK_STRATEGIES)[number];

/**
 * A CPU/memory allocation. `shared` is the shared-CPU plan; it is stored as
 * `cpuMillis: 0, memoryGbs: 0` and shown that way in `resources[].spec`.
 */
export interface SizePair {
  /** Milli-cores; 0 for the shared plan. */
  readonly cpuMillis: number;
  /** Gigabytes; 0 for the shared plan. */
  readonly memoryGbs: number;
}

/** The dedicated CPU/memory pairs, as numbers (millicores / gigabytes). */
export const DEDICATED_SIZES: readonly SizePair[] = [
  { cpuMillis: 500, memoryGbs: 2 },
  { cpuMillis: 1000, memoryGbs: 4 },
  { cpuMillis: 2000, memoryGbs: 8 },
  { cpuMillis: 4000, memoryGbs: 16 },
  { cpuMillis: 8000, memoryGbs: 32 },
  { cpuMillis: 16000, memoryGbs: 64 },
  { cpuMillis: 32000, memoryGbs: 128 },
];

/** The shared plan, sent as `"shared"/"shared"` and shown as `0/0`. */
export const SHARED_SIZE: SizePair = { cpuMillis: 0, memoryGbs: 0 };

/** The pairs a service may ask for, as the strings requests carry. */
export const SERVICE_SIZE_STRINGS: readonly string[] = ["shared/shared", ...DEDICATED_SIZES.map((p) => `${p.cpuMillis}/${p.memoryGbs}`)];

/** Storage volume type reported in `resources[].spec.volume_type`. */
export const VOLUME_TYPE = "gp3";

/** Bounds of the values the API accepts. */
export const LIMITS = {
  nameMaxLength: 128,
  passwordMinLength: 8,
  passwordMaxLength: 128,
  replicaSetNodesMin: 1,
  replicaSetNodesMax: 10,
  haReplicaCountMax: 2,
  cidrPrefixMin: 16,
  cidrPrefixMax: 28,
} as const;

/** DNS domain of generated hosts: `<service_id>.<project_id>.clouddb.local`. */
export const HOST_DOMAIN = "clouddb.local";
/** Port of a database endpoint. */
export const DATABASE_PORT = 5432;
/** Port of a connection-pooler endpoint. */
export const POOLER_PORT = 6432;

/** Nominal transition durations in milliseconds, before the clock scale is applied. */
export const NOMINAL_MS = {
  queued: 2000,
  configuringOnCreate: 5000,
  configuringOnChange: 3000,
  pausing: 2000,
  resuming: 2000,
  deleting: 2000,
  replicaSet: 3000,
  peeringPending: 3000,
} as const;
