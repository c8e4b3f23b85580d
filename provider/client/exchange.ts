/**
 * One exchange with the API, as the transport and the policies composed onto it see it: a
 * request in, its outcome out (an answer, no answer, or a request a policy answered itself,
 * unsent). Policies compose onto the exchange as undici's interceptors compose onto a
 * dispatcher (`dispatcher.compose(a, b)`): each takes the exchange below it and returns one
 * that wraps it, the last given the outermost (transport.ts composes them; shaping/ holds them).
 */
import type { HttpMethod } from "../../contract";
import type { ApiError, ErrorContext } from "./apiErrors";
import type { DecodedBody } from "./bodyEncoding";
import type { Priority } from "./shaping/pacerTypes";

/** When a request left and when it ended, as the transport saw it (client clock, epoch ms). */
export interface RequestTrace {
  /** When the request was handed to the connection. */
  sentAt?: number;
  /** When the answer was read whole, or the request failed. */
  endedAt?: number;
}

/** One request to the API. */
export interface HttpRequest {
  /** Client method name the caller ran, for errors. */
  operation: string;
  /** The request's own operation, when it serves another one (e.g. `listServices` in a create's recovery). */
  step?: string;
  /** HTTP method. */
  method: HttpMethod;
  /** Path under the base URL, segments already encoded, e.g. `/projects/p/services`. */
  path: string;
  /** JSON body; none when undefined. */
  body?: unknown;
  /** Project addressed, for error hints. */
  projectId?: string;
  /** Filled in by the transport: when this request was sent and when it ended. */
  trace?: RequestTrace;
  /** Its turn in the pacer. @default "write" for POST and DELETE, "read" for GET */
  priority?: Priority;
  /**
   * The latest time (epoch ms) the call may still send it, as its retry policy says: it
   * never waits in a pause after a 429 beyond this, and its own 429 pauses other requests
   * only when it waits out the Retry-After. @default no limit
   */
  deadline?: number;
}

/** An answer's headers, as undici gives them (lower-case names). */
export type AnswerHeaders = Record<string, string | string[] | undefined>;

/** What one exchange gave, before it is turned into a caller's answer or error. */
export type Outcome =
  /** An answer: its status, headers and body, and when the request left and the answer came. */
  | { answered: true; status: number; headers: AnswerHeaders; body: DecodedBody; sentAt: number; receivedAt: number }
  /** No whole answer (refused, reset, timed out, cut short). */
  | { answered: false; cause: unknown; sentAt: number; failedAt: number }
  /** Not sent: a policy answered it itself (a pause after a 429, a turn that comes too late, a refused key). */
  | { answered: false; unsent: ApiError; sentAt: number; failedAt: number };

/** One exchange: a request in, its outcome out. Never rejects. */
export type Exchange = (req: HttpRequest) => Promise<Outcome>;

/** A policy composed onto an exchange: given the exchange below it, the one that wraps it. */
export type Interceptor = (next: Exchange) => Exchange;

/** `base` with `interceptors` composed onto it, as undici's `compose`: the last given is the outermost. */
export function compose(base: Exchange, ...interceptors: readonly Interceptor[]): Exchange {
  return interceptors.reduce((exchange, intercept) => intercept(exchange), base);
}

/** The first value of a header. */
export function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** What an error of `req` names: the operation (and its step), the request `<METHOD> <path>`, the project. */
export function contextOf(req: HttpRequest): ErrorContext {
  const named = {
    ...(req.step === undefined ? { operation: req.operation } : { operation: req.operation, step: req.step }),
    request: `${req.method} ${req.path}`,
  };
  return req.projectId === undefined ? named : { ...named, projectId: req.projectId };
}
