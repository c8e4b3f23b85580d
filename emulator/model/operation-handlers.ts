/**
 * How the model carries out the operations of the API description
 * (contract/api): each resource's operations module gives its handlers keyed by
 * operation name; a handler gets the operation's path parameters and its request body,
 * validated with the operation's request schema.
 */
import { API, type Operation, type OperationSpec, type ParamsOf, type RequestOf } from "../../contract";
import type { Principal } from "./credentials";
import { parseBody } from "./request-validation";

/** What a handler of operation `O` gets. */
export interface OperationCall<O extends Operation> {
  /** The path parameters, by the names of the path template (`project`, `service`, ...). */
  readonly params: ParamsOf<O>;
  /**
   * The request body, validated with the operation's request schema. Handlers ask for it
   * after their lookups, so that a missing resource answers 404 before a bad body answers 400.
   * @throws InvalidRequestError for a body that is not JSON or not valid.
   */
  readonly body: () => RequestOf<O>;
}

/** What a handler of operation `O` gets when it needs to know who calls (`getAuthInfo`). */
export interface AuthenticatedCall<O extends Operation> extends OperationCall<O> {
  /** The authenticated caller (already checked to reach the path's `project`). */
  readonly principal: Principal;
}

/** Carries out operation `O`: returns the answer's body (ignored when the operation answers none). */
export type OperationHandler<O extends Operation> = (call: OperationCall<O>) => unknown;

/** Handlers by operation name, as a resource's operations module gives them. */
export type OperationHandlers = { readonly [O in Operation]?: OperationHandler<O> };

/**
 * The call of `operation` with `params` and the raw (JSON) body `raw` gives, which is read
 * and validated only when the handler asks for it.
 */
export function operationCall<O extends Operation>(operation: O, params: ParamsOf<O>, raw: () => unknown): OperationCall<O> {
  const spec: OperationSpec = API[operation];
  return {
    params,
    body: () => {
      if (spec.request === undefined) throw new TypeError(`${operation} takes no request body`);
      return parseBody(spec.request, raw()) as RequestOf<O>;
    },
  };
}
