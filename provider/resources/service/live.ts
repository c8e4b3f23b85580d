/**
 * How a live service (the API's shape) reads: its size, its VPC, whether it is paused, what
 * its answer must show to be read at all, and why it cannot be used now.
 */
import { knownStatus, readableHaCounts, readableServiceSize, readableVpcId } from "../../../contract/readable";
import { hasStatusClass, SERVICE_STATUS } from "../../../contract/statuses";
import type { Service } from "../../client";
import { isNumber, isText, oddly } from "../../framework/unreadable";
import type { Size } from "./namedTypes";

/** True when a service's VPC endpoint reads: none (absent or `null`), or an object naming its VPC by a readable id (an attach or detach may be judged). */
export function vpcReadable(s: Service): boolean {
  const e = s.vpcEndpoint;
  if (e === undefined || e === null) return true;
  if (typeof e !== "object" || Array.isArray(e)) return false;
  return readableVpcId((e as { vpc_id?: unknown }).vpc_id);
}

/*
 * What a service's answer must show for the outputs read from a field (CONTRACT.md, "Service
 * fields the server fills in"; those it relies on, `service_id`, `project_id`, `created` and a
 * status of another type, make the answer unreadable instead). The definition's outputs
 * declare each field with its rule (contract/readable.ts): the simple ones the rule of the
 * value; these, when the rule needs more. The pooler, the VPC endpoint and `forked_from` may
 * be absent (none); any other shape of them is unreadable. A status of the table's spelling is
 * carried, known or not; whether the service is paused is read only from one the table knows.
 */

/** True when the answer shows `forked_from` readably: none, or a source with its ids and standby flag. */
export function forkedFromShown(s: Service): boolean {
  return (
    !oddly(s, "forked_from") &&
    (s.forked_from == null ||
      (isText(s.forked_from.service_id) && isText(s.forked_from.project_id) && typeof s.forked_from.is_standby === "boolean"))
  );
}

/** True when the answer shows `resources` readably: each with its id and spec, the first a size of a plan. */
export function resourcesShown(s: Service): boolean {
  return (
    s.resources !== undefined &&
    s.resources.length > 0 &&
    s.resources.every((r) => isText(r.id) && isNumber(r.spec?.cpu_millis) && isNumber(r.spec.memory_gbs) && isText(r.spec.volume_type)) &&
    readableServiceSize(s.resources[0].spec?.cpu_millis, s.resources[0].spec?.memory_gbs)
  );
}

/** True when the answer shows `ha_replicas` readably: counts the contract allows. */
export function haShown(s: Service): boolean {
  return readableHaCounts(s.ha_replicas?.replica_count, s.ha_replicas?.sync_replica_count);
}

/** True when the answer's `status` tells whether the service is paused: one the table knows. */
export function pauseShown(s: Service): boolean {
  return knownStatus("service", s.status);
}

/** The plan of a size as the API shows it: the shared plan reads as 0/0. */
export function sizeOf(value: number | undefined): Size {
  return value === undefined || value === 0 ? "shared" : value;
}

/** The VPC a service is attached to, from its `vpcEndpoint`. */
export function attachedVpc(service: Service): string | undefined {
  const endpoint = service.vpcEndpoint as { vpc_id?: unknown } | null | undefined;
  const id = endpoint !== null && typeof endpoint === "object" ? endpoint.vpc_id : undefined;
  return readableVpcId(id) ? String(id) : undefined;
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
