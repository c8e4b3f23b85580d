/**
 * The fixed values of the contract (CONTRACT.md, "Identifiers and values"): regions,
 * service types, environments, fork strategies, sizes and bounds. The request schemas of
 * the API descriptions check against them; the emulator offers exactly these.
 */

/** Regions the emulator offers for VPCs, services and peers. */
export const REGIONS = ["us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-southeast-1", "ap-southeast-2", "sa-east-1"] as const;

/** Known values of `Service.service_type`. */
export const SERVICE_TYPES = ["TIMESERIES", "RELATIONAL", "VECTOR"] as const;

/** Allowed environment tags of services and replica sets. */
export const ENVIRONMENTS = ["DEV", "PROD"] as const;

/** Fork strategies accepted by `forkService`. */
export const FORK_STRATEGIES = ["LAST_SNAPSHOT", "NOW", "PITR"] as const;

/** A region code the emulator offers. */
export type RegionCode = (typeof REGIONS)[number];
/** A service type this client knows (what a create may ask for). */
export type KnownServiceType = (typeof SERVICE_TYPES)[number];
/** An environment tag. */
export type Environment = (typeof ENVIRONMENTS)[number];
/** Allowed fork strategies. */
export type ForkStrategy = (typeof FORK_STRATEGIES)[number];

/** Shape of VPC and peering ids: a decimal number as a string. */
export const NUMERIC_ID_PATTERN = /^[0-9]+$/;

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

/** Finds the service size for a pair of request strings. */
export function serviceSizeFromStrings(cpu: string, memory: string): SizePair | undefined {
  if (cpu === "shared" && memory === "shared") return SHARED_SIZE;
  return DEDICATED_SIZES.find((p) => String(p.cpuMillis) === cpu && String(p.memoryGbs) === memory);
}

/** Finds the replica-set size for numbers (the shared plan is not offered). */
export function replicaSetSize(cpu: number, memory: number): SizePair | undefined {
  return DEDICATED_SIZES.find((p) => p.cpuMillis === cpu && p.memoryGbs === memory);
}
