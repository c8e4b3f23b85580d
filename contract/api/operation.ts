/**
 * What an API operation is, as data. Every API description (auth.ts, vpc.ts, peering.ts,
 * service.ts, replicaSet.ts) declares each of its operations once in this shape; the
 * client runs them (provider/client/operations.ts) and the emulator serves them
 * (emulator/http/api-routes.ts).
 */
import type { z } from "zod";
import type { Fields } from "../matching";

/** The HTTP methods the API uses. */
export type HttpMethod = "GET" | "POST" | "DELETE";

/** How a call of an operation may be repeated (the client's retry policy follows it). */
export type CallKind =
  /** GET: repeat freely. */
  | "read"
  /** An action whose repetition does no harm (rename, resize, start, ...). */
  | "idempotent"
  /** DELETE: repeat freely; a 404 after an ambiguous failure means the first attempt worked. */
  | "delete"
  /** A create: never blindly repeated; its `recover` is consulted after an ambiguous failure. */
  | "create";

/** How the items of a list answer are read: each validated on its own, known by its id. */
export interface ListShape<S extends z.ZodType> {
  /** Schema of one item. */
  item: S;
  /** Name of the identifier field (`service_id`, `id`). */
  idField: string;
  /** What an item is, for messages (`service`, `replica set`). */
  noun: string;
}

/** What an operation answers: one object, a list of objects (each validated on its own), or nothing to read. */
export type Reply = { readonly one: z.ZodType } | { readonly list: ListShape<z.ZodType> } | { readonly none: true };

/** The `{param}` names of a path template. */
export type ParamNames<P extends string> = P extends `${string}{${infer N}}${infer Rest}` ? N | ParamNames<Rest> : never;

/** The path parameters of an operation whose path is `P`, e.g. `{ project, service }`. */
export type PathParams<P extends string = string> = { readonly [N in ParamNames<P>]: string };

/**
 * How the outcome of a create is recovered when its answer is lost (the client's createRecovery.ts): the
 * list that would show what it made, and how a listed item is recognised. The made
 * resource's id field and noun are those of the list (its `reply.list`).
 * @typeParam B - the request body, as the sender writes it.
 * @typeParam P - the create's path parameters (the list is called with them).
 */
export interface CreateRecovery<B = never, P = never> {
  /** The name of the list operation that shows what the create made. */
  readonly list: string;
  /**
   * For a create without a name (peerings): the list is read just before the request is
   * sent, and an item it did not show, that fits, is what the create made; several such
   * are never guessed between. @default false
   */
  readonly snapshot?: boolean;
  /** Whether a listed item (seen as its fields) may be what this create made; an unknown field never excludes it. */
  readonly fits: (body: B, item: Fields, params: P) => boolean;
  /** How a person knows the resource, for messages. @default the body's `name`, quoted */
  readonly label?: (body: B, params: P) => string;
  /** A field of the answer holding a secret: registered for redaction, and kept from an answer otherwise unreadable. */
  readonly secret?: string;
}

/** One API operation. */
export interface OperationSpec {
  /** HTTP method. */
  readonly method: HttpMethod;
  /** Path under the base URL with `{param}` placeholders, e.g. `/projects/{project}/vpcs/{vpc}`. */
  readonly path: string;
  /** How the call may be repeated. */
  readonly retry: CallKind;
  /** What the answer holds. */
  readonly reply: Reply;
  /** The status of a successful answer (CONTRACT.md, "Request and response bodies"). */
  readonly status: number;
  /**
   * The request body, when the operation takes one: the emulator validates what it
   * receives with it (strictly, naming each wrong field); the client types its body from it.
   */
  readonly request?: z.ZodType;
  /**
   * Whose status a 409 of this operation is about: after a 409 the client reads that
   * resource once to tell whether waiting can cure the conflict (see the client's conflicts.ts).
   */
  readonly blocker?: "service" | "replica set";
  /** For a create: how its outcome is recovered when its answer is lost; without it a lost answer is an error. */
  readonly recover?: CreateRecovery;
  /** A field of the request body holding a secret: the client registers its value for redaction before sending it. */
  readonly secretField?: string;
}

/** The reply of an operation that answers no body. */
export const NO_REPLY = { none: true } as const satisfies Reply;

/** The path of a project, the prefix of every project-scoped operation. */
export const PROJECT_PATH = "/projects/{project}";

/**
 * An action on an existing resource: a `POST` that may be repeated freely (the usual
 * update operation), declared with what differs from one action to the next.
 */
export function action<const T extends Omit<OperationSpec, "method" | "retry">>(
  spec: T,
): T & { readonly method: "POST"; readonly retry: "idempotent" } {
  return { ...spec, method: "POST", retry: "idempotent" };
}

/** The actions on one kind of resource, whose 409s are about that resource's status (see {@link OperationSpec.blocker}). */
export function actionsOn<const B extends NonNullable<OperationSpec["blocker"]>>(blocker: B) {
  return <const T extends Omit<OperationSpec, "method" | "retry" | "blocker">>(spec: T) => action({ ...spec, blocker });
}

/**
 * A create: a `POST` never blindly repeated. With `recover`, a lost answer is settled from
 * a list as it says (the client's createRecovery.ts), its functions typed by the request schema and the path.
 */
export function create<const T extends Omit<OperationSpec, "method" | "retry" | "recover"> & { readonly request: z.ZodType }>(
  spec: T,
  recover?: CreateRecovery<z.input<T["request"]>, PathParams<T["path"]>>,
): T & {
  readonly method: "POST";
  readonly retry: "create";
  readonly recover?: CreateRecovery<z.input<T["request"]>, PathParams<T["path"]>>;
} {
  return recover === undefined ? { ...spec, method: "POST", retry: "create" } : { ...spec, method: "POST", retry: "create", recover };
}

/** A read: a `GET` repeated freely, answering 200. */
export function read<const T extends Pick<OperationSpec, "path" | "reply">>(
  spec: T,
): T & { readonly method: "GET"; readonly retry: "read"; readonly status: 200 } {
  return { ...spec, method: "GET", retry: "read", status: 200 };
}
