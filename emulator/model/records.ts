/**
 * What the emulator stores: plain JSON-serialisable records. Statuses are not stored
 * directly; each record holds a {@link Phase} from which its status is computed.
 *
 * Every record may carry `shown`: fields the API shows as they are stored, which its view
 * spreads into the answer as they are. A new response field is set there, by the
 * operation that changes it, and needs no change here nor in views.ts.
 */
import type { Environment, KnownServiceType, KnownStatus, RegionCode } from "../../contract";
import type { Phase } from "./phase";

/** Service statuses (SPEC 3.1). */
export type ServiceStatus = KnownStatus<"service">;

/** Read replica set statuses (SPEC 3.2). */
export type ReplicaSetStatus = KnownStatus<"replica set">;

/** Peering statuses (CONTRACT "States"). */
export type PeeringStatus = KnownStatus<"peering">;

/** A stored VPC. */
export interface VpcRecord {
  id: string;
  projectId: string;
  name: string;
  cidr: string;
  regionCode: RegionCode;
  /** Fields shown as stored. */
  shown?: Record<string, unknown>;
}

/** A stored VPC peering. */
export interface PeeringRecord {
  id: string;
  projectId: string;
  vpcId: string;
  peerAccountId: string;
  peerRegionCode: RegionCode;
  peerVpcId: string;
  provisionedId: string;
  phase: Phase<PeeringStatus>;
  /** Shown as `error_message` while the status is `failed`. */
  errorMessage?: string;
  /** Fields shown as stored. */
  shown?: Record<string, unknown>;
}

/** A stored read replica set. */
export interface ReplicaSetRecord {
  id: string;
  projectId: string;
  serviceId: string;
  name: string;
  nodes: number;
  cpuMillis: number;
  memoryGbs: number;
  environment: Environment;
  poolerEnabled: boolean;
  phase: Phase<ReplicaSetStatus>;
  createdAt: number;
  /** Fields shown as stored. */
  shown?: Record<string, unknown>;
}

/** A stored service. */
export interface ServiceRecord {
  id: string;
  projectId: string;
  name: string;
  serviceType: KnownServiceType;
  regionCode: RegionCode;
  createdAt: number;
  resourceId: string;
  cpuMillis: number;
  memoryGbs: number;
  environment: Environment;
  replicaCount: number;
  syncReplicaCount: number;
  poolerEnabled: boolean;
  password: string;
  vpcId?: string;
  /** Endpoint of the real database behind the service (`--postgres`); absent otherwise. */
  database?: { host: string; port: number };
  forkedFrom?: { projectId: string; serviceId: string; isStandby: boolean };
  phase: Phase<ServiceStatus>;
  /** Fields shown as stored. */
  shown?: Record<string, unknown>;
}

/**
 * Everything the model holds, as persisted: the records of each resource type by
 * collection name. A resource type added later keeps its records in a collection of its
 * own (see `ModelStore.collection`), persisted with the rest.
 */
export interface ModelState {
  vpcs: VpcRecord[];
  peerings: PeeringRecord[];
  services: ServiceRecord[];
  replicaSets: ReplicaSetRecord[];
  [collection: string]: object[];
}

/** An empty state. */
export function emptyState(): ModelState {
  return { vpcs: [], peerings: [], services: [], replicaSets: [] };
}
