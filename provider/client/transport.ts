/**
 * HTTP transport: one pooled undici Agent per client (keep-alive, header and body
 * timeouts), JSON in and out, `Authorization: Bearer`, `User-Agent`. Turns error answers
 * into {@link ApiError}s and failures without an answer into {@link NetworkError}s. It
 * does not retry: that is `retry.ts`'s job.
 */
import { Agent } from "undici";
import type { ResolvedConfig } from "./config";
import { ApiError, NetworkError, ResponseValidationError, apiErrorFromResponse } from "./errors";
import { describeReceived } from "./redact";

/** HTTP methods the API uses. */
export type HttpMethod = "GET" | "POST" | "DELETE";

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
}

/** A 2xx answer. */
export interface HttpResponse {
  /** HTTP status. */
  status: number;
  /** Parsed JSON body, or undefined when the body was empty. */
  body: unknown;
}

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
 * Sends requests over one keep-alive connection pool. Two identical GETs under way at once
 * share one request, unless a write was sent after the first began (its answer could then
 * predate the write); and a 429 pauses every later request of this transport until its
 * `Retry-After` has passed (the API limits the client, not one path).
 */
export class HttpTransport {
  private readonly agent: Agent;
  private readonly origin: string;
  private readonly basePath: string;
  private readonly readsInFlight = new Map<string, Promise<HttpResponse>>();
  private writes = 0;
  private pausedUntil = 0;

  /** Creates the pool; opens no connection yet. */
  constructor(private readonly config: ResolvedConfig) {
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
   * `Retry-After`. NetworkError when no answer came (refused, reset, timed out).
   * ResponseValidationError when a 2xx body is not JSON.
   */
  async send(req: HttpRequest): Promise<HttpResponse> {
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

  private async sendOnce(req: HttpRequest): Promise<HttpResponse> {
    const wait = this.pausedUntil - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
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
    const fullPath = this.basePath + req.path;
    let status: number;
    let text: string;
    let retryAfterHeader: string | string[] | undefined;
    try {
      const res = await this.agent.request({
        origin: this.origin,
        path: fullPath,
        method: req.method,
        headers,
        body: payload ?? null,
      });
      status = res.statusCode;
      retryAfterHeader = res.headers["retry-after"];
      text = await res.body.text();
    } catch (err) {
      throw new NetworkError({ ...this.named(req), url: this.origin + fullPath, cause: err });
    }
    let body: unknown = undefined;
    let parsed = true;
    if (text.trim() !== "") {
      try {
        body = JSON.parse(text);
      } catch {
        parsed = false;
      }
    }
    if (status >= 400) {
      throw this.toApiError(status, parsed ? body : text, req, retryAfterHeader);
    }
    if (!parsed) {
      throw new ResponseValidationError({
        ...this.named(req),
        path: "(body)",
        expected: "a JSON body",
        received: describeReceived(text),
      });
    }
    return { status, body };
  }

  private named(req: HttpRequest): { operation: string; step?: string } {
    return req.step === undefined ? { operation: req.operation } : { operation: req.operation, step: req.step };
  }

  private toApiError(status: number, body: unknown, req: HttpRequest, retryAfter: string | string[] | undefined): ApiError {
    const ctx = req.projectId === undefined ? this.named(req) : { ...this.named(req), projectId: req.projectId };
    const seconds = status === 429 ? parseRetryAfter(retryAfter) : undefined;
    if (seconds !== undefined) this.pausedUntil = Math.max(this.pausedUntil, Date.now() + seconds * 1000);
    return apiErrorFromResponse(status, body, ctx, seconds);
  }

  /** Closes the pool, waiting for in-flight requests. Later sends fail with NetworkError. */
  async close(): Promise<void> {
    await this.agent.close();
  }
}
