/**
 * How a live service (the API's shape) reads: its size, its VPC, whether it is paused, what
 * its answer must show to be read at all, and why it cannot be used now.
 */
import { hasStatusClass, SERVICE_STATUS } from "../../../contract/statuses";
import type { Service } from "../../client";
import type { ShownField } from "../../framework/unreadable";
import type { Size } from "./namedTypes";

/**
 * The fields of a service its outputs are read from and that every answer has (CONTRACT.md,
 * "Service fields the server fills in"): when one is not shown readably, those outputs keep
 * what is recorded, and no action is sent because of them (framework/unreadable.ts).
 */
export const SERVICE_FIELDS: readonly ShownField<Service>[] = [
  {
    field: "resources[0].spec",
    outputs: ["cpuMillis", "memoryGbs", "resources"],
    shows: (s) => typeof s.resources?.[0]?.spec?.cpu_millis === "number" && typeof s.resources[0].spec.memory_gbs === "number",
  },
  {
    field: "ha_replicas",
    outputs: ["haReplicas"],
    shows: (s) => typeof s.ha_replicas?.replica_count === "number" && typeof s.ha_replicas.sync_replica_count === "number",
  },
  {
    field: "endpoint",
    outputs: ["host", "port", "connectionString"],
    shows: (s) => typeof s.endpoint?.host === "string" && typeof s.endpoint.port === "number",
  },
  { field: "metadata.environment", outputs: ["environment"], shows: (s) => typeof s.metadata?.environment === "string" },
];

/** The plan of a size as the API shows it: the shared plan reads as 0/0. */
export function sizeOf(value: number | undefined): Size {
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
  return service.status === SERVICE_STATUS.PAUSED || service.status === SERVICE_STATUS.PAUSING;
}

/**
 * Why a service cannot take a replica set or be forked now, when the client found that
 * waiting cannot help (it is paused, pausing or unstable), in words that say what to do.
 */
export function notRunning(what: string): (blocker: { kind: string; id: string; status: string }) => string {
  return ({ id, status }) =>
    hasStatusClass("service", status, "failed")
      ? `Service ${id} is ${status}: the API allows nothing but deleting it, so ${what} cannot be done. Replace the service (\`pulumi up --replace <urn>\`).`
      : `Service ${id} is ${status}: ${what} needs a running service. Resume it first (\`paused: false\` on the Service), then run \`pulumi up\` again.`;
}
