/**
 * What the lookup functions return, declared here as plain types so that a program's
 * type graph holds only this package's SDK and `@pulumi/pulumi`: nothing of the API
 * client or its validation library (zod) reaches a program's compilation. The
 * functions build these from the provider's own outputs, so the compiler checks that
 * the two stay in step.
 */

import type { Size } from "./service";

/** A service as the functions return it: the outputs of a `clouddb.Service`, without the password. */
export interface ServiceResult {
  /** The service's id. */
  readonly serviceId: string;
  /** The project. */
  readonly projectId: string;
  /** The name. */
  readonly name: string;
  /** `TIMESERIES`, `RELATIONAL` or `VECTOR`. */
  readonly serviceType: string;
  /** The region. */
  readonly regionCode: string;
  /** Status when read (`READY`, `PAUSED`, ...). */
  readonly status: string;
  /** Creation time (RFC 3339). */
  readonly created: string;
  /** Connection host. */
  readonly host: string;
  /** Connection port. */
  readonly port: number;
  /** Pooler host, while the pooler is on. */
  readonly poolerHost?: string;
  /** Pooler port, while the pooler is on. */
  readonly poolerPort?: number;
  /** Whether the pooler is on. */
  readonly connectionPooler: boolean;
  /** The VPC the service is attached to, if any. */
  readonly vpcId?: string;
  /** The VPC endpoint `{ vpc_id, host, port }`, while attached. */
  readonly vpcEndpoint?: Record<string, unknown>;
  /** CPU in millicores or `"shared"`. */
  readonly cpuMillis: Size;
  /** Memory in GB or `"shared"`. */
  readonly memoryGbs: Size;
  /** Allocated resources. */
  readonly resources: Array<{ id: string; cpuMillis: Size; memoryGbs: Size; volumeType: string }>;
  /** HA replicas. */
  readonly haReplicas: { readonly replicaCount: number; readonly syncReplicaCount: number };
  /** `DEV` or `PROD`. */
  readonly environment: string;
  /** Whether the service is paused. */
  readonly paused: boolean;
  /** Origin of a fork, as the API reports it. */
  readonly forkedFrom?: { serviceId: string; projectId: string; isStandby: boolean };
}

/** A VPC as the functions return it. */
export interface VpcResult {
  /** The VPC's id. */
  readonly vpcId: string;
  /** The name. */
  readonly name: string;
  /** The network, e.g. `10.0.0.0/16`. */
  readonly cidr: string;
  /** The region. */
  readonly regionCode: string;
  /** The project. */
  readonly projectId: string;
}

/** A VPC peering as the functions return it. */
export interface VpcPeeringResult {
  /** The peering's id. */
  readonly peeringId: string;
  /** Our VPC. */
  readonly vpcId: string;
  /** The peer's cloud account. */
  readonly peerAccountId: string;
  /** The peer VPC's region. */
  readonly peerRegionCode: string;
  /** The peer VPC. */
  readonly peerVpcId: string;
  /** The project. */
  readonly projectId: string;
  /** `pending`, `active` or `failed`. */
  readonly status: string;
  /** The peer cloud's id of the connection, once provisioned ("" before). */
  readonly provisionedId: string;
  /** Why the peering failed ("" unless it did). */
  readonly errorMessage: string;
}

/** A read replica set as the functions return it. */
export interface ReadReplicaSetResult {
  /** The replica set's id. */
  readonly replicaSetId: string;
  /** The service replicated. */
  readonly serviceId: string;
  /** The project. */
  readonly projectId: string;
  /** The name. */
  readonly name: string;
  /** Nodes. */
  readonly nodes: number;
  /** CPU per node, in millicores. */
  readonly cpuMillis: number;
  /** Memory per node, in GB. */
  readonly memoryGbs: number;
  /** `DEV` or `PROD`. */
  readonly environment: string;
  /** Whether the pooler is on. */
  readonly connectionPooler: boolean;
  /** Status when read (`active`, ...). */
  readonly status: string;
  /** Connection host. */
  readonly host: string;
  /** Connection port. */
  readonly port: number;
  /** Pooler host, while the pooler is on. */
  readonly poolerHost?: string;
  /** Pooler port, while the pooler is on. */
  readonly poolerPort?: number;
}
