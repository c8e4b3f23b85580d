/**
 * Request body types of the operations whose bodies CONTRACT.md defines. Plain types:
 * the server validates them (400 INVALID_REQUEST with details when a value is not allowed).
 */
import type { Environment, ForkStrategy, KnownServiceType } from "../../contract";

/** Body of `createVpc`. */
export interface CreateVpcRequest {
  /** 1 to 128 characters. */
  name: string;
  /** IPv4 CIDR, prefix 16 to 28, host bits zero. */
  cidr: string;
  /** A region the server offers. */
  region_code: string;
}

/** Body of `createPeering`. */
export interface CreatePeeringRequest {
  /** Account of the peer VPC. */
  peer_account_id: string;
  /** Region of the peer VPC. */
  peer_region_code: string;
  /** Id of the peer VPC. */
  peer_vpc_id: string;
}

/** Body of `createService`; defaults are the server's (CONTRACT.md). */
export interface CreateServiceRequest {
  /** 1 to 128 characters. */
  name: string;
  /** @default "TIMESERIES" */
  service_type?: KnownServiceType;
  /** @default "us-east-1" */
  region_code?: string;
  /** Milli-cores as a string (`"500"`, or `"shared"`); give both or neither. @default "500" */
  cpu_millis?: string;
  /** Gigabytes as a string (`"2"`, or `"shared"`); give both or neither. @default "2" */
  memory_gbs?: string;
  /** High-availability replicas, 0 to 2. @default 0 */
  replica_count?: number;
  /** @default "DEV" */
  environment_tag?: Environment;
}

/** Body of `forkService`. */
export interface ForkServiceRequest {
  /** How to fork. */
  fork_strategy: ForkStrategy;
  /** RFC 3339; required for `PITR`, between the source's `created` and now. */
  target_time?: string;
  /** @default source name + "-fork" */
  name?: string;
  /** @default the source's */
  cpu_millis?: string;
  /** @default the source's */
  memory_gbs?: string;
  /** @default "DEV" */
  environment_tag?: Environment;
}

/** Body of `resizeService` (one allowed pair, as strings). */
export interface ResizeServiceRequest {
  /** Milli-cores, e.g. `"1000"`. */
  cpu_millis: string;
  /** Gigabytes, e.g. `"4"`. */
  memory_gbs: string;
}

/** Body of `setServiceHA`; give at least one field. */
export interface SetHARequest {
  /** 0 to 2. */
  replica_count?: number;
  /** 0 to `replica_count`. */
  sync_replica_count?: number;
}

/** Body of `createReplicaSet` (numbers). */
export interface CreateReplicaSetRequest {
  /** 1 to 128 characters (a lost answer is recovered by it only when it is unique: see {@link CreateOptions.uniqueName}). */
  name: string;
  /** 1 to 10. */
  nodes: number;
  /** Milli-cores (an allowed pair, not shared). */
  cpu_millis: number;
  /** Gigabytes. */
  memory_gbs: number;
}

/** Body of `resizeReplicaSet`. */
export interface ResizeReplicaSetRequest {
  /** Milli-cores. */
  cpu_millis: number | string;
  /** Gigabytes. */
  memory_gbs: number | string;
  /** 1 to 10; unchanged when absent. */
  nodes?: number;
}

/** Last argument of every project-scoped method. */
export interface ProjectOptions {
  /** Project to address. @default the client's `projectId` */
  projectId?: string;
}

/** Options of the creates of named resources (VPCs, services, forks, replica sets). */
export interface CreateOptions extends ProjectOptions {
  /**
   * `true` when the request's `name` belongs to this create alone (generated with a random
   * suffix, as the providers' autonaming does): when its answer is lost, a listed resource
   * of exactly that name is what it made, whatever the clocks say, and is taken over.
   * Otherwise a name proves nothing (another client may use it), and a resource that fits
   * is never taken over: the create fails naming every candidate and the `adoptId` to use.
   * @default false
   */
  uniqueName?: boolean;
}

/** Options of reads that the read cache may serve (`getService`). */
export interface ReadOptions extends ProjectOptions {
  /** Skip the read cache and ask the API. @default false */
  fresh?: boolean;
}
