/**
 * The outputs of a Service: each with how it reads from the live service and, for one read
 * from a field of the answer, the field and the contract's rule of when an answer shows it
 * readably (framework/outputs.ts; the rules that need more than a field's value are in
 * ./live.ts).
 */
import { z } from "zod";
import { SERVICE_DEFAULTS } from "../../../contract/defaults";
import { ENVIRONMENTS_TEXT } from "../../../contract/describe";
import { readableEnvironment, readableName, readableRegion, readableServiceType, readableStatus } from "../../../contract/readable";
import type { Service } from "../../client";
import { outputsReadFrom } from "../../framework/schema";
import { recordedFields } from "../../framework/outputs";
import type { InProject } from "../common";
import { connectionOutputs } from "../connectionString";
import { attachedVpc, forkedFromShown, haShown, isPaused, pauseShown, resourcesShown, sizeOf, vpcReadable } from "./live";
import { forkFrom, size, type ForkFrom } from "./namedTypes";

/** What a Service's outputs read from: the live service, and what the API cannot return again (the password, the `forkFrom` input). */
export interface ServiceSource extends InProject {
  readonly live: Service;
  readonly password?: string;
  readonly forkFrom?: ForkFrom;
}

const output = outputsReadFrom<ServiceSource>();
const recorded = recordedFields<Service>();

/** The outputs a service shares with a replica set: its endpoints, password and connection strings. */
const connection = connectionOutputs({
  password: "The password (secret): the one given, else the initial password from the create or fork answer.",
  connectionString:
    "`postgresql://tsdbadmin:<password>@<host>:<port>/tsdb?sslmode=require` (secret), kept current through password changes.",
  poolerConnectionString: "The same through the connection pooler (secret), while the pooler is on.",
});

/** The outputs of a Service (`resourceSchema` adds `projectId`). */
export const serviceOutputSpecs = {
  serviceId: output(z.string(), { doc: "The service's id.", from: (s) => s.live.service_id }),
  name: output(z.string(), { doc: "The name.", ...recorded("name", readableName, "") }),
  serviceType: output(z.string(), { doc: "The type.", ...recorded("service_type", readableServiceType, "") }),
  regionCode: output(z.string(), { doc: "The region.", ...recorded("region_code", readableRegion, "") }),
  status: output(z.string(), {
    doc: "Status when last read (`READY`, `PAUSED`, ...).",
    ...recorded("status", (value) => readableStatus("service", value)),
  }),
  created: output(z.string(), { doc: "Creation time (RFC 3339, the API's clock).", from: (s) => s.live.created }),
  host: connection.host,
  port: connection.port,
  poolerHost: connection.poolerHost,
  poolerPort: connection.poolerPort,
  connectionPooler: connection.connectionPooler,
  vpcId: output(z.string().optional(), {
    doc: "The VPC the service is attached to, if any.",
    field: "vpcEndpoint",
    shows: vpcReadable,
    from: (s) => attachedVpc(s.live),
  }),
  vpcEndpoint: output(z.record(z.string(), z.unknown()).optional(), {
    doc: "The VPC endpoint `{ vpc_id, host, port }`, while attached.",
    field: "vpcEndpoint",
    shows: vpcReadable,
    from: ({ live: { vpcEndpoint: e } }) => (e !== null && typeof e === "object" ? (e as Record<string, unknown>) : undefined),
  }),
  cpuMillis: output(size, {
    doc: 'CPU in millicores, or `"shared"` for the shared plan (0 in the native plugin\'s SDKs).',
    field: "resources",
    shows: resourcesShown,
    from: (s) => sizeOf(s.live.resources?.[0]?.spec?.cpu_millis),
  }),
  memoryGbs: output(size, {
    doc: 'Memory in GB, or `"shared"` for the shared plan (0 in the native plugin\'s SDKs).',
    field: "resources",
    shows: resourcesShown,
    from: (s) => sizeOf(s.live.resources?.[0]?.spec?.memory_gbs),
  }),
  resources: output(z.array(z.object({ id: z.string(), cpuMillis: size, memoryGbs: size, volumeType: z.string() })), {
    doc: "Allocated resources.",
    field: "resources",
    shows: resourcesShown,
    sdkType: "Array<{ id: string; cpuMillis: Size; memoryGbs: Size; volumeType: string }>",
    from: (s) =>
      (s.live.resources ?? []).map((r) => ({
        id: r.id ?? "",
        cpuMillis: sizeOf(r.spec?.cpu_millis),
        memoryGbs: sizeOf(r.spec?.memory_gbs),
        volumeType: r.spec?.volume_type ?? "",
      })),
  }),
  haReplicas: output(z.object({ replicaCount: z.number().int(), syncReplicaCount: z.number().int() }), {
    doc: "HA replicas.",
    field: "ha_replicas",
    shows: haShown,
    from: ({ live: { ha_replicas: ha } }) => ({ replicaCount: ha?.replica_count ?? 0, syncReplicaCount: ha?.sync_replica_count ?? 0 }),
  }),
  environment: output(z.string(), {
    doc: `${ENVIRONMENTS_TEXT}.`,
    field: "metadata.environment",
    readable: readableEnvironment,
    from: (s) => s.live.metadata?.environment ?? SERVICE_DEFAULTS.environment,
  }),
  paused: output(z.boolean(), {
    doc: "Whether the service is paused.",
    field: "status",
    shows: pauseShown,
    from: (s) => isPaused(s.live),
  }),
  forkedFrom: output(z.object({ serviceId: z.string(), projectId: z.string(), isStandby: z.boolean() }).optional(), {
    doc: "Origin of a fork, as the API reports it.",
    field: "forked_from",
    shows: forkedFromShown,
    from: ({ live: { forked_from: f } }) =>
      f ? { serviceId: f.service_id ?? "", projectId: f.project_id ?? "", isStandby: f.is_standby ?? false } : undefined,
  }),
  forkFrom: output(forkFrom.optional(), {
    doc: "The `forkFrom` input the service was made with.",
    inLookups: false,
    from: (s) => s.forkFrom,
  }),
  password: connection.password,
  connectionString: connection.connectionString,
  poolerConnectionString: connection.poolerConnectionString,
};
