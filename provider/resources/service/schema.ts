/**
 * The Service resource: a managed database. `name`, `serviceType`, `regionCode`,
 * `projectId` and `forkFrom` replace it (the API cannot rename a service); everything
 * else changes in place through the API's actions (see `convergence.ts`).
 */
import { z } from "zod";
import type { ResourceDefinition } from "../../framework/resourceProvider";
import { input, optionalInput, output, resourceSchema } from "../../framework/schema";
import { adoptIdInput, projectIdInput, timeoutsInput } from "../common";
import * as v from "../values";
import { desiredService } from "./state";

/** The API's defaults for what a create leaves out (CONTRACT.md, "create service"). */
export const SERVICE_DEFAULTS = {
  serviceType: "TIMESERIES",
  regionCode: "us-east-1",
  cpuMillis: 500,
  memoryGbs: 2,
  environment: "DEV",
} as const;

const forkFrom = z
  .strictObject(
    {
      serviceId: v.serviceId.describe("The service to fork."),
      strategy: z
        .enum(["LAST_SNAPSHOT", "NOW", "PITR"], { error: 'expected "LAST_SNAPSHOT", "NOW" or "PITR"' })
        .describe("`LAST_SNAPSHOT`, `NOW`, or `PITR` (point in time: needs `targetTime`)."),
      targetTime: z.iso
        .datetime({ offset: true, error: "expected an RFC 3339 time such as 2026-01-31T12:00:00Z" })
        .optional()
        .describe("RFC 3339 time between the source's creation and now, for `PITR`."),
    },
    { error: "expected { serviceId, strategy, targetTime? }" },
  )
  .refine((f) => f.strategy !== "PITR" || f.targetTime !== undefined, {
    error: "strategy PITR needs targetTime (an RFC 3339 time between the source's creation and now)",
    path: ["targetTime"],
  });

const haReplicas = z.strictObject(
  {
    replicaCount: v.wholeNumber(0, 2).optional().describe("0 to 2. @default 0"),
    syncReplicaCount: v.wholeNumber(0, 2).optional().describe("0 to `replicaCount`. @default 0"),
  },
  { error: "expected { replicaCount: 0 to 2, syncReplicaCount: 0 to replicaCount }" },
);

const size = z.union([z.number(), z.literal("shared")]).meta({ tsType: "Size" });

/** Types the SDK declares by name, for Service's arguments and outputs. */
export const serviceNamedTypes = {
  HaReplicasArgs: { schema: haReplicas, doc: "High-availability replicas of a service." },
  ForkFromArgs: { schema: forkFrom, doc: "Makes a service by forking another one." },
};

/** Inputs and outputs of a Service. */
export const serviceSchema = resourceSchema({
  kind: "Service",
  doc: "A managed database service. The API cannot rename a service, so a new `name` replaces it (a new, empty database): protect production services with `protect: true`.",
  example:
    'const db = new clouddb.Service("db", { name: "orders", cpuMillis: 1000, memoryGbs: 4 }, { protect: true });\nexport const password = db.password; // secret',
  inputs: {
    name: input(v.name, { change: "replace", doc: "Name, 1 to 128 characters." }),
    serviceType: optionalInput(
      z.enum(["TIMESERIES", "RELATIONAL", "VECTOR"], { error: 'expected "TIMESERIES", "RELATIONAL" or "VECTOR"' }),
      {
        change: "replace",
        doc: "`TIMESERIES`, `RELATIONAL` or `VECTOR`. A fork has its source's.",
        default: SERVICE_DEFAULTS.serviceType,
      },
    ),
    regionCode: optionalInput(v.regionCode, {
      change: "replace",
      doc: "Region. A fork has its source's.",
      default: SERVICE_DEFAULTS.regionCode,
      sdkType: "string",
    }),
    forkFrom: optionalInput(forkFrom, {
      change: "replace",
      doc: "Make the service by forking another: `strategy` is `LAST_SNAPSHOT`, `NOW` or `PITR` (needs `targetTime`, RFC 3339).",
      sdkType: "ForkFromArgs",
    }),
    cpuMillis: optionalInput(v.cpuMillis(true), {
      change: "in-place",
      doc: `CPU in millicores, paired with \`memoryGbs\`: ${v.describeSizes(v.SERVICE_SIZES)}. A change resizes the service.`,
      default: SERVICE_DEFAULTS.cpuMillis,
      sdkType: "Size",
    }),
    memoryGbs: optionalInput(v.memoryGbs(true), {
      change: "in-place",
      doc: "Memory in GB, paired with `cpuMillis`.",
      default: SERVICE_DEFAULTS.memoryGbs,
      sdkType: "Size",
    }),
    haReplicas: optionalInput(haReplicas, {
      change: "in-place",
      doc: "High-availability replicas: `replicaCount` 0 to 2, `syncReplicaCount` 0 to `replicaCount`.",
      default: { replicaCount: 0, syncReplicaCount: 0 },
      sdkType: "HaReplicasArgs",
    }),
    environment: optionalInput(v.environment, { change: "in-place", doc: "`DEV` or `PROD`.", default: SERVICE_DEFAULTS.environment }),
    connectionPooler: optionalInput(v.flag, { change: "in-place", doc: "Connection pooler on or off.", default: false }),
    vpcId: optionalInput(v.numericId, {
      change: "in-place",
      doc: "VPC to attach the service to (same project and region); a change detaches it from the old one first.",
    }),
    password: optionalInput(v.password, {
      change: "in-place",
      secret: true,
      doc: "Password, 8 to 128 characters (secret). Unset: the service keeps the initial password the API generated, exposed as the `password` output.",
    }),
    paused: optionalInput(v.flag, { change: "in-place", doc: "Paused (stopped) or running.", default: false }),
    projectId: projectIdInput,
    adoptId: adoptIdInput(v.serviceId, "service (its name, type and region)"),
    timeouts: timeoutsInput,
  },
  outputs: {
    serviceId: output(z.string(), { doc: "The service's id." }),
    projectId: output(z.string(), { doc: "The project." }),
    name: output(z.string(), { doc: "The name." }),
    serviceType: output(z.string(), { doc: "The type." }),
    regionCode: output(z.string(), { doc: "The region." }),
    status: output(z.string(), { doc: "Status when last read (`READY`, `PAUSED`, ...)." }),
    created: output(z.string(), { doc: "Creation time (RFC 3339, the API's clock)." }),
    host: output(z.string(), { doc: "Connection host." }),
    port: output(z.number(), { doc: "Connection port." }),
    poolerHost: output(z.string().optional(), { doc: "Pooler host, while the pooler is on." }),
    poolerPort: output(z.number().optional(), { doc: "Pooler port, while the pooler is on." }),
    connectionPooler: output(z.boolean(), { doc: "Whether the pooler is on." }),
    vpcId: output(z.string().optional(), { doc: "The VPC the service is attached to, if any." }),
    vpcEndpoint: output(z.record(z.string(), z.unknown()).optional(), {
      doc: "The VPC endpoint `{ vpc_id, host, port }`, while attached.",
    }),
    cpuMillis: output(size, { doc: 'CPU in millicores or `"shared"`.', sdkType: "Size" }),
    memoryGbs: output(size, { doc: 'Memory in GB or `"shared"`.', sdkType: "Size" }),
    resources: output(z.array(z.object({ id: z.string(), cpuMillis: size, memoryGbs: size, volumeType: z.string() })), {
      doc: "Allocated resources.",
      sdkType: "Array<{ id: string; cpuMillis: Size; memoryGbs: Size; volumeType: string }>",
    }),
    haReplicas: output(z.object({ replicaCount: z.number(), syncReplicaCount: z.number() }), { doc: "HA replicas." }),
    environment: output(z.string(), { doc: "`DEV` or `PROD`." }),
    paused: output(z.boolean(), { doc: "Whether the service is paused." }),
    forkedFrom: output(z.object({ serviceId: z.string(), projectId: z.string(), isStandby: z.boolean() }).optional(), {
      doc: "Origin of a fork, as the API reports it.",
    }),
    forkFrom: output(forkFrom.optional(), { doc: "The `forkFrom` input the service was made with.", inLookups: false }),
    password: output(z.string().optional(), {
      doc: "The password (secret): the one given, else the initial password from the create or fork answer.",
      secret: true,
    }),
    connectionString: output(z.string().optional(), {
      doc: "`postgresql://tsdbadmin:<password>@<host>:<port>/tsdb?sslmode=require` (secret), kept current through password changes.",
      secret: true,
    }),
    poolerConnectionString: output(z.string().optional(), {
      doc: "The same through the connection pooler (secret), while the pooler is on.",
      secret: true,
    }),
  },
  idOutput: "serviceId",
  lookup: ["projectId"],
  cross: [
    {
      properties: ["cpuMillis", "memoryGbs"],
      validate(news) {
        const { cpuMillis, memoryGbs } = news;
        if (cpuMillis === undefined && memoryGbs === undefined) return [];
        if (cpuMillis === undefined || memoryGbs === undefined || !v.isAllowedPair(v.SERVICE_SIZES, cpuMillis, memoryGbs)) {
          return [
            {
              property: cpuMillis === undefined ? "cpuMillis" : "memoryGbs",
              reason: `cpuMillis ${JSON.stringify(cpuMillis)} with memoryGbs ${JSON.stringify(memoryGbs)} is not an allowed pair; give both, one of (cpuMillis/memoryGbs): ${v.describeSizes(v.SERVICE_SIZES)}`,
            },
          ];
        }
        return [];
      },
    },
    {
      properties: ["haReplicas"],
      validate(news) {
        const ha = (news.haReplicas ?? {}) as { replicaCount?: number; syncReplicaCount?: number };
        const replicas = ha.replicaCount ?? 0;
        const sync = ha.syncReplicaCount ?? 0;
        return sync > replicas
          ? [
              {
                property: "haReplicas.syncReplicaCount",
                reason: `haReplicas.syncReplicaCount is ${sync}: expected at most haReplicas.replicaCount (${replicas})`,
              },
            ]
          : [];
      },
    },
  ],
});

/** The Service resource type. */
export const serviceDefinition: ResourceDefinition<typeof serviceSchema.inputs, typeof serviceSchema.outputs> = {
  schema: serviceSchema,
  settled: (recorded) => recorded.status === (recorded.paused === true ? "PAUSED" : "READY"),
  desired(news, recorded) {
    const forked = news.forkFrom !== undefined;
    // Raw inputs (they may hold unknowns in a preview): desiredService only reads them.
    const want = desiredService(news, recorded);
    return {
      name: news.name,
      serviceType: news.serviceType ?? (forked ? recorded.serviceType : SERVICE_DEFAULTS.serviceType),
      regionCode: news.regionCode ?? (forked ? recorded.regionCode : SERVICE_DEFAULTS.regionCode),
      forkFrom: news.forkFrom ?? null,
      ...want,
      password: want.password ?? recorded.password,
    };
  },
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  operations: () => (require("./operations") as typeof import("./operations")).serviceOperations,
};
