/**
 * The request pipeline: read the body, then for API requests latency → rate limit →
 * faults → size limit → authentication → route (404/405) → project access (403) →
 * operation → persistence → answer, logging every API answer. The control path is
 * authenticated and routed the same way, without latency, limits, faults or logging.
 */
import type { IncomingMessage, RequestListener } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import type { Credentials } from "../model/credentials";
import { ForbiddenError } from "../model/errors";
import { errorAnswer, writeAnswer, type Answer } from "./answer";
import type { ApiHandler } from "./api-routes";
import { authenticate } from "./authentication";
import { CONTROL_PREFIX, type ControlHandler } from "./control-routes";
import type { Faults } from "./faults";
import { PayloadTooLargeError, UnknownPathError } from "./http-errors";
import type { RateLimiter } from "./rate-limiter";
import { MAX_BODY_BYTES, parseJsonBody, receiveBody, type ReceivedBody } from "./request-body";
import type { RequestLog } from "./request-log";
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
  /** API rate limiter. */
  rateLimiter: RateLimiter;
  /** Log of API answers. */
  log: RequestLog;
  /** Latency added to every API request, milliseconds. */
  latencyMs(): number;
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

/** Builds the server's request listener. */
export function createRequestListener(deps: PipelineDependencies): RequestListener {
  async function answerApi(req: IncomingMessage, method: string, path: string, received: ReceivedBody): Promise<Answer> {
    const latency = deps.latencyMs();
    if (latency > 0) await sleep(latency);
    deps.rateLimiter.admit();
    deps.faults.check(method, path);
    if (received.tooLarge) throw new PayloadTooLargeError(MAX_BODY_BYTES);
    const principal = authenticate(req.headers.authorization, deps.credentials);
    const { handler, params } = deps.api.resolve(method, path.slice(BASE_PATH.length));
    if (params.project_id !== undefined && !deps.credentials.canReach(principal, params.project_id)) {
      throw new ForbiddenError(params.project_id);
    }
    const answer = handler({ params, principal, body: bodyReader(req, received) });
    await (method === "GET" ? deps.durable() : deps.persist());
    return answer;
  }

  async function answerControl(req: IncomingMessage, method: string, path: string, received: ReceivedBody): Promise<Answer> {
    if (received.tooLarge) throw new PayloadTooLargeError(MAX_BODY_BYTES);
    authenticate(req.headers.authorization, deps.credentials);
    const { handler, params } = deps.control.resolve(method, path.slice(CONTROL_PREFIX.length));
    const answer = handler({ params, body: bodyReader(req, received) });
    if (method !== "GET") await deps.persist();
    return answer;
  }

  return (req, res) => {
    const arrivedAt = new Date().toISOString();
    const method = req.method ?? "GET";
    const rawUrl = req.url ?? "/";
    const path = rawUrl.split("?")[0]!;
    void (async () => {
      let answer: Answer;
      try {
        const received = await receiveBody(req);
        if (isUnder(path, BASE_PATH)) {
          answer = await answerApi(req, method, path, received).catch(errorAnswer);
          deps.log.record({ method, path: rawUrl, status: answer.status, at: arrivedAt });
        } else if (isUnder(path, CONTROL_PREFIX)) {
          answer = await answerControl(req, method, path, received).catch(errorAnswer);
        } else {
          answer = errorAnswer(new UnknownPathError(path));
        }
      } catch (error) {
        answer = errorAnswer(error);
      }
      if (!res.headersSent && !res.destroyed) writeAnswer(res, answer);
    })();
  };
}
