/**
 * HTTP transport: one pooled undici Agent per client (keep-alive), JSON in and out,
 * `Authorization: Bearer`, `User-Agent`. Every request has one deadline
 * (`requestTimeoutMs`) from the moment it is sent to its last byte, whatever the server
 * does with its bytes. Turns error answers into `ApiError`s, redirects into
 * `RedirectError`s, a 2xx page that is not JSON into a `NotTheApiError`, and failures
 * without an answer into `NetworkError`s, each naming the operation of its own caller.
 * Feeds every answer's `Date` header to the server clock. What decides whether and when a
 * request is sent (the pacer, refused keys, shared reads) is composed onto its exchange from
 * shaping/ (exchange.ts). It does not retry: that is `retry.ts`'s job.
 */
import { Agent } from "undici";
import type { ResolvedConfig } from "./config";
import { apiErrorFromResponse } from "./apiErrors";
import { decodeBody } from "./bodyEncoding";
import { ANSWER_DEADLINE_CODE } from "./clientErrors";
import { type ApiError, NetworkError, NotTheApiError, RedirectError, ResponseValidationError } from "./errors";
import { compose, contextOf, type Exchange, first, type HttpRequest, type Outcome } from "./exchange";
import { describeReceived } from "./redact";
import { guarded, paced, retryAfterOf, sharedReads } from "./shaping/interceptors";
import type { Pacer } from "./shaping/pacer";
import type { ServerClock } from "./serverClock";
import { MAX_TIMER_MS, setLongTimeout } from "./timers";

export type { HttpRequest, RequestTrace } from "./exchange";

/** A 2xx answer. */
export interface HttpResponse {
  /** HTTP status. */
  status: number;
  /** Parsed JSON body, or undefined when the body was empty. */
  body: unknown;
  /** When the request was sent (client clock, epoch ms). */
  sentAt: number;
  /** When the answer was read whole (client clock, epoch ms). */
  receivedAt: number;
}

/** True for a `Content-Type` that says JSON (`application/json`, `application/problem+json`, ...). */
function isJsonType(contentType: string | undefined): boolean {
  return contentType !== undefined && /^application\/([\w.+-]+\+)?json\b/i.test(contentType.trim());
}

/**
 * Sends requests over one keep-alive connection pool, through the shaping policies composed
 * onto its exchange (shaping/interceptors.ts): identical GETs under way share one request, each
 * request waits for its turn at the client's pacer, nothing is sent with a key the API refused.
 */
export class HttpTransport {
  private readonly agent: Agent;
  private readonly origin: string;
  private readonly basePath: string;
  /** The exchange with the shaping policies composed onto it (the last the outermost). */
  private readonly exchange: Exchange;

  /**
   * Creates the pool; opens no connection yet.
   * @param config - the resolved configuration (URL, key, timeouts).
   * @param clock - told the `Date` of every answer.
   * @param pacer - gives every request its turn, and is told how each ended.
   * @param stopped - aborts when the client stops: a request not sent by then is not sent, and fails with its reason.
   */
  constructor(
    private readonly config: ResolvedConfig,
    private readonly clock: ServerClock,
    pacer: Pacer,
    private readonly stopped?: AbortSignal,
  ) {
    const url = new URL(config.apiUrl);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, "");
    // undici's own timeouts bound the gaps between bytes; the request's deadline (sendOnce) bounds the whole.
    const gap = Math.min(config.requestTimeoutMs, MAX_TIMER_MS);
    this.agent = new Agent({
      keepAliveTimeout: 10_000,
      keepAliveMaxTimeout: 60_000,
      headersTimeout: gap,
      bodyTimeout: gap,
      connections: 16,
    });
    this.exchange = compose((req) => this.sendOnce(req), guarded(), paced(pacer, config.retryDeadlineMs), sharedReads());
  }

  /**
   * Sends one request and reads the whole answer.
   *
   * @returns the status and parsed body of a 2xx answer.
   * @throws ApiError (its subclass by status) for a 4xx/5xx answer; RateLimitError carries
   * `Retry-After`. NetworkError when no whole answer came (refused, reset, timed out, cut
   * short). ResponseValidationError when a 2xx body is not JSON. The reason the client
   * stopped (a CancelledError) when it stopped before the request was sent.
   */
  async send(req: HttpRequest): Promise<HttpResponse> {
    return this.settle(req, await this.exchange(req));
  }

  /** Sends `req` now and reads its whole answer (the exchange below the shaping policies). Rejects only with the reason the client stopped, before sending. */
  private async sendOnce(req: HttpRequest): Promise<Outcome> {
    // Stopped (closed, or its signal aborted) before its turn came (the pacer's, composed above): never sent.
    if (this.stopped?.aborted === true) throw this.stopped.reason;
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.config.apiKey}`,
      "user-agent": this.config.userAgent,
      accept: "application/json",
    };
    let payload: string | undefined;
    if (req.body !== undefined) {
      payload = JSON.stringify(req.body);
      headers["content-type"] = "application/json";
    }
    const sentAt = Date.now();
    // One deadline for the whole exchange: undici's own timeouts bound only the gaps between bytes.
    // An exchange under way is not cut at its operation's end (deadline.ts): a create cut there would
    // become an unknown outcome; no retry, pause or wait starts past it, and the exchange ends within this.
    const limit = this.config.requestTimeoutMs;
    const controller = new AbortController();
    const deadline = setLongTimeout(
      () =>
        controller.abort(
          Object.assign(new Error(`no whole answer within ${limit} ms, the request's deadline`), { code: ANSWER_DEADLINE_CODE }),
        ),
      limit,
    );
    try {
      const res = await this.agent.request({
        origin: this.origin,
        path: this.basePath + req.path,
        method: req.method,
        headers,
        body: payload ?? null,
        signal: controller.signal,
      });
      const body = decodeBody(Buffer.from(await res.body.arrayBuffer()), first(res.headers["content-encoding"]));
      const receivedAt = Date.now();
      this.clock.observe(res.headers.date, sentAt, receivedAt);
      return { answered: true, status: res.statusCode, headers: res.headers, body, sentAt, receivedAt };
    } catch (cause) {
      return { answered: false, cause, sentAt, failedAt: Date.now() };
    } finally {
      deadline.cancel();
    }
  }

  private settle(req: HttpRequest, outcome: Outcome): HttpResponse {
    if (req.trace !== undefined) {
      req.trace.sentAt = outcome.sentAt;
      req.trace.endedAt = outcome.answered ? outcome.receivedAt : outcome.failedAt;
    }
    const url = this.origin + this.basePath + req.path;
    if (!outcome.answered) {
      if ("unsent" in outcome) throw outcome.unsent;
      throw new NetworkError({ ...this.named(req), url, cause: outcome.cause });
    }
    const retryAfterSeconds = retryAfterOf(outcome.status, outcome.headers, outcome.receivedAt);
    if (outcome.status >= 300 && outcome.status < 400) {
      throw new RedirectError({ ...this.named(req), url, status: outcome.status, location: first(outcome.headers.location) });
    }
    if (!("text" in outcome.body)) {
      const { encoding, why } = outcome.body;
      if (outcome.status >= 400) {
        throw this.toApiError(outcome.status, `a body encoded as ${encoding} (${why})`, req, retryAfterSeconds);
      }
      throw new ResponseValidationError({
        ...this.named(req),
        path: "(body)",
        expected: "a JSON body",
        received: `a body encoded as \`Content-Encoding: ${encoding}\``,
        why:
          `${why[0].toUpperCase()}${why.slice(1)}. The client asks for no encoding: something between this machine and the API ` +
          "(a gateway or proxy) encoded the answer. Check what stands between them.",
      });
    }
    const text = outcome.body.text;
    let body: unknown = undefined;
    let parsed = true;
    if (text.trim() !== "") {
      try {
        body = JSON.parse(text);
      } catch {
        parsed = false;
      }
    }
    if (outcome.status >= 400) {
      throw this.toApiError(outcome.status, parsed ? body : text, req, retryAfterSeconds);
    }
    const contentType = first(outcome.headers["content-type"]);
    const foreign = contentType !== undefined ? !isJsonType(contentType) && text.trim() !== "" : !parsed;
    if (foreign) {
      throw new NotTheApiError({ ...this.named(req), url, status: outcome.status, contentType, body: text });
    }
    if (!parsed) {
      throw new ResponseValidationError({
        ...this.named(req),
        path: "(body)",
        expected: "a JSON body",
        received: describeReceived(text),
        why: "The answer says it is JSON but is not: something between this machine and the API may have cut or changed it.",
      });
    }
    return { status: outcome.status, body, sentAt: outcome.sentAt, receivedAt: outcome.receivedAt };
  }

  private named(req: HttpRequest): { operation: string; step?: string } {
    return req.step === undefined ? { operation: req.operation } : { operation: req.operation, step: req.step };
  }

  private toApiError(status: number, body: unknown, req: HttpRequest, retryAfterSeconds: number | undefined): ApiError {
    return apiErrorFromResponse(status, body, contextOf(req), retryAfterSeconds);
  }

  /** Closes the pool, waiting for in-flight requests. Later sends fail with NetworkError. */
  async close(): Promise<void> {
    await this.agent.close();
  }
}
