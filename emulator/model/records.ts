/**
 * What the emulator stores: plain JSON-serialisable records. Statuses are not stored
 * directly; each record holds a {@link Phase} from which its status is computed.
 */
import type { Environment, RegionCode, ServiceType } from "./catalog";
import type { Phase } from "./phase";

/** Service statuses (SPEC 3.1). */
export type ServiceStatus =
  "QUEUED" | "DELETING" | "CONFIGURING" | "READY" | "DELETED" | "UNSTABLE" | "PAUSING" | "PAUSED" | "RESUMING" | "UPGRADING" | "OPTIMIZING";

/** Read replica set statuses (SPEC 3.2). */
export type ReplicaSetStatus = "creating" | "active" | "resizing" | "deleting" | "error";

/** Peering statuses (CONTRACT "States"). */
export type PeeringStatus = "pending" | "active" | "failed";

/** A stored VPC. */
export interface VpcRecord {
  id: string;
  projectId: string;
  name: string;
  cidr: string;
  regionCode: RegionCode;
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
}

/** A stored service. */
export interface ServiceRecord {
  id: string;
  projectId: string;
  name: string;
  serviceType: ServiceType;
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
}

/** Everything the model holds, as persisted. */
export interface ModelState {
  vpcs: VpcRecord[];
  peerings: PeeringRecord[];
  services: ServiceRecord[];
  replicaSets: ReplicaSetRecord[];
}

/** An empty state. */
export function emptyState(): ModelState {
  return { vpcs: [], peerings: [], services: [], replicaSets: [] };
}
