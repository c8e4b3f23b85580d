/**
 * zod schemas of the API's response bodies (SPEC.md section 2), and the types inferred
 * from them. Objects are loose (unknown fields are kept, new API versions add fields);
 * fields are optional unless CONTRACT.md says the server always fills them in (ids, and
 * the service fields listed under "Service fields the server fills in"); enums are checked.
 */
import { z } from "zod";
import { type KnownStatus, knownStatuses } from "./statusRules";

/** Known values of `Service.status` (SPEC 3.1), from the status rules table. */
export const SERVICE_STATUSES = knownStatuses("service") as [KnownStatus<"service">, ...KnownStatus<"service">[]];

/** Known values of `ReadReplicaSet.status` (SPEC 3.2), from the status rules table. */
export const REPLICA_SET_STATUSES = knownStatuses("replica set") as [KnownStatus<"replica set">, ...KnownStatus<"replica set">[]];

/** Allowed values of `Service.service_type`. */
export const SERVICE_TYPES = ["TIMESERIES", "RELATIONAL", "VECTOR"] as const;

/** Allowed environment tags. */
export const ENVIRONMENTS = ["DEV", "PROD"] as const;

/** Schema of a service status. */
export const ServiceStatusSchema = z.enum(SERVICE_STATUSES);
/** Schema of a replica set status. */
export const ReplicaSetStatusSchema = z.enum(REPLICA_SET_STATUSES);
/** Schema of a service type. */
export const ServiceTypeSchema = z.enum(SERVICE_TYPES);
/** Schema of an environment tag. */
export const EnvironmentSchema = z.enum(ENVIRONMENTS);

const UserSchema = z.looseObject({
  id: z.string().optional(),
  email: z.string().optional(),
  name: z.string().optional(),
});

/** Schema of `GET /auth/info`: `type` says which of `apiKey` / `oauth` is present. */
export const AuthInfoSchema = z
  .looseObject({
    type: z.enum(["apiKey", "oauth"]),
    apiKey: z
      .looseObject({
        created: z.string().optional(),
        issuing_user: UserSchema.optional(),
        name: z.string().optional(),
        project: z
          .looseObject({ id: z.string().optional(), name: z.string().optional(), plan_type: z.string().optional() })
          .optional(),
        public_key: z.string().optional(),
      })
      .optional(),
    oauth: z.looseObject({ user: UserSchema.optional() }).optional(),
  })
  .superRefine((v, ctx) => {
    if (v[v.type] === undefined || v[v.type] === null) {
      ctx.addIssue({ code: "custom", path: [v.type], message: `an object (type is "${v.type}")`, input: v[v.type] });
    }
  });

/** Schema of a VPC. */
export const VpcSchema = z.looseObject({
  id: z.string(),
  cidr: z.string().optional(),
  name: z.string().optional(),
  region_code: z.string().optional(),
});

/** Schema of a VPC peering. `status` is a free string (`pending`, `active`, `failed` today). */
export const PeeringSchema = z.looseObject({
  id: z.string(),
  error_message: z.string().nullable().optional(),
  peer_account_id: z.string().optional(),
  peer_region_code: z.string().optional(),
  peer_vpc_id: z.string().optional(),
  provisioned_id: z.string().nullable().optional(),
  status: z.string().optional(),
});

/** Schema of an endpoint. */
export const EndpointSchema = z.looseObject({
  host: z.string().optional(),
  port: z.number().optional(),
});

/** Schema of a connection pooler. */
export const ConnectionPoolerSchema = z.looseObject({
  endpoint: EndpointSchema.optional(),
});

const MetadataSchema = z.looseObject({ environment: z.string().optional() });

/** Schema of a read replica set. */
export const ReadReplicaSetSchema = z.looseObject({
  id: z.string(),
  name: z.string().optional(),
  nodes: z.number().optional(),
  cpu_millis: z.number().optional(),
  memory_gbs: z.number().optional(),
  endpoint: EndpointSchema.optional(),
  connection_pooler: ConnectionPoolerSchema.nullable().optional(),
  metadata: MetadataSchema.optional(),
  status: ReplicaSetStatusSchema.optional(),
});

/** Schema of a service. `vpcEndpoint` is of unknown type (null, absent or an object). */
export const ServiceSchema = z.looseObject({
  service_id: z.string(),
  project_id: z.string(),
  name: z.string().optional(),
  service_type: ServiceTypeSchema,
  status: ServiceStatusSchema,
  created: z.string(),
  region_code: z.string(),
  endpoint: EndpointSchema.optional(),
  connection_pooler: ConnectionPoolerSchema.nullable().optional(),
  initial_password: z.string().optional(),
  forked_from: z
    .looseObject({
      is_standby: z.boolean().optional(),
      project_id: z.string().optional(),
      service_id: z.string().optional(),
    })
    .nullable()
    .optional(),
  ha_replicas: z
    .looseObject({ replica_count: z.number().optional(), sync_replica_count: z.number().optional() })
    .optional(),
  metadata: MetadataSchema.optional(),
  metrics: z
    .looseObject({
      memory_mb: z.number().optional(),
      milli_cpu: z.number().optional(),
      storage_mb: z.number().optional(),
    })
    .optional(),
  read_replica_sets: z.array(ReadReplicaSetSchema).nullable().optional(),
  resources: z
    .array(
      z.looseObject({
        id: z.string().optional(),
        spec: z
          .looseObject({
            cpu_millis: z.number().optional(),
            memory_gbs: z.number().optional(),
            volume_type: z.string().optional(),
          })
          .optional(),
      }),
    )
    .optional(),
  vpcEndpoint: z.unknown().optional(),
});

/** Schema of the `{message}` answers (SPEC 2.8). */
export const MessageResponseSchema = z.looseObject({ message: z.string().optional() });

/** Schema of `GET .../vpcs`. */
export const VpcListSchema = z.array(VpcSchema);
/** Schema of `GET .../peerings`. */
export const PeeringListSchema = z.array(PeeringSchema);
/** Schema of `GET .../services`. */
export const ServiceListSchema = z.array(ServiceSchema);
/** Schema of `GET .../replicaSets`. */
export const ReadReplicaSetListSchema = z.array(ReadReplicaSetSchema);

/** Identity of the caller (`GET /auth/info`). */
export type AuthInfo = z.infer<typeof AuthInfoSchema>;
/** A VPC. */
export type Vpc = z.infer<typeof VpcSchema>;
/** A VPC peering. */
export type Peering = z.infer<typeof PeeringSchema>;
/** An endpoint `{host, port}`. */
export type Endpoint = z.infer<typeof EndpointSchema>;
/** A connection pooler `{endpoint}`. */
export type ConnectionPooler = z.infer<typeof ConnectionPoolerSchema>;
/**
 * A service. `initial_password` is present only in the answer of `createService` /
 * `forkService`, and absent when the client recovered the created service from a list
 * after an ambiguous failure (see `createGuard`).
 */
export type Service = z.infer<typeof ServiceSchema>;
/** A read replica set. */
export type ReadReplicaSet = z.infer<typeof ReadReplicaSetSchema>;
/** A service status. */
export type ServiceStatus = z.infer<typeof ServiceStatusSchema>;
/** A replica set status. */
export type ReplicaSetStatus = z.infer<typeof ReplicaSetStatusSchema>;
/** A service type. */
export type ServiceType = z.infer<typeof ServiceTypeSchema>;
/** An environment tag. */
export type Environment = z.infer<typeof EnvironmentSchema>;
/** The `{message}` answer of actions such as enabling a pooler. */
export type MessageResponse = z.infer<typeof MessageResponseSchema>;
