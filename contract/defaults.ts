/**
 * What the API gives a new service for what its request leaves out (CONTRACT.md, "create
 * service" and "fork service"). The emulator applies them, create recovery expects them of
 * what a create made, and the provider's Service inputs default to them.
 */
import type { SizePair } from "./sizes";
import type { Environment, KnownServiceType, RegionCode } from "./values";

/** The defaults of `createService`: type, region, size, HA replicas and environment. */
export const SERVICE_DEFAULTS = {
  serviceType: "TIMESERIES",
  regionCode: "us-east-1",
  cpuMillis: 500,
  memoryGbs: 2,
  replicaCount: 0,
  syncReplicaCount: 0,
  environment: "DEV",
} as const satisfies SizePair & {
  readonly serviceType: KnownServiceType;
  readonly regionCode: RegionCode;
  readonly replicaCount: number;
  /** A create cannot ask for synchronous replicas: a new service has none. */
  readonly syncReplicaCount: number;
  readonly environment: Environment;
};

/** The defaults of `forkService`: the environment (the name is the source's with {@link FORK_DEFAULTS.nameSuffix}; the rest is the source's). */
export const FORK_DEFAULTS = {
  environment: "DEV",
  nameSuffix: "-fork",
} as const satisfies { readonly environment: Environment; readonly nameSuffix: string };
