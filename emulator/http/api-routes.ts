/**
 * The router of every operation of the API description (contract/api), bound by
 * operation name to the model's handlers: method, path and success status come from the
 * description, the request body is validated with its request schema.
 */
import { API, type Operation, type ParamsOf } from "../../contract";
import { authOperations } from "../model/auth-operations";
import type { ClouddbModel } from "../model/clouddb-model";
import type { Credentials, Principal } from "../model/credentials";
import { operationCall, type AuthenticatedCall } from "../model/operation-handlers";
import { empty, json, type Answer } from "./answer";
import { Router } from "./router";

/** What an API handler gets. */
export interface ApiContext {
  /** Path parameters, by the names of the description's path templates (`project`, `vpc`, `service`, ...). */
  params: Record<string, string>;
  /** The authenticated caller (already checked to reach `project`). */
  principal: Principal;
  /** The JSON body (`{}` when empty). @throws InvalidRequestError */
  body(): unknown;
}

/** An API operation. */
export type ApiHandler = (ctx: ApiContext) => Answer;

/** A handler for every operation of the description. */
type ApiHandlers = { readonly [O in Operation]: (call: AuthenticatedCall<O>) => unknown };

/** Routes `operation` to its handler, as the description says. */
function route<O extends Operation>(router: Router<ApiHandler>, operation: O, handlers: ApiHandlers): void {
  const spec = API[operation];
  const handler = handlers[operation];
  router.on(spec.method, spec.path.replace(/\{(\w+)\}/g, ":$1"), (c) => {
    const call = operationCall(operation, c.params as ParamsOf<O>, () => c.body());
    const reply = handler({ ...call, principal: c.principal });
    return "none" in spec.reply ? empty(spec.status) : json(spec.status, reply);
  });
}

/** The router of every API operation. */
export function apiRouter(model: ClouddbModel, credentials: Credentials): Router<ApiHandler> {
  const handlers: ApiHandlers = { ...model.operations, ...authOperations(credentials, model.reportedClock) };
  const router = new Router<ApiHandler>();
  for (const operation of Object.keys(API) as Operation[]) route(router, operation, handlers);
  return router;
}
