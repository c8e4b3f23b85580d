/** API description of services: their operations, request bodies and answer. */
import { z } from "zod";
import { fitsFork, fitsService } from "../createMatching";
import { actionsOn, create, NO_REPLY, PROJECT_PATH, read, type OperationSpec } from "./operation";
import { lenientNumber, MESSAGE, open, tolerant, type Open } from "./reading";
import { ConnectionPoolerSchema, EndpointSchema, MetadataSchema, ReadReplicaSetSchema, type ReadReplicaSet } from "./replicaSet";
import {
  checkOptionalServiceSize,
  decimalId,
  environment,
  EnvironmentBody,
  haReplicaCount,
  name,
  oneOf,
  region,
  timestamp,
} from "./requestFields";
import { ENVIRONMENTS, FORK_STRATEGIES, LIMITS, SERVICE_TYPES, type KnownServiceType } from "./values";
import { type KnownStatus, knownStatuses } from "../statusRules";

/** Known values of `Service.status` (SPEC 3.1), from the status rules table. */
export const SERVICE_STATUSES = knownStatuses("service");
/** A service status (known, or one the API added). */
export type ServiceStatus = Open<KnownStatus<"service">>;
/** A service type (known, or one the API added). */
export type ServiceType = Open<KnownServiceType>;
/** Schema of a service status (any string). */
export const ServiceStatusSchema = open<KnownStatus<"service">>();
/** Schema of a service type (any string). */
export const ServiceTypeSchema = open<KnownServiceType>();
/** Schema of an environment tag in a request (the known values only). */
export const EnvironmentSchema = z.enum(ENVIRONMENTS);

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
  ha_replicas: tolerant(z.looseObject({ replica_count: tolerant(lenientNumber()), sync_replica_count: tolerant(lenientNumber()) })),
  metadata: tolerant(MetadataSchema),
  metrics: tolerant(
    z.looseObject({
      memory_mb: tolerant(lenientNumber()),
      milli_cpu: tolerant(lenientNumber()),
      storage_mb: tolerant(lenientNumber()),
    }),
  ),
  read_replica_sets: tolerant(EmbeddedReplicaSetsSchema.nullable()),
  resources: tolerant(
    z.array(
      z.looseObject({
        id: tolerant(z.string()),
        spec: tolerant(
          z.looseObject({
            cpu_millis: tolerant(lenientNumber()),
            memory_gbs: tolerant(lenientNumber()),
            volume_type: tolerant(z.string()),
          }),
        ),
      }),
    ),
  ),
  vpcEndpoint: z.unknown().optional(),
});

/**
 * A service. `initial_password` is present only in the answer of `createService` /
 * `forkService`, and absent when the client recovered the created service from a list
 * after an ambiguous failure (see createRecovery.ts).
 */
export type Service = z.infer<typeof ServiceSchema>;

const SERVICES = `${PROJECT_PATH}/services`;
const SERVICE = `${SERVICES}/{service}`;
const ONE = { one: ServiceSchema } as const;
const VpcReference = z.object({ vpc_id: decimalId });
const CreateServiceBody = z
  .object({
    name,
    service_type: oneOf(SERVICE_TYPES).optional(),
    region_code: region.optional(),
    cpu_millis: z.string().optional(),
    memory_gbs: z.string().optional(),
    replica_count: haReplicaCount.optional(),
    environment_tag: environment.optional(),
  })
  .superRefine(checkOptionalServiceSize);
const ResizeServiceBody = z.object({ cpu_millis: z.string(), memory_gbs: z.string() }).superRefine(checkOptionalServiceSize);
const ForkServiceBody = z
  .object({
    fork_strategy: oneOf(FORK_STRATEGIES),
    target_time: timestamp.optional(),
    name: name.optional(),
    cpu_millis: z.string().optional(),
    memory_gbs: z.string().optional(),
    environment_tag: environment.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.fork_strategy === "PITR" && value.target_time === undefined) {
      ctx.addIssue({ code: "custom", path: ["target_time"], message: "required when fork_strategy is PITR" });
    }
    checkOptionalServiceSize(value, ctx);
  });
const PasswordBody = z.object({
  password: z
    .string()
    .min(LIMITS.passwordMinLength, `must be at least ${LIMITS.passwordMinLength} characters`)
    .max(LIMITS.passwordMaxLength, `must be at most ${LIMITS.passwordMaxLength} characters`),
});
const SetHABody = z
  .object({ replica_count: haReplicaCount.optional(), sync_replica_count: haReplicaCount.optional() })
  .refine((v) => v.replica_count !== undefined || v.sync_replica_count !== undefined, {
    message: "give replica_count, sync_replica_count or both",
  });
const onService = actionsOn("service");

/** The operations on services. */
export const SERVICE_API = {
  listServices: read({ path: SERVICES, reply: { list: { item: ServiceSchema, idField: "service_id", noun: "service" } } }),
  createService: create(
    { path: SERVICES, reply: ONE, status: 202, request: CreateServiceBody },
    { list: "listServices", timed: true, secret: "initial_password", fits: (body, item) => fitsService(body)(item) },
  ),
  getService: read({ path: SERVICE, reply: ONE }),
  deleteService: { method: "DELETE", path: SERVICE, retry: "delete", reply: NO_REPLY, status: 202 },
  startService: onService({ path: `${SERVICE}/start`, reply: ONE, status: 202 }),
  stopService: onService({ path: `${SERVICE}/stop`, reply: ONE, status: 202 }),
  attachServiceToVpc: onService({ path: `${SERVICE}/attachToVPC`, reply: MESSAGE, status: 202, request: VpcReference }),
  detachServiceFromVpc: onService({ path: `${SERVICE}/detachFromVPC`, reply: MESSAGE, status: 202, request: VpcReference }),
  resizeService: onService({ path: `${SERVICE}/resize`, reply: ONE, status: 202, request: ResizeServiceBody }),
  enableServicePooler: onService({ path: `${SERVICE}/enablePooler`, reply: MESSAGE, status: 200 }),
  disableServicePooler: onService({ path: `${SERVICE}/disablePooler`, reply: MESSAGE, status: 200 }),
  forkService: create(
    { path: `${SERVICE}/forkService`, reply: ONE, status: 202, blocker: "service", request: ForkServiceBody },
    {
      list: "listServices",
      timed: true,
      secret: "initial_password",
      fits: (body, item, params) => fitsFork(params.service, body)(item),
      label: (body, params) => `${body.name === undefined ? "" : `"${body.name}" `}forked from ${params.service}`,
    },
  ),
  updateServicePassword: onService({ path: `${SERVICE}/updatePassword`, reply: NO_REPLY, status: 204, request: PasswordBody }),
  setServiceEnvironment: onService({ path: `${SERVICE}/setEnvironment`, reply: MESSAGE, status: 200, request: EnvironmentBody }),
  setServiceHA: onService({ path: `${SERVICE}/setHA`, reply: ONE, status: 202, request: SetHABody }),
} as const satisfies Record<string, OperationSpec>;
