/**
 * How a live service (the API's shape) reads as the outputs of a `clouddb.Service`, and
 * what the inputs ask for once defaults are filled in.
 */
import type { Service } from "../../client";
import type { InputsOf, OutputsOf } from "../../framework/schema";
import { connectionString } from "../connectionString";
import { SERVICE_DEFAULTS, type serviceSchema } from "./schema";

/** CPU or memory of a service: a number, or `"shared"` for the shared plan. */
export type Size = number | "shared";

/** Inputs of a Service, parsed. */
export type ServiceInputs = InputsOf<typeof serviceSchema.inputs>;
/** Outputs of a Service. */
export type ServiceOutputs = OutputsOf<typeof serviceSchema.outputs>;
/** `haReplicas` of a service, defaults filled in. */
export type HaReplicas = ServiceOutputs["haReplicas"];
/** `forkFrom` of a service. */
export type ForkFrom = NonNullable<ServiceInputs["forkFrom"]>;

/** The plan of a size as the API shows it: the shared plan reads as 0/0. */
function size(value: number | undefined): Size {
  return value === undefined || value === 0 ? "shared" : value;
}

/** The VPC a service is attached to, from its `vpcEndpoint`. */
export function attachedVpc(service: Service): string | undefined {
  const endpoint = service.vpcEndpoint as { vpc_id?: unknown } | null | undefined;
  const id = endpoint !== null && typeof endpoint === "object" ? endpoint.vpc_id : undefined;
  return typeof id === "string" || typeof id === "number" ? String(id) : undefined;
}

/** True while a service is paused or pausing. */
export function isPaused(service: Service): boolean {
  return service.status === "PAUSED" || service.status === "PAUSING";
}

/**
 * The outputs of a live service. `kept` carries what the API cannot return again: the
 * password and the `forkFrom` input.
 */
export function serviceOutputs(service: Service, kept: { password?: string; forkFrom?: ForkFrom }): ServiceOutputs {
  const spec = service.resources?.[0]?.spec;
  const pooler = service.connection_pooler?.endpoint;
  const endpoint = service.vpcEndpoint;
  const forked = service.forked_from;
  return {
    serviceId: service.service_id,
    projectId: service.project_id,
    name: service.name ?? "",
    serviceType: service.service_type,
    regionCode: service.region_code,
    status: service.status,
    created: service.created,
    host: service.endpoint?.host ?? "",
    port: service.endpoint?.port ?? 0,
    poolerHost: pooler?.host,
    poolerPort: pooler?.port,
    connectionPooler: service.connection_pooler !== undefined && service.connection_pooler !== null,
    vpcId: attachedVpc(service),
    vpcEndpoint: endpoint !== null && typeof endpoint === "object" ? (endpoint as Record<string, unknown>) : undefined,
    cpuMillis: size(spec?.cpu_millis),
    memoryGbs: size(spec?.memory_gbs),
    resources: (service.resources ?? []).map((r) => ({
      id: r.id ?? "",
      cpuMillis: size(r.spec?.cpu_millis),
      memoryGbs: size(r.spec?.memory_gbs),
      volumeType: r.spec?.volume_type ?? "",
    })),
    haReplicas: {
      replicaCount: service.ha_replicas?.replica_count ?? 0,
      syncReplicaCount: service.ha_replicas?.sync_replica_count ?? 0,
    },
    environment: service.metadata?.environment ?? SERVICE_DEFAULTS.environment,
    paused: isPaused(service),
    forkedFrom: forked
      ? { serviceId: forked.service_id ?? "", projectId: forked.project_id ?? "", isStandby: forked.is_standby ?? false }
      : undefined,
    forkFrom: kept.forkFrom,
    password: kept.password,
    connectionString: connectionString(service.endpoint, kept.password),
    poolerConnectionString: connectionString(pooler, kept.password),
  };
}

/** The desired state of what a service's update actions can change. */
export interface DesiredService {
  readonly cpuMillis: Size;
  readonly memoryGbs: Size;
  readonly haReplicas: HaReplicas;
  readonly environment: string;
  readonly connectionPooler: boolean;
  readonly vpcId: string | null;
  readonly paused: boolean;
  /** A password to apply, or undefined to keep the current one. */
  readonly password?: string;
}

/**
 * What the inputs ask for, with the defaults the user did not write. A fork keeps its
 * source's size unless the inputs set one. `recorded` are the outputs so far.
 */
export function desiredService(news: Partial<ServiceInputs>, recorded: Partial<ServiceOutputs>): DesiredService {
  const forked = news.forkFrom !== undefined;
  const keepSize = forked && news.cpuMillis === undefined;
  return {
    cpuMillis: news.cpuMillis ?? (keepSize ? (recorded.cpuMillis ?? SERVICE_DEFAULTS.cpuMillis) : SERVICE_DEFAULTS.cpuMillis),
    memoryGbs: news.memoryGbs ?? (keepSize ? (recorded.memoryGbs ?? SERVICE_DEFAULTS.memoryGbs) : SERVICE_DEFAULTS.memoryGbs),
    haReplicas: {
      replicaCount: news.haReplicas?.replicaCount ?? 0,
      syncReplicaCount: news.haReplicas?.syncReplicaCount ?? 0,
    },
    environment: news.environment ?? SERVICE_DEFAULTS.environment,
    connectionPooler: news.connectionPooler ?? false,
    vpcId: news.vpcId ?? null,
    paused: news.paused ?? false,
    password: news.password,
  };
}

/**
 * Why a service cannot take a replica set or be forked now, when the client found that
 * waiting cannot help (it is paused, pausing or unstable), in words that say what to do.
 */
export function notRunning(what: string): (blocker: { kind: string; id: string; status: string }) => string {
  return ({ id, status }) =>
    status === "UNSTABLE"
      ? `Service ${id} is UNSTABLE: the API allows nothing but deleting it, so ${what} cannot be done. Replace the service (\`pulumi up --replace <urn>\`).`
      : `Service ${id} is ${status}: ${what} needs a running service. Resume it first (\`paused: false\` on the Service), then run \`pulumi up\` again.`;
}
