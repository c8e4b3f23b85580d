/**
 * What an API operation is, as data. Every API description (auth.ts, vpc.ts, peering.ts,
 * service.ts, replicaSet.ts) declares each of its operations once in this shape; the
 * client runs them (routes.ts, operations.ts) and the emulator serves them
 * (emulator/http/api-routes.ts).
 */
import type { z } from "zod";
import type { ListShape } from "../listReading";
import type { CallKind } from "../retry";
import type { HttpMethod } from "../transport";

/** What an operation answers: one object, a list of objects (each validated on its own), or nothing to read. */
export type Reply = { readonly one: z.ZodType } | { readonly list: ListShape<z.ZodType> } | { readonly none: true };

/** One API operation. */
export interface OperationSpec {
  /** HTTP method. */
  readonly method: HttpMethod;
  /** Path under the base URL with `{param}` placeholders, e.g. `/projects/{project}/vpcs/{vpc}`. */
  readonly path: string;
  /** How the call may be repeated (see `retry.ts`). */
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
   * resource once to tell whether waiting can cure the conflict (see conflicts.ts).
   */
  readonly blocker?: "service" | "replica set";
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

/** A create: a `POST` never blindly repeated (see createRecovery.ts). */
export function create<const T extends Omit<OperationSpec, "method" | "retry">>(
  spec: T,
): T & { readonly method: "POST"; readonly retry: "create" } {
  return { ...spec, method: "POST", retry: "create" };
}

/** A read: a `GET` repeated freely, answering 200. */
export function read<const T extends Pick<OperationSpec, "path" | "reply">>(
  spec: T,
): T & { readonly method: "GET"; readonly retry: "read"; readonly status: 200 } {
  return { ...spec, method: "GET", retry: "read", status: 200 };
}
