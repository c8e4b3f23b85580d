/**
 * The route table: every API operation (SPEC.md section 4) once, as data: its method, its
 * path template, how it may be repeated, and what its answer is. `operations.ts` runs
 * them; the client's methods only name a route and fill in its parameters.
 */
import type { z } from "zod";
import type { ListShape } from "./listReading";
import type { CallKind } from "./retry";
import { AuthInfoSchema, MessageResponseSchema, PeeringSchema, ReadReplicaSetSchema, ServiceSchema, VpcSchema } from "./schemas";
import type { HttpMethod } from "./transport";

/** What a route answers: one object, a list of objects (each validated on its own), or nothing to read. */
export type Reply = { readonly one: z.ZodType } | { readonly list: ListShape<z.ZodType> } | { readonly none: true };

/** One API operation. */
export interface RouteSpec {
  /** HTTP method. */
  readonly method: HttpMethod;
  /** Path under the base URL with `{param}` placeholders, e.g. `/projects/{project}/vpcs/{vpc}`. */
  readonly path: string;
  /** How the call may be repeated (see `retry.ts`). */
  readonly retry: CallKind;
  /** What the answer holds. */
  readonly reply: Reply;
  /**
   * Whose status a 409 of this operation is about: after a 409 the client reads that
   * resource once to tell whether waiting can cure the conflict (see conflicts.ts).
   */
  readonly blocker?: "service" | "replica set";
}

const none = { none: true } as const;
const message = { one: MessageResponseSchema } as const;
const service = { one: ServiceSchema } as const;
const vpcs = { item: VpcSchema, idField: "id", noun: "VPC" } as const;
const peerings = { item: PeeringSchema, idField: "id", noun: "peering" } as const;
const services = { item: ServiceSchema, idField: "service_id", noun: "service" } as const;
const replicaSets = { item: ReadReplicaSetSchema, idField: "id", noun: "replica set" } as const;
const P = "/projects/{project}";
const SVC = `${P}/services/{service}`;
const RS = `${SVC}/replicaSets/{replicaSet}`;

/** Every operation of the API, by the name of the client method that runs it. */
export const ROUTES = {
  getAuthInfo: { method: "GET", path: "/auth/info", retry: "read", reply: { one: AuthInfoSchema } },

  listVpcs: { method: "GET", path: `${P}/vpcs`, retry: "read", reply: { list: vpcs } },
  createVpc: { method: "POST", path: `${P}/vpcs`, retry: "create", reply: { one: VpcSchema } },
  getVpc: { method: "GET", path: `${P}/vpcs/{vpc}`, retry: "read", reply: { one: VpcSchema } },
  deleteVpc: { method: "DELETE", path: `${P}/vpcs/{vpc}`, retry: "delete", reply: none },
  renameVpc: { method: "POST", path: `${P}/vpcs/{vpc}/rename`, retry: "idempotent", reply: message },

  listPeerings: { method: "GET", path: `${P}/vpcs/{vpc}/peerings`, retry: "read", reply: { list: peerings } },
  createPeering: { method: "POST", path: `${P}/vpcs/{vpc}/peerings`, retry: "create", reply: { one: PeeringSchema } },
  getPeering: { method: "GET", path: `${P}/vpcs/{vpc}/peerings/{peering}`, retry: "read", reply: { one: PeeringSchema } },
  deletePeering: { method: "DELETE", path: `${P}/vpcs/{vpc}/peerings/{peering}`, retry: "delete", reply: none },

  listServices: { method: "GET", path: `${P}/services`, retry: "read", reply: { list: services } },
  createService: { method: "POST", path: `${P}/services`, retry: "create", reply: service },
  getService: { method: "GET", path: SVC, retry: "read", reply: service },
  deleteService: { method: "DELETE", path: SVC, retry: "delete", reply: none },
  startService: { method: "POST", path: `${SVC}/start`, retry: "idempotent", reply: service, blocker: "service" },
  stopService: { method: "POST", path: `${SVC}/stop`, retry: "idempotent", reply: service, blocker: "service" },
  attachServiceToVpc: { method: "POST", path: `${SVC}/attachToVPC`, retry: "idempotent", reply: message, blocker: "service" },
  detachServiceFromVpc: { method: "POST", path: `${SVC}/detachFromVPC`, retry: "idempotent", reply: message, blocker: "service" },
  resizeService: { method: "POST", path: `${SVC}/resize`, retry: "idempotent", reply: service, blocker: "service" },
  enableServicePooler: { method: "POST", path: `${SVC}/enablePooler`, retry: "idempotent", reply: message, blocker: "service" },
  disableServicePooler: { method: "POST", path: `${SVC}/disablePooler`, retry: "idempotent", reply: message, blocker: "service" },
  forkService: { method: "POST", path: `${SVC}/forkService`, retry: "create", reply: service, blocker: "service" },
  updateServicePassword: { method: "POST", path: `${SVC}/updatePassword`, retry: "idempotent", reply: none, blocker: "service" },
  setServiceEnvironment: { method: "POST", path: `${SVC}/setEnvironment`, retry: "idempotent", reply: message, blocker: "service" },
  setServiceHA: { method: "POST", path: `${SVC}/setHA`, retry: "idempotent", reply: service, blocker: "service" },

  listReplicaSets: { method: "GET", path: `${SVC}/replicaSets`, retry: "read", reply: { list: replicaSets } },
  createReplicaSet: {
    method: "POST",
    path: `${SVC}/replicaSets`,
    retry: "create",
    reply: { one: ReadReplicaSetSchema },
    blocker: "service",
  },
  deleteReplicaSet: { method: "DELETE", path: RS, retry: "delete", reply: none },
  resizeReplicaSet: { method: "POST", path: `${RS}/resize`, retry: "idempotent", reply: message, blocker: "replica set" },
  enableReplicaSetPooler: { method: "POST", path: `${RS}/enablePooler`, retry: "idempotent", reply: message, blocker: "replica set" },
  disableReplicaSetPooler: { method: "POST", path: `${RS}/disablePooler`, retry: "idempotent", reply: message, blocker: "replica set" },
  setReplicaSetEnvironment: { method: "POST", path: `${RS}/setEnvironment`, retry: "idempotent", reply: message, blocker: "replica set" },
} as const satisfies Record<string, RouteSpec>;

/** The name of an operation (and of the client method that runs it). */
export type Operation = keyof typeof ROUTES;

/** The `{param}` names of a path template. */
type ParamNames<P extends string> = P extends `${string}{${infer N}}${infer Rest}` ? N | ParamNames<Rest> : never;

/** The parameters an operation's path needs, e.g. `{ project, service }`. */
export type ParamsOf<O extends Operation> = { readonly [N in ParamNames<(typeof ROUTES)[O]["path"]>]: string };

/**
 * The path of `operation` with its parameters filled in, each percent-encoded.
 * @throws never for parameters the type allows (a missing one would be left as `undefined`).
 */
export function routePath<O extends Operation>(operation: O, params: ParamsOf<O>): string {
  const values = params as unknown as Record<string, string>;
  return ROUTES[operation].path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(values[name])));
}
