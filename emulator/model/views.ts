/**
 * The API's response shapes (snake_case, as the contract shows them) and the functions
 * that render stored records into them at the current time: each view spreads the
 * record's `shown` fields (see records.ts), then adds what it computes.
 */
import { PEERING_STATUS, REPLICA_SET_STATUS, SERVICE_STATUS } from "../../contract";
import { DATABASE_PORT, HOST_DOMAIN, POOLER_PORT, VOLUME_TYPE } from "./catalog";
import type { ModelStore } from "./model-store";
import { GONE } from "./phase";
import type { PeeringRecord, PeeringStatus, ReplicaSetRecord, ReplicaSetStatus, ServiceRecord, ServiceStatus, VpcRecord } from "./records";

/** A host and port. */
export interface EndpointBody {
  host: string;
  port: number;
}

/** A VPC as the API shows it. */
export interface VpcBody {
  id: string;
  name: string;
  cidr: string;
  region_code: string;
}

/** A peering as the API shows it; `error_message` only while failed. */
export interface PeeringBody {
  id: string;
  peer_account_id: string;
  peer_region_code: string;
  peer_vpc_id: string;
  provisioned_id: string;
  status: PeeringStatus;
  error_message?: string;
}

/** A read replica set as the API shows it. */
export interface ReplicaSetBody {
  id: string;
  name: string;
  nodes: number;
  cpu_millis: number;
  memory_gbs: number;
  endpoint: EndpointBody;
  connection_pooler?: { endpoint: EndpointBody };
  metadata: { environment: string };
  status: ReplicaSetStatus;
}

/** A service as the API shows it. `initial_password` only in create and fork answers. */
export interface ServiceBody {
  service_id: string;
  project_id: string;
  name: string;
  service_type: string;
  status: ServiceStatus;
  created: string;
  region_code: string;
  endpoint: EndpointBody;
  connection_pooler?: { endpoint: EndpointBody };
  initial_password?: string;
  forked_from?: { is_standby: boolean; project_id: string; service_id: string };
  ha_replicas: { replica_count: number; sync_replica_count: number };
  metadata: { environment: string };
  metrics: { memory_mb: number; milli_cpu: number; storage_mb: number };
  read_replica_sets: ReplicaSetBody[];
  resources: Array<{ id: string; spec: { cpu_millis: number; memory_gbs: number; volume_type: string } }>;
  vpcEndpoint?: { vpc_id: string; host: string; port: number };
}

/** `{message}` answers. */
export interface MessageBody {
  message: string;
}

/** Host of a service or replica set: `<id>.<project_id>.clouddb.local`. */
export function hostOf(id: string, projectId: string): string {
  return `${id}.${projectId}.${HOST_DOMAIN}`;
}

/** Renders a VPC. */
export function vpcView(vpc: VpcRecord): VpcBody {
  return { ...vpc.shown, id: vpc.id, name: vpc.name, cidr: vpc.cidr, region_code: vpc.regionCode };
}

/** Renders a peering at the current time. */
export function peeringView(store: ModelStore, peering: PeeringRecord): PeeringBody {
  const status = store.peeringStatus(peering);
  const body: PeeringBody = {
    ...peering.shown,
    id: peering.id,
    peer_account_id: peering.peerAccountId,
    peer_region_code: peering.peerRegionCode,
    peer_vpc_id: peering.peerVpcId,
    provisioned_id: peering.provisionedId,
    status: status === GONE ? PEERING_STATUS.failed : status,
  };
  if (status === PEERING_STATUS.failed) body.error_message = peering.errorMessage ?? "peering failed";
  return body;
}

/**
 * Database and pooler endpoints: the real database's (both the same) when there is one,
 * else `<id>.<project_id>.clouddb.local` on 5432 and 6432.
 */
function endpointsOf(id: string, projectId: string, database: EndpointBody | undefined): { db: EndpointBody; pooler: EndpointBody } {
  if (database !== undefined) return { db: { ...database }, pooler: { ...database } };
  const host = hostOf(id, projectId);
  return { db: { host, port: DATABASE_PORT }, pooler: { host, port: POOLER_PORT } };
}

/** Renders a replica set at the current time; with a real database, its endpoints are the service's. */
export function replicaSetView(store: ModelStore, set: ReplicaSetRecord): ReplicaSetBody {
  const status = store.replicaSetStatus(set);
  const database = store.state.services.find((s) => s.id === set.serviceId)?.database;
  const { db, pooler } = endpointsOf(set.id, set.projectId, database);
  const body: ReplicaSetBody = {
    ...set.shown,
    id: set.id,
    name: set.name,
    nodes: set.nodes,
    cpu_millis: set.cpuMillis,
    memory_gbs: set.memoryGbs,
    endpoint: db,
    metadata: { environment: set.environment },
    status: status === GONE ? REPLICA_SET_STATUS.deleting : status,
  };
  if (set.poolerEnabled) body.connection_pooler = { endpoint: pooler };
  return body;
}

/** Plausible usage figures for a size; nothing runs while paused. */
function metricsFor(service: ServiceRecord, status: ServiceStatus): ServiceBody["metrics"] {
  const storage_mb = 1024 + (service.createdAt % 997);
  if (status === SERVICE_STATUS.PAUSED) return { memory_mb: 0, milli_cpu: 0, storage_mb };
  if (service.cpuMillis === 0) return { memory_mb: 180, milli_cpu: 40, storage_mb };
  return {
    memory_mb: Math.round(service.memoryGbs * 1024 * 0.35),
    milli_cpu: Math.round(service.cpuMillis * 0.08),
    storage_mb,
  };
}

/** Renders a service at the current time (without `initial_password`). */
export function serviceView(store: ModelStore, service: ServiceRecord): ServiceBody {
  const computed = store.serviceStatus(service);
  const status: ServiceStatus = computed === GONE ? SERVICE_STATUS.DELETED : computed;
  const { db, pooler } = endpointsOf(service.id, service.projectId, service.database);
  const body: ServiceBody = {
    ...service.shown,
    service_id: service.id,
    project_id: service.projectId,
    name: service.name,
    service_type: service.serviceType,
    status,
    created: new Date(store.reported.report(service.createdAt)).toISOString(),
    region_code: service.regionCode,
    endpoint: db,
    ha_replicas: { replica_count: service.replicaCount, sync_replica_count: service.syncReplicaCount },
    metadata: { environment: service.environment },
    metrics: metricsFor(service, status),
    read_replica_sets: store.replicaSets(service).map((set) => replicaSetView(store, set)),
    resources: [
      {
        id: service.resourceId,
        spec: { cpu_millis: service.cpuMillis, memory_gbs: service.memoryGbs, volume_type: VOLUME_TYPE },
      },
    ],
  };
  if (service.poolerEnabled) body.connection_pooler = { endpoint: pooler };
  if (service.forkedFrom) {
    body.forked_from = {
      is_standby: service.forkedFrom.isStandby,
      project_id: service.forkedFrom.projectId,
      service_id: service.forkedFrom.serviceId,
    };
  }
  if (service.vpcId !== undefined) {
    body.vpcEndpoint = { vpc_id: service.vpcId, host: `${service.id}.${service.projectId}.vpc.${HOST_DOMAIN}`, port: DATABASE_PORT };
  }
  return body;
}
