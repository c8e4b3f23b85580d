/**
 * The fixed values of the emulator's own making: hosts, ports, the volume type and the
 * nominal durations of every transition. The values the contract fixes (regions, sizes,
 * limits, defaults: CONTRACT.md, "Identifiers and values") are in the contract,
 * contract/values.ts, contract/sizes.ts and contract/defaults.ts.
 */

/** Storage volume type reported in `resources[].spec.volume_type`. */
export const VOLUME_TYPE = "gp3";

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
