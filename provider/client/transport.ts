/**
 * HTTP transport: one pooled undici Agent per client (keep-alive), JSON in and out,
 * `Authorization: Bearer`, `User-Agent`. Every request has one deadline
 * (`requestTimeoutMs`) from the moment it is sent to its last byte, whatever the server
 * does with its bytes. Turns error answers into `ApiError`s, redirects into
 * `RedirectError`s, a 2xx page that is not JSON into a `NotTheApiError`, and failures
 * without an answer into `NetworkError`s, each naming the operation of its own caller.
 * Reads `Retry-After` (429, 503) in both forms, an HTTP date against the answer's own
 * `Date`. Feeds every answer's `Date` header to the server clock. Sends nothing more with a
 * key the API refused, or to a project it refused the key for (refusedCredentials.ts). It
 * does not retry: that is `retry.ts`'s job.
 */
import { Agent } from "undici";
import type { ResolvedConfig } from "./config";
import { apiErrorFromResponse } from "./apiErrors";
import { decodeBody, type DecodedBody } from "./bodyEncoding";
import type { HttpMethod } from "../../contract";
import { ANSWER_DEADLINE_CODE } from "./clientErrors";
import { type ApiError, NetworkError, NotTheApiError, RedirectError, ResponseValidationError } from "./errors";
import { describeReceived } from "./redact";
import { parseRetryAfter } from "./httpDate";
import { type Refusal, RefusedCredentials } from "./refusedCredentials";
import type { Held, Pacer, Priority } from "./pacer";
import { PACER, refusalPauseMs } from "./keySchedule";
import { readLimitFields } from "./rateLimitFields";
import type { ServerClock } from "./serverClock";
import { MAX_TIMER_MS, setLongTimeout } from "./timers";

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

/** An answer's head, as far as the transport reads it. */
interface AnswerHead {
  status: number;
  /** Seconds of its `Retry-After` (429 and 503), either form; undefined when absent or unreadable. */
  retryAfterSeconds: number | undefined;
  contentType: string | undefined;
  location: string | undefined;
}

/** What one exchange gave, before it is turned into a caller's answer or error. */
type Outcome =
  | ({ answered: true; body: DecodedBody; sentAt: number; receivedAt: number } & AnswerHead)
  | { answered: false; cause: unknown; sentAt: number; failedAt: number }
  /** Not sent: a pause after a 429, or its turn in the schedule the machine's clients of the key share, comes later than the call may wait. */
  | { answered: false; held: Held; sentAt: number; failedAt: number }
  /** Not sent: the API refused the key (or, for this project, the key) before (refusedCredentials.ts). */
  | { answered: false; refused: Refusal; sentAt: number; failedAt: number };

/** The first value of a header. */
function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** A decoded body as an error answer reads it: its JSON, else its text (undefined when it could not be decoded). */
function parsedOrText(body: DecodedBody | undefined): unknown {
  if (body === undefined || !("text" in body)) return undefined;
  try {
    return JSON.parse(body.text) as unknown;
  } catch {
    return body.text;
  }
}

/** True for a `Content-Type` that says JSON (`application/json`, `application/problem+json`, ...). */
function isJsonType(contentType: string | undefined): boolean {
  return contentType !== undefined && /^application\/([\w.+-]+\+)?json\b/i.test(contentType.trim());
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
  /** What the API refused of the key (refusedCredentials.ts). */
  private readonly credentials = new RefusedCredentials();
  private writes = 0;

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
    private readonly pacer: Pacer,
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
    const refusedBefore = this.credentials.refusalFor(req.projectId);
    if (refusedBefore !== undefined) return { answered: false, refused: refusedBefore, sentAt: Date.now(), failedAt: Date.now() };
    const told = await this.credentials.admit(req);
    let status: number | undefined;
    let body: DecodedBody | undefined;
    try {
      const outcome = await this.paced(req);
      if (outcome.answered) [status, body] = [outcome.status, outcome.body];
      return outcome;
    } finally {
      told(status, status === 401 || status === 403 ? parsedOrText(body) : undefined);
    }
  }

  /** Sends `req` when the pacer gives it its turn, unless the key was refused meanwhile. */
  private async paced(req: HttpRequest): Promise<Outcome> {
    const refused = this.credentials.refusalFor(req.projectId);
    if (refused !== undefined) return { answered: false, refused, sentAt: Date.now(), failedAt: Date.now() };
    const priority = req.priority ?? (req.method === "GET" ? "read" : "write");
    // A poll is one attempt (the next poll retries it), yet it may wait out a pause as any call may.
    const mayWaitUntil = (from: number): number => (priority === "poll" ? from + this.config.retryDeadlineMs : (req.deadline ?? Infinity));
    const queuedAt = Date.now();
    if (!(await this.pacer.acquire(priority, mayWaitUntil(queuedAt), priority === "poll" ? queuedAt + PACER.pollStaleMs : Infinity))) {
      return { answered: false, held: this.pacer.held, sentAt: queuedAt, failedAt: Date.now() };
    }
    // Stopped (closed, or its signal aborted) before its turn came: never sent.
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
      const status = res.statusCode;
      const retryAfterSeconds =
        status === 429 || status === 503 ? parseRetryAfter(res.headers["retry-after"], receivedAt, res.headers.date) : undefined;
      // Every request waits out a 429's Retry-After only when the call that met it does: one that gives up holds no other.
      const pauseEnd = receivedAt + refusalPauseMs(retryAfterSeconds);
      this.pacer.settle(
        status,
        retryAfterSeconds,
        status === 429 && pauseEnd <= mayWaitUntil(sentAt),
        readLimitFields(res.headers),
        receivedAt - sentAt,
      );
      const head = { status, retryAfterSeconds, contentType: first(res.headers["content-type"]), location: first(res.headers.location) };
      return { answered: true, ...head, body, sentAt, receivedAt };
    } catch (cause) {
      this.pacer.settle(undefined);
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
      if ("held" in outcome) throw this.held(req, outcome.held);
      if ("refused" in outcome) throw this.refusedBefore(req, outcome.refused);
      throw new NetworkError({ ...this.named(req), url, cause: outcome.cause });
    }
    if (outcome.status >= 300 && outcome.status < 400) {
      throw new RedirectError({ ...this.named(req), url, status: outcome.status, location: outcome.location });
    }
    if (!("text" in outcome.body)) {
      const { encoding, why } = outcome.body;
      if (outcome.status >= 400) {
        throw this.toApiError(outcome.status, `a body encoded as ${encoding} (${why})`, req, outcome.retryAfterSeconds);
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
      throw this.toApiError(outcome.status, parsed ? body : text, req, outcome.retryAfterSeconds);
    }
    const foreign = outcome.contentType !== undefined ? !isJsonType(outcome.contentType) && text.trim() !== "" : !parsed;
    if (foreign) {
      throw new NotTheApiError({ ...this.named(req), url, status: outcome.status, contentType: outcome.contentType, body: text });
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

  /**
   * The error of a request not sent because a pause after a 429, or its turn in the schedule
   * the machine's clients of the key share, comes later than its call may wait: a 429 the client
   * answered itself, saying which and what the API's limit is as known.
   */
  private held(req: HttpRequest, held: Held): ApiError {
    const seconds = Math.max(0, Math.ceil((held.until - Date.now()) / 1000));
    const when = `${new Date(held.until).toISOString()}, ${seconds} s more, later than this call may wait`;
    const limit = held.limit === undefined ? "" : ` (about ${Math.round(held.limit * 10) / 10} requests a second)`;
    const turn = `its turn among the ${held.sharedWith} clients of the key on this machine comes at ${when}`;
    if (held.by === "queue") {
      const limits = held.limit === undefined ? "" : ` (the API limits this key${limit})`;
      const stale = `Not sent: this poll waited ${PACER.pollStaleMs} ms for its turn behind the client's other requests${limits}; its wait polls again`;
      return this.toApiError(429, { code: "RATE_LIMITED", message: stale }, req, undefined, held.by);
    }
    const apiMessage =
      held.by === "pause"
        ? `Not sent: the API asked this client to wait until ${when} (the Retry-After of an earlier 429)`
        : held.limit === undefined
          ? `Not sent: ${turn} (requests are spaced while the API's limit is not known)`
          : `Not sent: the API limits this key${limit}, and ${turn}`;
    return this.toApiError(429, { code: "RATE_LIMITED", message: apiMessage }, req, seconds, held.by);
  }

  /**
   * The error of a request not sent because the API refused the key (401), or the key for this
   * project (403), before: the refusal's status and words, saying which request met it, when,
   * and that nothing more is sent with the key (to the project).
   */
  private refusedBefore(req: HttpRequest, refusal: Refusal): ApiError {
    const api = apiErrorFromResponse(refusal.status, refusal.body, { operation: req.operation });
    const scope = refusal.status === 401 ? "with this key" : `to project ${req.projectId ?? ""} with this key`;
    const apiMessage =
      `${api.apiMessage.replace(/[.\s]+$/, "")} (not sent: the API refused ${refusal.request} at ${new Date(refusal.at).toISOString()}, ` +
      `and this client sends nothing more ${scope})`;
    const named = { ...this.named(req), request: refusal.request };
    const ctx = req.projectId === undefined ? named : { ...named, projectId: req.projectId };
    return apiErrorFromResponse(refusal.status, { code: api.code, message: apiMessage }, ctx);
  }

  private named(req: HttpRequest): { operation: string; step?: string } {
    return req.step === undefined ? { operation: req.operation } : { operation: req.operation, step: req.step };
  }

  private toApiError(
    status: number,
    body: unknown,
    req: HttpRequest,
    retryAfterSeconds: number | undefined,
    heldBy?: Held["by"],
  ): ApiError {
    const named = { ...this.named(req), request: `${req.method} ${req.path}` };
    const ctx = req.projectId === undefined ? named : { ...named, projectId: req.projectId };
    const sharing = heldBy === undefined ? this.pacer.sharing : { ...this.pacer.sharing, heldBy };
    return apiErrorFromResponse(status, body, status === 429 ? { ...ctx, sharing } : ctx, retryAfterSeconds);
  }

  /** Closes the pool, waiting for in-flight requests. Later sends fail with NetworkError. */
  async close(): Promise<void> {
    await this.agent.close();
  }
}
