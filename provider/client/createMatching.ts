/**
 * Which listed resources fit a create request: the pure half of create recovery. A field
 * is compared only when the item shows it in its documented shape; a field it does not
 * show (or shows oddly) is unknown, and unknown never excludes: recovery never guesses, so
 * an item it cannot rule out stays a candidate.
 */
import type { CreatePeeringRequest, CreateReplicaSetRequest, CreateServiceRequest, CreateVpcRequest, ForkServiceRequest } from "./requests";
import type { MsInterval } from "./serverClock";
import { classifyStatus } from "./statusRules";

/** A listed item seen as its fields by name (a validated loose object, or a raw unreadable one). */
export type Fields = Readonly<Record<string, unknown>>;

/** Server defaults of createService (CONTRACT.md). */
const SERVICE_DEFAULTS = {
  service_type: "TIMESERIES",
  region_code: "us-east-1",
  cpu_millis: "500",
  memory_gbs: "2",
  replica_count: 0,
  environment_tag: "DEV",
} as const;

/** The object at `path` in `item`, or undefined when it is absent or not an object. */
function objectAt(item: Fields, ...path: (string | number)[]): Fields | undefined {
  let cur: unknown = item;
  for (const seg of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string | number, unknown>)[seg];
  }
  return cur !== null && typeof cur === "object" ? (cur as Fields) : undefined;
}

/** False only when `value` is shown with the type of `wanted` and differs from it. */
function agrees(value: unknown, wanted: string | number | undefined): boolean {
  if (wanted === undefined || typeof value !== typeof wanted) return true;
  return value === wanted;
}

/** A size as the API shows it in `resources[].spec` (`"shared"` is shown as 0). */
function sizeNumber(value: string): number {
  return value === "shared" ? 0 : Number(value);
}

/** True unless the item shows a status of `kind` that is being deleted or gone. */
function notLeaving(kind: "service" | "replica set", item: Fields): boolean {
  const status = typeof item.status === "string" ? item.status : undefined;
  const cls = classifyStatus(kind, status);
  return cls !== "ending" && cls !== "gone";
}

/** True unless the item shows a `created` (server clock) outside `window`. */
export function createdWithin(item: Fields, window: MsInterval): boolean {
  if (typeof item.created !== "string") return true;
  const created = Date.parse(item.created);
  return Number.isNaN(created) || (created >= window.from && created <= window.to);
}

/** The fields both a service and a fork request may fix: size and environment. */
function sizeAndEnvironment(
  item: Fields,
  req: { cpu_millis?: string | undefined; memory_gbs?: string | undefined; environment_tag?: string | undefined },
): boolean {
  const spec = objectAt(item, "resources", 0, "spec");
  const metadata = objectAt(item, "metadata");
  return (
    (req.cpu_millis === undefined || agrees(spec?.cpu_millis, sizeNumber(req.cpu_millis))) &&
    (req.memory_gbs === undefined || agrees(spec?.memory_gbs, sizeNumber(req.memory_gbs))) &&
    (req.environment_tag === undefined || agrees(metadata?.environment, req.environment_tag))
  );
}

/**
 * Whether a listed service may be the one `createService(req)` made: not a fork, not being
 * deleted, and the name, type, region, size, HA replicas and environment the request asked
 * for (server defaults applied). Time is checked apart ({@link createdWithin}).
 */
export function fitsService(req: CreateServiceRequest): (item: Fields) => boolean {
  const sized = req.cpu_millis !== undefined && req.memory_gbs !== undefined;
  const wanted = {
    cpu_millis: sized ? req.cpu_millis : SERVICE_DEFAULTS.cpu_millis,
    memory_gbs: sized ? req.memory_gbs : SERVICE_DEFAULTS.memory_gbs,
    environment_tag: req.environment_tag ?? SERVICE_DEFAULTS.environment_tag,
  };
  return (item) =>
    objectAt(item, "forked_from") === undefined &&
    notLeaving("service", item) &&
    agrees(item.name, req.name) &&
    agrees(item.service_type, req.service_type ?? SERVICE_DEFAULTS.service_type) &&
    agrees(item.region_code, req.region_code ?? SERVICE_DEFAULTS.region_code) &&
    agrees(objectAt(item, "ha_replicas")?.replica_count, req.replica_count ?? SERVICE_DEFAULTS.replica_count) &&
    sizeAndEnvironment(item, wanted);
}

/**
 * Whether a listed service may be the fork `forkService(sourceId, req)` made: forked from
 * that source (a service that does not show `forked_from` is not a fork), not being
 * deleted, and the name, size and environment the request fixed. Time is checked apart.
 */
export function fitsFork(sourceId: string, req: ForkServiceRequest): (item: Fields) => boolean {
  const wanted = { cpu_millis: req.cpu_millis, memory_gbs: req.memory_gbs, environment_tag: req.environment_tag ?? "DEV" };
  return (item) => {
    const origin = objectAt(item, "forked_from");
    return (
      origin !== undefined &&
      agrees(origin.service_id, sourceId) &&
      notLeaving("service", item) &&
      agrees(item.name, req.name) &&
      sizeAndEnvironment(item, wanted)
    );
  };
}

/** Whether a listed VPC may be the one `createVpc(req)` made: same name, CIDR and region. */
export function fitsVpc(req: CreateVpcRequest): (item: Fields) => boolean {
  return (item) => agrees(item.name, req.name) && agrees(item.cidr, req.cidr) && agrees(item.region_code, req.region_code);
}

/** Whether a listed peering may be the one `createPeering(vpcId, req)` made: same peer account, region and VPC. */
export function fitsPeering(req: CreatePeeringRequest): (item: Fields) => boolean {
  return (item) =>
    agrees(item.peer_account_id, req.peer_account_id) &&
    agrees(item.peer_region_code, req.peer_region_code) &&
    agrees(item.peer_vpc_id, req.peer_vpc_id);
}

/** Whether a listed replica set may be the one `createReplicaSet(serviceId, req)` made: same name and size, not being deleted. */
export function fitsReplicaSet(req: CreateReplicaSetRequest): (item: Fields) => boolean {
  return (item) =>
    notLeaving("replica set", item) &&
    agrees(item.name, req.name) &&
    agrees(item.nodes, req.nodes) &&
    agrees(item.cpu_millis, req.cpu_millis) &&
    agrees(item.memory_gbs, req.memory_gbs);
}
