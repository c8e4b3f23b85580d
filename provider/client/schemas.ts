/**
 * zod schemas of the API's response bodies (SPEC.md section 2), read tolerantly as
 * CONTRACT.md "Transport" asks, and the types inferred from them.
 *
 * - Objects are loose: unknown fields are kept (new API versions add fields).
 * - Enumerations are open: a status or service type the client does not know is carried
 *   as a string (`KnownServiceStatus | (string & {})`), never an error.
 * - Validation covers what the client relies on: identifiers, statuses, and the service
 *   fields the server always fills in (see {@link ServiceSchema}). Such a field
 *   of the wrong type rejects the object (a list skips that item only: see listReading.ts).
 *   Any other field that does not have its documented shape (`metrics: null`, an endpoint
 *   that is a string) is dropped (read as absent) instead of failing the answer.
 */
import { z } from "zod";
import { type KnownStatus, knownStatuses } from "./statusRules";

/** Known values of `Service.status` (SPEC 3.1), from the status rules table. */
export const SERVICE_STATUSES = knownStatuses("service");
/** Known values of `ReadReplicaSet.status` (SPEC 3.2), from the status rules table. */
export const REPLICA_SET_STATUSES = knownStatuses("replica set");
/** Known values of `Peering.status` (CONTRACT "States"), from the status rules table. */
export const PEERING_STATUSES = knownStatuses("peering");
/** Known values of `Service.service_type`. */
export const SERVICE_TYPES = ["TIMESERIES", "RELATIONAL", "VECTOR"] as const;
/** Allowed environment tags. */
export const ENVIRONMENTS = ["DEV", "PROD"] as const;

/** A value of an open enumeration: one the client knows, or any other string the API sends. */
export type Open<Known extends string> = Known | (string & {});

/** A service type this client knows (what a create may ask for). */
export type KnownServiceType = (typeof SERVICE_TYPES)[number];
/** A service status (known, or one the API added). */
export type ServiceStatus = Open<KnownStatus<"service">>;
/** A replica set status (known, or one the API added). */
export type ReplicaSetStatus = Open<KnownStatus<"replica set">>;
/** A peering status (known, or one the API added). */
export type PeeringStatus = Open<KnownStatus<"peering">>;
/** A service type (known, or one the API added). */
export type ServiceType = Open<KnownServiceType>;

/** Schema of an open enumeration: any string, typed as the known values or a string. */
function open<Known extends string>(): z.ZodPipe<z.ZodString, z.ZodTransform<Open<Known>, string>> {
  return z.string().transform((s): Open<Known> => s);
}

/** A field the client does not rely on: kept when it has its documented shape, read as absent otherwise. */
function tolerant<S extends z.ZodType>(schema: S): z.ZodCatch<z.ZodOptional<S>> {
  return schema.optional().catch(undefined);
}

/** Schema of a service status (any string). */
export const ServiceStatusSchema = open<KnownStatus<"service">>();
/** Schema of a replica set status (any string). */
export const ReplicaSetStatusSchema = open<KnownStatus<"replica set">>();
/** Schema of a peering status (any string). */
export const PeeringStatusSchema = open<KnownStatus<"peering">>();
/** Schema of a service type (any string). */
export const ServiceTypeSchema = open<KnownServiceType>();
/** Schema of an environment tag in a request (the known values only). */
export const EnvironmentSchema = z.enum(ENVIRONMENTS);

const UserSchema = z.looseObject({
  id: tolerant(z.string()),
  email: tolerant(z.string()),
  name: tolerant(z.string()),
});

/** Schema of `GET /auth/info`: `type` says which of `apiKey` / `oauth` is present. */
export const AuthInfoSchema = z
  .looseObject({
    type: z.enum(["apiKey", "oauth"]),
    apiKey: z
      .looseObject({
        created: tolerant(z.string()),
        issuing_user: tolerant(UserSchema),
        name: tolerant(z.string()),
        project: tolerant(z.looseObject({ id: tolerant(z.string()), name: tolerant(z.string()), plan_type: tolerant(z.string()) })),
        public_key: tolerant(z.string()),
      })
      .optional(),
    oauth: z.looseObject({ user: tolerant(UserSchema) }).optional(),
  })
  .superRefine((v, ctx) => {
    if (v[v.type] === undefined || v[v.type] === null) {
      ctx.addIssue({ code: "custom", path: [v.type], message: `an object (type is "${v.type}")`, input: v[v.type] });
    }
  });

/** Schema of a VPC: `id` is relied upon. */
export const VpcSchema = z.looseObject({
  id: z.string(),
  cidr: tolerant(z.string()),
  name: tolerant(z.string()),
  region_code: tolerant(z.string()),
});

/** Schema of a VPC peering: `id` and `status` (when present) are relied upon. */
export const PeeringSchema = z.looseObject({
  id: z.string(),
  status: PeeringStatusSchema.optional(),
  error_message: tolerant(z.string().nullable()),
  peer_account_id: tolerant(z.string()),
  peer_region_code: tolerant(z.string()),
  peer_vpc_id: tolerant(z.string()),
  provisioned_id: tolerant(z.string().nullable()),
});

/** Schema of an endpoint. */
export const EndpointSchema = z.looseObject({
  host: tolerant(z.string()),
  port: tolerant(z.number()),
});

/** Schema of a connection pooler. */
export const ConnectionPoolerSchema = z.looseObject({
  endpoint: tolerant(EndpointSchema),
});

const MetadataSchema = z.looseObject({ environment: tolerant(z.string()) });

/** Schema of a read replica set: `id` and `status` (when present) are relied upon. */
export const ReadReplicaSetSchema = z.looseObject({
  id: z.string(),
  status: ReplicaSetStatusSchema.optional(),
  name: tolerant(z.string()),
  nodes: tolerant(z.number()),
  cpu_millis: tolerant(z.number()),
  memory_gbs: tolerant(z.number()),
  endpoint: tolerant(EndpointSchema),
  connection_pooler: tolerant(ConnectionPoolerSchema.nullable()),
  metadata: tolerant(MetadataSchema),
});

/** A read replica set. */
export type ReadReplicaSet = z.infer<typeof ReadReplicaSetSchema>;

/** The replica sets embedded in a service: each read on its own; one that is not readable is left out. */
const EmbeddedReplicaSetsSchema = z.array(z.unknown()).transform((items) =>
  items.flatMap((item): ReadReplicaSet[] => {
    const parsed = ReadReplicaSetSchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  }),
);

/**
 * Schema of a service. Relied upon: the fields the server always fills in and the client
 * and the providers read (`service_id`, `project_id`, `status`, `service_type`, `created`,
 * `region_code`; any string for the open enumerations). `vpcEndpoint` is of unknown type
 * (null, absent or an object).
 */
export const ServiceSchema = z.looseObject({
  service_id: z.string(),
  project_id: z.string(),
  status: ServiceStatusSchema,
  service_type: ServiceTypeSchema,
  created: z.string(),
  region_code: z.string(),
  name: tolerant(z.string()),
  endpoint: tolerant(EndpointSchema),
  connection_pooler: tolerant(ConnectionPoolerSchema.nullable()),
  initial_password: tolerant(z.string()),
  forked_from: tolerant(
    z
      .looseObject({
        is_standby: tolerant(z.boolean()),
        project_id: tolerant(z.string()),
        service_id: tolerant(z.string()),
      })
      .nullable(),
  ),
  ha_replicas: tolerant(z.looseObject({ replica_count: tolerant(z.number()), sync_replica_count: tolerant(z.number()) })),
  metadata: tolerant(MetadataSchema),
  metrics: tolerant(
    z.looseObject({
      memory_mb: tolerant(z.number()),
      milli_cpu: tolerant(z.number()),
      storage_mb: tolerant(z.number()),
    }),
  ),
  read_replica_sets: tolerant(EmbeddedReplicaSetsSchema.nullable()),
  resources: tolerant(
    z.array(
      z.looseObject({
        id: tolerant(z.string()),
        spec: tolerant(
          z.looseObject({
            cpu_millis: tolerant(z.number()),
            memory_gbs: tolerant(z.number()),
            volume_type: tolerant(z.string()),
          }),
        ),
      }),
    ),
  ),
  vpcEndpoint: z.unknown().optional(),
});

/** Schema of the `{message}` answers (SPEC 2.8). */
export const MessageResponseSchema = z.looseObject({ message: tolerant(z.string()) });

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
 * after an ambiguous failure (see createRecovery.ts).
 */
export type Service = z.infer<typeof ServiceSchema>;
/** An environment tag. */
export type Environment = z.infer<typeof EnvironmentSchema>;
/** The `{message}` answer of actions such as enabling a pooler. */
export type MessageResponse = z.infer<typeof MessageResponseSchema>;
