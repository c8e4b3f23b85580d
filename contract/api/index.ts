/**
 * The API description: every operation of the API (SPEC.md section 4) once, by name,
 * assembled from the description of each resource. The client runs it
 * (provider/client/operations.ts, its `perform` typed from it); the emulator serves it
 * (emulator/http/api-routes.ts).
 */
import type { z } from "zod";
import { AUTH_API } from "./auth";
import type { OperationSpec, PathParams } from "./operation";
import { PEERING_API } from "./peering";
import { REPLICA_SET_API } from "./replicaSet";
import { SERVICE_API } from "./service";
import { VPC_API } from "./vpc";

export * from "./auth";
export * from "./vpc";
export * from "./peering";
export * from "./service";
export * from "./replicaSet";
export { MessageResponseSchema, type MessageResponse, type Open } from "./reading";
export type { CallKind, CreateRecovery, HttpMethod, ListShape, OperationSpec, PathParams, Reply } from "./operation";

/** Every operation of the API, by name. */
export const API = { ...AUTH_API, ...VPC_API, ...PEERING_API, ...SERVICE_API, ...REPLICA_SET_API } as const satisfies Record<
  string,
  OperationSpec
>;

/** The name of an operation. */
export type Operation = keyof typeof API;

/** The parameters an operation's path needs, e.g. `{ project, service }`. */
export type ParamsOf<O extends Operation> = PathParams<(typeof API)[O]["path"]>;

/** The request body an operation takes, as its sender writes it (`undefined` when it takes none). */
export type BodyOf<O extends Operation> = (typeof API)[O] extends { request: infer S extends z.ZodType } ? z.input<S> : undefined;

/** The request body of an operation once validated (`never` when it takes none). */
export type RequestOf<O extends Operation> = (typeof API)[O] extends { request: infer S extends z.ZodType } ? z.output<S> : never;

/**
 * The path of `operation` with its parameters filled in, each percent-encoded.
 * @throws never for parameters the type allows (a missing one would be left as `undefined`).
 */
export function pathOf<O extends Operation>(operation: O, params: ParamsOf<O>): string {
  const values: Readonly<Record<string, string>> = params;
  return API[operation].path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(values[name])));
}
