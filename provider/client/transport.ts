/**
 * HTTP transport: one pooled undici Agent per client (keep-alive, header and body
 * timeouts), JSON in and out, `Authorization: Bearer`, `User-Agent`. Turns error answers
 * into `ApiError`s and failures without an answer into `NetworkError`s, each naming the
 * operation of its own caller. Feeds every answer's `Date` header to the server clock. It
 * does not retry: that is `retry.ts`'s job.
 */
import { Agent } from "undici";
import type { ResolvedConfig } from "./config";
import { apiErrorFromResponse } from "./apiErrors";
import { type ApiError, NetworkError, ResponseValidationError } from "./errors";
import { describeReceived } from "./redact";
import type { Pacer, Priority } from "./pacer";
import type { ServerClock } from "./serverClock";

/** HTTP methods the API uses. */
export type HttpMethod = "GET" | "POST" | "DELETE";

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
}

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

/** What one exchange gave, before it is turned into a caller's answer or error. */
type Outcome =
  | { answered: true; status: number; text: string; retryAfter: string | string[] | undefined; sentAt: number; receivedAt: number }
  | { answered: false; cause: unknown; sentAt: number; failedAt: number };

/**
 * Parses a `Retry-After` header (delta seconds or HTTP date) into seconds, or undefined
 * when absent or unreadable. Never throws.
 */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined || v.trim() === "") return undefined;
  const trimmed = v.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, (date - now) / 1000);
}

/**
 * Sends requests over one keep-alive connection pool, each when the client's pacer gives
 * it its turn (pacer.ts: write priority, the pause after a 429, the rate the API accepts).
 * Two identical GETs under way at once share one request, unless a write was sent after
 * the first began (its answer could then predate the write).
 */
export class HttpTransport {
  private readonly agent: Agent;
  private readonly origin: string;
  private readonly basePath: string;
  private readonly readsInFlight = new Map<string, Promise<Outcome>>();
  private writes = 0;

  /**
   * Creates the pool; opens no connection yet.
   * @param config - the resolved configuration (URL, key, timeouts).
   * @param clock - told the `Date` of every answer.
   * @param pacer - gives every request its turn, and is told how each ended.
   */
  constructor(
    private readonly config: ResolvedConfig,
    private readonly clock: ServerClock,
    private readonly pacer: Pacer,
  ) {
    const url = new URL(config.apiUrl);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, "");
    this.agent = new Agent({
      keepAliveTimeout: 10_000,
      keepAliveMaxTimeout: 60_000,
      headersTimeout: config.requestTimeoutMs,
      bodyTimeout: config.requestTimeoutMs,
      connections: 16,
    });
  }

  /**
   * Sends one request and reads the whole answer.
   *
   * @returns the status and parsed body of a 2xx answer.
   * @throws ApiError (its subclass by status) for a 4xx/5xx answer; RateLimitError carries
   * `Retry-After`. NetworkError when no whole answer came (refused, reset, timed out, cut
   * short). ResponseValidationError when a 2xx body is not JSON.
   */
  async send(req: HttpRequest): Promise<HttpResponse> {
    return this.settle(req, await this.exchange(req));
  }

  private exchange(req: HttpRequest): Promise<Outcome> {
    if (req.method !== "GET") {
      this.writes++;
      return this.sendOnce(req);
    }
    const key = `${this.writes} ${req.path}`;
    const shared = this.readsInFlight.get(key);
    if (shared) return shared;
    const sent = this.sendOnce(req).finally(() => this.readsInFlight.delete(key));
    this.readsInFlight.set(key, sent);
    return sent;
  }

  private async sendOnce(req: HttpRequest): Promise<Outcome> {
    await this.pacer.acquire(req.priority ?? (req.method === "GET" ? "read" : "write"));
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
    try {
      const res = await this.agent.request({
        origin: this.origin,
        path: this.basePath + req.path,
        method: req.method,
        headers,
        body: payload ?? null,
      });
      const text = await res.body.text();
      const receivedAt = Date.now();
      this.clock.observe(res.headers.date, sentAt, receivedAt);
      const retryAfter = res.headers["retry-after"];
      this.pacer.settle(res.statusCode, res.statusCode === 429 ? parseRetryAfter(retryAfter) : undefined);
      return { answered: true, status: res.statusCode, text, retryAfter, sentAt, receivedAt };
    } catch (cause) {
      this.pacer.settle(undefined);
      return { answered: false, cause, sentAt, failedAt: Date.now() };
    }
  }

  private settle(req: HttpRequest, outcome: Outcome): HttpResponse {
    if (req.trace !== undefined) {
      req.trace.sentAt = outcome.sentAt;
      req.trace.endedAt = outcome.answered ? outcome.receivedAt : outcome.failedAt;
    }
    if (!outcome.answered) {
      throw new NetworkError({ ...this.named(req), url: this.origin + this.basePath + req.path, cause: outcome.cause });
    }
    let body: unknown = undefined;
    let parsed = true;
    if (outcome.text.trim() !== "") {
      try {
        body = JSON.parse(outcome.text);
      } catch {
        parsed = false;
      }
    }
    if (outcome.status >= 400) {
      throw this.toApiError(outcome.status, parsed ? body : outcome.text, req, outcome.retryAfter);
    }
    if (!parsed) {
      throw new ResponseValidationError({
        ...this.named(req),
        path: "(body)",
        expected: "a JSON body",
        received: describeReceived(outcome.text),
      });
    }
    return { status: outcome.status, body, sentAt: outcome.sentAt, receivedAt: outcome.receivedAt };
  }

  private named(req: HttpRequest): { operation: string; step?: string } {
    return req.step === undefined ? { operation: req.operation } : { operation: req.operation, step: req.step };
  }

  private toApiError(status: number, body: unknown, req: HttpRequest, retryAfter: string | string[] | undefined): ApiError {
    const ctx = req.projectId === undefined ? this.named(req) : { ...this.named(req), projectId: req.projectId };
    const seconds = status === 429 ? parseRetryAfter(retryAfter) : undefined;
    return apiErrorFromResponse(status, body, ctx, seconds);
  }

  /** Closes the pool, waiting for in-flight requests. Later sends fail with NetworkError. */
  async close(): Promise<void> {
    await this.agent.close();
  }
}
