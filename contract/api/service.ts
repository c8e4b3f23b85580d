/** API description of services: their operations, request bodies and answer. */
import { z } from "zod";
import { FORK_DEFAULTS, SERVICE_DEFAULTS } from "../defaults";
import { agrees, agreesOn, notLeaving, objectAt, sizeShown, type Fields } from "../matching";
import {
  environment,
  EnvironmentBody,
  forkStrategy,
  haReplicaCount,
  name,
  numericId,
  password,
  region,
  serviceType,
  targetTimeProblem,
  timestamp,
} from "../rules";
import { serviceSizeProblem, sizeText } from "../sizes";
import { type KnownStatus, knownStatuses } from "../statuses";
import type { KnownServiceType } from "../values";
import { actionsOn, create, NO_REPLY, PROJECT_PATH, read, type OperationSpec } from "./operation";
import { lenientNumber, MESSAGE, open, tolerant, type Open } from "./reading";
import { ConnectionPoolerSchema, EndpointSchema, MetadataSchema, ReadReplicaSetSchema, type ReadReplicaSet } from "./replicaSet";

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

/** The replica sets embedded in a service: each read on its own, each id once (a repeated item is one); one that is not readable is left out. */
const EmbeddedReplicaSetsSchema = z.array(z.unknown()).transform((items) => {
  const byId = new Map<string, ReadReplicaSet>();
  for (const item of items) {
    const parsed = ReadReplicaSetSchema.safeParse(item);
    if (parsed.success && !byId.has(parsed.data.id)) byId.set(parsed.data.id, parsed.data);
  }
  return [...byId.values()];
});

/**
 * Schema of a service. Relied upon: the fields the server always fills in that the client
 * needs to read the answer at all (`service_id`, `project_id`, `status`, `created`; any
 * string for the status, an open enumeration). `service_type` and `region_code`, which the
 * server fills in too, are read tolerantly: one of another type is dropped (its key kept), and
 * the providers keep what they recorded (readable.ts, provider/framework/unreadable.ts), rather
 * than fail every read of the service. `vpcEndpoint` is of unknown type (null, absent or an object).
 */
export const ServiceSchema = z.looseObject({
  service_id: z.string(),
  project_id: z.string(),
  status: ServiceStatusSchema,
  service_type: tolerant(ServiceTypeSchema),
  created: z.string(),
  region_code: tolerant(z.string()),
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
 * after an ambiguous failure (see the client's createRecovery.ts).
 */
export type Service = z.infer<typeof ServiceSchema>;

const SERVICES = `${PROJECT_PATH}/services`;
const SERVICE = `${SERVICES}/{service}`;
const ONE = { one: ServiceSchema } as const;
const VpcReference = z.object({ vpc_id: numericId });

/** Adds an issue for an optional service size given as two strings (both or neither) that is not allowed. */
function checkSize(value: { cpu_millis?: string | undefined; memory_gbs?: string | undefined }, ctx: z.RefinementCtx): void {
  const problem = serviceSizeProblem(value.cpu_millis, value.memory_gbs);
  if (problem !== undefined)
    ctx.addIssue({ code: "custom", path: [problem.on === "cpu" ? "cpu_millis" : "memory_gbs"], message: problem.message });
}

const CreateServiceBody = z
  .object({
    name,
    service_type: serviceType.optional(),
    region_code: region.optional(),
    cpu_millis: z.string().optional(),
    memory_gbs: z.string().optional(),
    replica_count: haReplicaCount.optional(),
    environment_tag: environment.optional(),
  })
  .superRefine(checkSize);
const ResizeServiceBody = z.object({ cpu_millis: z.string(), memory_gbs: z.string() }).superRefine(checkSize);
const ForkServiceBody = z
  .object({
    fork_strategy: forkStrategy,
    target_time: timestamp.optional(),
    name: name.optional(),
    cpu_millis: z.string().optional(),
    memory_gbs: z.string().optional(),
    environment_tag: environment.optional(),
  })
  .superRefine((value, ctx) => {
    const problem = targetTimeProblem(value.fork_strategy, value.target_time);
    if (problem !== undefined) ctx.addIssue({ code: "custom", path: ["target_time"], message: problem });
    checkSize(value, ctx);
  });
const PasswordBody = z.object({ password });
/** The counts of setHA; a count left out keeps its current value, so whether they go together (rules.ts `haCountsAllowed`) is checked on the result. */
const SetHABody = z
  .object({ replica_count: haReplicaCount.optional(), sync_replica_count: haReplicaCount.optional() })
  .refine((v) => v.replica_count !== undefined || v.sync_replica_count !== undefined, {
    error: "expected replica_count, sync_replica_count or both",
  });
const onService = actionsOn("service");

/**
 * What a service made by a create or a fork is to show: the service it was forked from
 * (`forkOf`; `undefined`: not a fork, and an item that shows `forked_from` does not fit),
 * and any fields of a create's body, each compared (sizes as a request writes them).
 */
export type WantedService = { readonly forkOf: string | undefined } & Partial<z.input<typeof CreateServiceBody>>;

/**
 * Whether a listed service may be the one wanted: made from `forkOf` (or not a fork), not
 * being deleted, and each field given. Time is checked apart (the client's create recovery).
 */
export function fitsService(wanted: WantedService, item: Fields): boolean {
  const origin = objectAt(item, "forked_from");
  const spec = objectAt(item, "resources", 0, "spec");
  return (
    (wanted.forkOf === undefined ? origin === undefined : origin !== undefined && agrees(origin.service_id, wanted.forkOf)) &&
    notLeaving("service", item) &&
    agreesOn(item, { name: wanted.name, service_type: wanted.service_type, region_code: wanted.region_code }) &&
    agrees(objectAt(item, "ha_replicas")?.replica_count, wanted.replica_count) &&
    (wanted.cpu_millis === undefined || agrees(spec?.cpu_millis, sizeShown(wanted.cpu_millis))) &&
    (wanted.memory_gbs === undefined || agrees(spec?.memory_gbs, sizeShown(wanted.memory_gbs))) &&
    agrees(objectAt(item, "metadata")?.environment, wanted.environment_tag)
  );
}

/** What `createService(body)` makes: the body, the API's defaults filling in what it leaves out. */
export function serviceOfCreate(body: z.input<typeof CreateServiceBody>): WantedService {
  const sized = body.cpu_millis !== undefined && body.memory_gbs !== undefined;
  return {
    forkOf: undefined,
    name: body.name,
    service_type: body.service_type ?? SERVICE_DEFAULTS.serviceType,
    region_code: body.region_code ?? SERVICE_DEFAULTS.regionCode,
    cpu_millis: sized ? body.cpu_millis : sizeText(SERVICE_DEFAULTS.cpuMillis),
    memory_gbs: sized ? body.memory_gbs : sizeText(SERVICE_DEFAULTS.memoryGbs),
    replica_count: body.replica_count ?? SERVICE_DEFAULTS.replicaCount,
    environment_tag: body.environment_tag ?? SERVICE_DEFAULTS.environment,
  };
}

/** What `forkService(source, body)` makes: a fork of `source` with what the body fixes (its size, when left out, is the source's). */
export function serviceOfFork(source: string, body: z.input<typeof ForkServiceBody>): WantedService {
  return {
    forkOf: source,
    name: body.name,
    cpu_millis: body.cpu_millis,
    memory_gbs: body.memory_gbs,
    environment_tag: body.environment_tag ?? FORK_DEFAULTS.environment,
  };
}

/** The operations on services. */
export const SERVICE_API = {
  listServices: read({ path: SERVICES, reply: { list: { item: ServiceSchema, idField: "service_id", noun: "service" } } }),
  createService: create(
    { path: SERVICES, reply: ONE, status: 202, request: CreateServiceBody },
    { list: "listServices", secret: "initial_password", fits: (body, item) => fitsService(serviceOfCreate(body), item) },
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
      secret: "initial_password",
      fits: (body, item, params) => fitsService(serviceOfFork(params.service, body), item),
      label: (body, params) => `${body.name === undefined ? "" : `"${body.name}" `}forked from ${params.service}`,
    },
  ),
  updateServicePassword: onService({
    path: `${SERVICE}/updatePassword`,
    reply: NO_REPLY,
    status: 204,
    request: PasswordBody,
    secretField: "password",
  }),
  setServiceEnvironment: onService({ path: `${SERVICE}/setEnvironment`, reply: MESSAGE, status: 200, request: EnvironmentBody }),
  setServiceHA: onService({ path: `${SERVICE}/setHA`, reply: ONE, status: 202, request: SetHABody }),
} as const satisfies Record<string, OperationSpec>;
