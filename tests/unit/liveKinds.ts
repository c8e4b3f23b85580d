/**
 * Answers of each kind in full, and what the unreadable-value tests need of them: how each
 * parses, its outputs, its schema (whose outputs declare the fields they read), which actions a live resource needs for a
 * program that did not change, and answers with a field given another value.
 */
import { PeeringSchema } from "../../contract/api/peering";
import { ReadReplicaSetSchema } from "../../contract/api/replicaSet";
import { ServiceSchema } from "../../contract/api/service";
import { VpcSchema } from "../../contract/api/vpc";
import type { Peering, ReadReplicaSet, Service, Vpc } from "../../provider/client";
import { outputsFrom, type Props } from "../../provider/framework/schema";
import type { ReadFromFields } from "../../provider/framework/outputs";
import { REPLICA_SET_ACTIONS, readReplicaSetSchema } from "../../provider/resources/readReplicaSet/definition";
import type { ConvergeContext } from "../../provider/resources/service/convergence";
import { SERVICE_ACTIONS, serviceOutputs, serviceSchema, type DesiredService } from "../../provider/resources/service/definition";
import { VPC_ACTIONS, vpcSchema } from "../../provider/resources/vpc/definition";
import { vpcPeeringSchema } from "../../provider/resources/vpcPeering/definition";

/** A field left out of an answer. */
export const ABSENT = Symbol("absent");
/** A value given to a field in place of its own. */
export type Odd = unknown;

/** Shapes a field may come in that are not its own. */
export const ODD: readonly Odd[] = [null, ABSENT, [], {}, "odd", 7, true, "2.5e-1x", [{ id: "x" }]];

/** The answer with the value at `path` replaced by `value` (removed for ABSENT). */
export function mutated(raw: unknown, path: readonly (string | number)[], value: Odd): unknown {
  const copy = structuredClone(raw) as Record<string | number, unknown>;
  let node = copy;
  for (const seg of path.slice(0, -1)) node = node[seg] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (value === ABSENT) delete node[last];
  else node[last] = value;
  return copy;
}

/** Every field path of `raw`, at any depth (the first item of an array). */
export function pathsOf(raw: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (raw === null || typeof raw !== "object") return [];
  const entries: [string | number, unknown][] = Array.isArray(raw) ? (raw.length > 0 ? [[0, raw[0]]] : []) : Object.entries(raw);
  return entries.flatMap(([k, v]) => [[...prefix, k], ...pathsOf(v, [...prefix, k])]);
}

/** Whether `odd` is a shape the field already has (no test then). */
export function sameShape(original: unknown, odd: Odd): boolean {
  if (odd === ABSENT || odd === null) return original === odd;
  if (Array.isArray(odd)) return Array.isArray(original);
  return typeof odd === typeof original && !Array.isArray(original) && (original !== null || odd === null);
}

/** One kind of resource, as the tests see its answers. */
export interface Kind<L> {
  readonly name: string;
  readonly answer: Record<string, unknown>;
  readonly parse: (raw: unknown) => L | undefined;
  readonly outputs: (live: L) => Props;
  /** Its schema: the fields its outputs are read from, each with its rule. */
  readonly schema: ReadFromFields<L>;
  /** The actions the live resource needs for a program that did not change (what was recorded). */
  readonly needed: (live: L, recorded: Props) => string[];
  /** Paths (joined by `.`) where `null` or absence is a value, not an odd shape. */
  readonly none: readonly string[];
  /** Paths whose content no output reads (or an output carries as it is). */
  readonly unread: readonly string[];
  /** Paths where a number is another shape of the same value (a VPC id as a number), not an odd one. */
  readonly numbersToo?: readonly string[];
}

const endpoint = { host: "h.example", port: 5432 };

export const serviceKind: Kind<Service> = {
  name: "Service",
  answer: {
    service_id: "abcdefghij",
    project_id: "proj000001",
    name: "db",
    service_type: "TIMESERIES",
    region_code: "us-east-1",
    status: "READY",
    created: "2026-11-26T00:00:00Z",
    endpoint,
    connection_pooler: { endpoint: { host: "p.example", port: 6432 } },
    vpcEndpoint: { vpc_id: "123", host: "v.example", port: 5432 },
    forked_from: { service_id: "srcsrcsrc0", project_id: "proj000001", is_standby: false },
    resources: [{ id: "1", spec: { cpu_millis: 1000, memory_gbs: 4, volume_type: "gp3" } }],
    ha_replicas: { replica_count: 1, sync_replica_count: 0 },
    metadata: { environment: "PROD" },
    metrics: { memory_mb: 1, milli_cpu: 2, storage_mb: 3 },
    read_replica_sets: [],
  },
  parse: (raw) => {
    const r = ServiceSchema.safeParse(raw);
    return r.success ? r.data : undefined;
  },
  outputs: (live) => serviceOutputs(live, { password: "pw-000000" }),
  schema: serviceSchema,
  needed: (live, recorded) => {
    const want = { ...recorded, vpcId: recorded.vpcId ?? null, forkFrom: null, password: "pw-000000", timeouts: null } as DesiredService;
    const ctx = { recordedPassword: "pw-000000" } as ConvergeContext;
    return SERVICE_ACTIONS.filter((a) => a.needed(live, want, ctx)).map((a) => a.name);
  },
  none: ["connection_pooler", "vpcEndpoint", "forked_from", "read_replica_sets", "metrics"],
  unread: ["metrics", "read_replica_sets", "vpcEndpoint.host", "vpcEndpoint.port"],
  numbersToo: ["vpcEndpoint.vpc_id"],
};

export const replicaSetKind: Kind<ReadReplicaSet> = {
  name: "ReadReplicaSet",
  answer: {
    id: "rsrsrsrs01",
    name: "rs",
    nodes: 2,
    cpu_millis: 1000,
    memory_gbs: 4,
    status: "active",
    endpoint,
    connection_pooler: { endpoint: { host: "p.example", port: 6432 } },
    metadata: { environment: "DEV" },
  },
  parse: (raw) => {
    const r = ReadReplicaSetSchema.safeParse(raw);
    return r.success ? r.data : undefined;
  },
  outputs: (live) => outputsFrom(readReplicaSetSchema, { live, serviceId: "abcdefghij", projectId: "proj000001" }),
  schema: readReplicaSetSchema,
  needed: (live, recorded) => {
    const want = { ...recorded, password: null, timeouts: null } as never;
    return REPLICA_SET_ACTIONS.filter((a) => a.needed(live, want, {} as never)).map((a) => a.name);
  },
  none: ["connection_pooler"],
  unread: [],
};

export const vpcKind: Kind<Vpc> = {
  name: "Vpc",
  answer: { id: "123", name: "net", cidr: "10.0.0.0/16", region_code: "us-east-1" },
  parse: (raw) => {
    const r = VpcSchema.safeParse(raw);
    return r.success ? r.data : undefined;
  },
  outputs: (live) => outputsFrom(vpcSchema, { live, projectId: "proj000001" }),
  schema: vpcSchema,
  needed: (live, recorded) => VPC_ACTIONS.filter((a) => a.needed(live, recorded as never, {} as never)).map((a) => a.name),
  none: [],
  unread: [],
};

export const peeringKind: Kind<Peering> = {
  name: "VpcPeering",
  answer: {
    id: "77",
    status: "failed",
    error_message: "no route",
    peer_account_id: "123456789012",
    peer_region_code: "us-east-1",
    peer_vpc_id: "vpc-9",
    provisioned_id: "pcx-1",
  },
  parse: (raw) => {
    const r = PeeringSchema.safeParse(raw);
    return r.success ? r.data : undefined;
  },
  outputs: (live) => outputsFrom(vpcPeeringSchema, { live, vpcId: "123", projectId: "proj000001" }),
  schema: vpcPeeringSchema,
  needed: () => [], // every input replaces: a peering has no action
  none: ["error_message"],
  unread: [],
};

/** Every kind. */
export const kinds = [serviceKind, replicaSetKind, vpcKind, peeringKind] as Kind<unknown>[];
