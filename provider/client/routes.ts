/**
 * The route table: the API description (api/index.ts) as the client runs it, and how an
 * operation's path is filled in. `operations.ts` runs the routes; the client's methods
 * only name an operation and fill in its parameters.
 */
import { API, type Operation, type OperationSpec, type ParamsOf } from "../../contract";

export type { Operation, ParamsOf } from "../../contract";

/** One API operation, as the route table holds it. */
export type RouteSpec = OperationSpec;

/** Every operation of the API, by the name of the client method that runs it. */
export const ROUTES = API;

/** The path parameters of an operation as a caller gives them: all but `project`, which comes from the options. */
export type PerformParams<O extends Operation> = Omit<ParamsOf<O>, "project">;

/**
 * The path of `operation` with its parameters filled in, each percent-encoded.
 * @throws never for parameters the type allows (a missing one would be left as `undefined`).
 */
export function routePath<O extends Operation>(operation: O, params: ParamsOf<O>): string {
  const values: Readonly<Record<string, string>> = params;
  return ROUTES[operation].path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(values[name])));
}
