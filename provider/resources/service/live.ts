/** How a live service (the API's shape) reads: its size, its VPC, whether it is paused, and why it cannot be used now. */
import type { Service } from "../../client";
import type { Size } from "./namedTypes";

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
  return service.status === "PAUSED" || service.status === "PAUSING";
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
