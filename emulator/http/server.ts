/**
 * The request pipeline: read the body, then for API requests latency → rate limit →
 * faults (and the hold a rule asks for) → size limit → authentication → route (404/405) →
 * project access (403) → operation → persistence → rewrites → delivery (whole, or lost,
 * dropped, cut short, trickled, stale, lagging, repeated, compressed, redirected or replaced
 * by a gateway's page as a fault rule says), logging every API request with what its client saw. The
 * control path is authenticated and routed the same way, without latency, limits,
 * faults, rewrites or logging. Every answer carries `Date` in the server's reported clock
 * (an API answer's shifted by a gateway's own offset, when the control path sets one).
 */
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { gzipSync } from "node:zlib";
import type { Credentials } from "../model/credentials";
import { ForbiddenError } from "../model/errors";
import { errorAnswer, serializeAnswer, writeAnswer, type Answer } from "./answer";
import type { ApiHandler } from "./api-routes";
import { authenticate } from "./authentication";
import { CONTROL_PREFIX, type ControlHandler } from "./control-routes";
import { dropConnection, writeTrickled, writeTruncated } from "./delivery";
import type { FaultAction, Faults } from "./faults";
import { type AnswerMemory, echoPage, redirectAnswer, repeated, wafPage } from "./gateway";
import { InjectedFaultError, PayloadTooLargeError, UnknownPathError } from "./http-errors";
import { type RateLimiter, rateLimitKey } from "./rate-limiter";
import { MAX_BODY_BYTES, parseJsonBody, receiveBody, type ReceivedBody } from "./request-body";
import type { RequestLog, RequestLogEntry } from "./request-log";
import type { Rewrites } from "./rewrites";
import type { Router } from "./router";

/** Path prefix of the API. */
export const BASE_PATH = "/public/api/v1";

/** Everything the pipeline uses. */
export interface PipelineDependencies {
  /** Tokens and projects. */
  credentials: Credentials;
  /** Routes of the API, relative to {@link BASE_PATH}. */
  api: Router<ApiHandler>;
  /** Routes of the control path, relative to {@link CONTROL_PREFIX}. */
  control: Router<ControlHandler>;
  /** Fault rules. */
  faults: Faults;
  /** Rewrite rules. */
  rewrites: Rewrites;
  /** API rate limiter. */
  rateLimiter: RateLimiter;
  /** Log of API requests. */
  log: RequestLog;
  /** The last answer to each GET path, for stale lists. */
  answers: AnswerMemory;
  /** Latency added to every API request, milliseconds. */
  latencyMs(): number;
  /** The server's reported clock, epoch milliseconds, for the `Date` header. */
  serverTime(): number;
  /** How far the `Date` header of API answers runs from {@link PipelineDependencies.serverTime}: a gateway stamping its own clock. */
  dateOffsetMs(): number;
  /** Makes every change so far durable; awaited before a change is acknowledged. */
  persist(): Promise<void>;
  /**
   * Resolves once every write asked for so far is on disk; awaited before a read is
   * answered, so no answer shows a change that a crash could still lose.
   */
  durable(): Promise<void>;
}

function isUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

function bodyReader(req: IncomingMessage, received: ReceivedBody): () => unknown {
  let parsed: { value: unknown } | undefined;
  return () => {
    parsed ??= { value: parseJsonBody(received.bytes, req.headers["content-type"]) };
    return parsed.value;
  };
}

/** An API request as the pipeline carries it. */
interface ApiRequest {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  /** Path without query string. */
  path: string;
  received: ReceivedBody;
  /** The log entry so far (method, path as received, arrival). */
  entry: Omit<RequestLogEntry, "status">;
  /** Headers the rate limit adds to its answer, whatever it is (the RateLimit fields). */
  limitHeaders?: Record<string, string>;
}

/** Builds the server's request listener. */
export function createRequestListener(deps: PipelineDependencies): RequestListener {
  /** Size limit → auth → route → project access → operation → persistence. */
  async function carryOut({ req, method, path, received }: ApiRequest): Promise<Answer> {
    if (received.tooLarge) throw new PayloadTooLargeError(MAX_BODY_BYTES);
    const principal = authenticate(req.headers.authorization, deps.credentials);
    const { handler, params } = deps.api.resolve(method, path.slice(BASE_PATH.length));
    if (params.project !== undefined && !deps.credentials.canReach(principal, params.project)) {
      throw new ForbiddenError(params.project);
    }
    const answer = handler({ params, principal, body: bodyReader(req, received) });
    await (method === "GET" ? deps.durable() : deps.persist());
    return answer;
  }

  /** Latency → rate limit → faults → {@link carryOut}; says which fault rule applied, if any. */
  async function answer(request: ApiRequest): Promise<{ answer: Answer; fault?: FaultAction }> {
    let fault: FaultAction | undefined;
    try {
      const latency = deps.latencyMs();
      if (latency > 0) await sleep(latency);
      request.limitHeaders = deps.rateLimiter.admit(rateLimitKey(request.req.headers.authorization));
      fault = deps.faults.take(request.method, request.path);
      if (fault !== undefined && fault.holdMs > 0) await sleep(fault.holdMs);
      if (fault?.kind === "status" && !fault.after) throw new InjectedFaultError(fault.status, fault.retryAfter);
      if (fault?.kind === "drop" && !fault.after) return { answer: { status: 0 }, fault };
      if (fault?.kind === "redirect" && !fault.after) return { answer: redirectAnswer(fault.status, fault.location), fault };
      if (fault?.kind === "waf" && !fault.after) return { answer: wafPage(), fault };
      if (fault?.kind === "echo" && !fault.after)
        return { answer: echoPage(fault.status, request.method, request.path, request.received.bytes), fault };
      return { answer: await carryOut(request), fault };
    } catch (error) {
      return fault === undefined ? { answer: errorAnswer(error) } : { answer: errorAnswer(error), fault };
    }
  }

  /** Applies the rewrite rules to what the client is about to get. */
  function rewrite(request: ApiRequest, given: Answer): { answer: Answer; rewritten: string[] } {
    if (given.body === undefined) return { answer: given, rewritten: [] };
    const { body, fields } = deps.rewrites.apply(request.method, request.path, given.body);
    return { answer: { ...given, body }, rewritten: fields };
  }

  /** What the client is given instead of the real answer, as the fault rule says (the real one when it says nothing). */
  function given(request: ApiRequest, real: Answer, fault: FaultAction | undefined): Answer {
    if (request.method === "GET" && real.status === 200) {
      const before = deps.answers.swap(request.path, real);
      if (fault?.kind === "stale" && before !== undefined) return before;
      if (fault?.kind === "lag") return deps.answers.lagging(request.path, fault.lagMs) ?? real;
    }
    if (fault?.kind === "status" && fault.after) return errorAnswer(new InjectedFaultError(fault.status, fault.retryAfter));
    if (fault?.kind === "waf" && fault.after) return wafPage();
    if (fault?.kind === "redirect" && fault.after) return redirectAnswer(fault.status, fault.location);
    if (fault?.kind === "echo" && fault.after) return echoPage(fault.status, request.method, request.path, request.received.bytes);
    if (fault?.kind === "repeat") return repeated(real);
    return real;
  }

  /** The log fields of a rule's mode: what it did, whether the request was carried out, the real status. */
  function outcomeOf(fault: FaultAction, real: Answer): Partial<RequestLogEntry> {
    const outcome = (
      {
        status: "replaced",
        drop: "dropped",
        truncate: "truncated",
        trickle: "trickled",
        stale: "stale",
        repeat: "repeated",
        redirect: "redirected",
        waf: "waf",
        echo: "echoed",
        lag: "lagged",
        gzip: "compressed",
      } as const
    )[fault.kind];
    return fault.after ? { outcome, carriedOut: true, realStatus: real.status } : { outcome, carriedOut: false };
  }

  /** Delivers the answer as the fault rule says, and logs what the client saw. */
  function deliver(request: ApiRequest, real: Answer, fault: FaultAction | undefined): void {
    const { res, entry } = request;
    if (fault?.kind === "drop") {
      dropConnection(res);
      deps.log.record({ ...entry, status: 0, ...outcomeOf(fault, real) });
      return;
    }
    const { answer, rewritten } = rewrite(request, given(request, real, fault));
    const date = deps.serverTime() + deps.dateOffsetMs();
    const serialized = serializeAnswer(answer, date);
    Object.assign(serialized.headers, request.limitHeaders);
    if (fault?.kind === "gzip" && serialized.payload !== undefined) {
      serialized.payload = gzipSync(serialized.payload);
      serialized.headers["Content-Encoding"] = "gzip";
      serialized.headers["Content-Length"] = String(serialized.payload.length);
    }
    if (fault?.kind === "status" && fault.retryAfterDate && serialized.headers["Retry-After"] !== undefined) {
      serialized.headers["Retry-After"] = new Date(date + Number(serialized.headers["Retry-After"]) * 1000).toUTCString();
    }
    const extra: Partial<RequestLogEntry> = rewritten.length > 0 ? { rewritten } : {};
    const logged: RequestLogEntry = { ...entry, status: answer.status, ...(fault === undefined ? {} : outcomeOf(fault, real)), ...extra };
    if (fault?.kind === "truncate") {
      if (!res.destroyed) writeTruncated(res, serialized, fault.atBytes);
    } else if (fault?.kind === "trickle") {
      if (!res.destroyed) void writeTrickled(res, serialized, fault.byteMs);
    } else if (!res.headersSent && !res.destroyed) {
      writeAnswer(res, serialized);
    }
    if (fault?.kind === "status" && !fault.after) deps.log.record({ ...entry, status: answer.status, ...extra });
    else deps.log.record(logged);
  }

  async function answerControl(req: IncomingMessage, method: string, path: string, received: ReceivedBody): Promise<Answer> {
    if (received.tooLarge) throw new PayloadTooLargeError(MAX_BODY_BYTES);
    authenticate(req.headers.authorization, deps.credentials);
    const { handler, params } = deps.control.resolve(method, path.slice(CONTROL_PREFIX.length));
    const answer = await handler({ params, body: bodyReader(req, received) });
    if (method !== "GET") await deps.persist();
    return answer;
  }

  function writeIfOpen(res: ServerResponse, answer: Answer): void {
    if (!res.headersSent && !res.destroyed) writeAnswer(res, serializeAnswer(answer, deps.serverTime()));
  }

  return (req, res) => {
    const arrivedAt = new Date().toISOString();
    const method = req.method ?? "GET";
    const rawUrl = req.url ?? "/";
    const path = rawUrl.split("?")[0];
    void (async () => {
      try {
        const received = await receiveBody(req);
        if (isUnder(path, BASE_PATH)) {
          const request: ApiRequest = { req, res, method, path, received, entry: { method, path: rawUrl, at: arrivedAt } };
          const { answer: real, fault } = await answer(request);
          deliver(request, real, fault);
        } else if (isUnder(path, CONTROL_PREFIX)) {
          writeIfOpen(res, await answerControl(req, method, path, received).catch(errorAnswer));
        } else {
          writeIfOpen(res, errorAnswer(new UnknownPathError(path)));
        }
      } catch (error) {
        writeIfOpen(res, errorAnswer(error));
      }
    })();
  };
}
