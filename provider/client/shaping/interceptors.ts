/**
 * Traffic shaping as policies composed onto the transport's exchange (exchange.ts: as undici's
 * interceptors compose onto a dispatcher), each deciding whether and when a request is sent and
 * learning from how it ended:
 *
 * - {@link sharedReads}: two identical GETs under way at once share one request (unless a write
 *   was sent after the first began: its answer could then predate the write);
 * - {@link paced}: every request waits for its turn at the client's pacer (pacer.ts), which is
 *   told how each ended (its status, `Retry-After`, rate-limit fields, round trip);
 * - {@link guarded}: nothing more is sent with a key the API refused, or to a project it refused
 *   the key for (refusedCredentials.ts).
 *
 * A request a policy does not send is answered by it, unsent, with the error that says why.
 */
import { apiErrorFromResponse, type ApiError } from "../apiErrors";
import { type AnswerHeaders, contextOf, type Exchange, type HttpRequest, type Interceptor, type Outcome } from "../exchange";
import type { DecodedBody } from "../bodyEncoding";
import { readLimitFields } from "./limitFields";
import type { Held, Pacer } from "./pacer";
import { type Refusal, RefusedCredentials } from "./refusedCredentials";
import { parseRetryAfter } from "./retryAfter";
import { PACER, refusalPauseMs } from "./schedule";

/** An outcome a policy gives in the request's place: `error`, unsent. */
function unsent(error: ApiError, since: number): Outcome {
  return { answered: false, unsent: error, sentAt: since, failedAt: Date.now() };
}

/** A `Retry-After` of a 429 or a 503 answer, in seconds (either form: retryAfter.ts). */
export function retryAfterOf(status: number, headers: AnswerHeaders, receivedAt: number): number | undefined {
  return status === 429 || status === 503 ? parseRetryAfter(headers["retry-after"], receivedAt, headers.date) : undefined;
}

/** Identical GETs under way at once share one request, unless a write was sent since the first began. */
export function sharedReads(): Interceptor {
  return (next) => {
    const inFlight = new Map<string, Promise<Outcome>>();
    let writes = 0;
    return (req) => {
      if (req.method !== "GET") {
        writes++;
        return next(req);
      }
      const key = `${writes} ${req.path}`;
      const shared = inFlight.get(key);
      if (shared) return shared;
      const sent = next(req).finally(() => inFlight.delete(key));
      inFlight.set(key, sent);
      return sent;
    };
  };
}

/**
 * Every request waits for its turn at `pacer` (writes first, then reads, then polls; a pause
 * after a 429; the rate the API accepts), and the pacer is told how it ended. A request whose
 * turn comes later than its call may wait is answered unsent (a 429 of the client's own).
 * `retryDeadlineMs`: how long a poll may wait (a poll is one attempt; the next poll retries it).
 */
export function paced(pacer: Pacer, retryDeadlineMs: number): Interceptor {
  return (next: Exchange): Exchange =>
    async (req) => {
      const priority = req.priority ?? (req.method === "GET" ? "read" : "write");
      const mayWaitUntil = (from: number): number => (priority === "poll" ? from + retryDeadlineMs : (req.deadline ?? Infinity));
      const queuedAt = Date.now();
      if (!(await pacer.acquire(priority, mayWaitUntil(queuedAt), priority === "poll" ? queuedAt + PACER.pollStaleMs : Infinity))) {
        return unsent(heldError(req, pacer), queuedAt);
      }
      const outcome = await next(req);
      if (!outcome.answered) {
        if ("cause" in outcome) pacer.settle(undefined);
        return outcome;
      }
      const { status, headers, sentAt, receivedAt } = outcome;
      const retryAfter = retryAfterOf(status, headers, receivedAt);
      // Every request waits out a 429's Retry-After only when the call that met it does: one that gives up holds no other.
      const pause = status === 429 && receivedAt + refusalPauseMs(retryAfter) <= mayWaitUntil(sentAt);
      pacer.settle(status, retryAfter, pause, readLimitFields(headers), receivedAt - sentAt);
      return outcome;
    };
}

/**
 * The error of a request not sent because a pause after a 429, or its turn in the schedule the
 * machine's clients of the key share, comes later than its call may wait: a 429 the client
 * answered itself, saying which and what the API's limit is as known.
 */
function heldError(req: HttpRequest, pacer: Pacer): ApiError {
  const held: Held = pacer.held;
  const sharing = { ...pacer.sharing, heldBy: held.by };
  const seconds = Math.max(0, Math.ceil((held.until - Date.now()) / 1000));
  const when = `${new Date(held.until).toISOString()}, ${seconds} s more, later than this call may wait`;
  const limit = held.limit === undefined ? "" : ` (about ${Math.round(held.limit * 10) / 10} requests a second)`;
  const turn = `its turn among the ${held.sharedWith} clients of the key on this machine comes at ${when}`;
  const ctx = { ...contextOf(req), sharing };
  if (held.by === "queue") {
    const limits = held.limit === undefined ? "" : ` (the API limits this key${limit})`;
    const stale = `Not sent: this poll waited ${PACER.pollStaleMs} ms for its turn behind the client's other requests${limits}; its wait polls again`;
    return apiErrorFromResponse(429, { code: "RATE_LIMITED", message: stale }, ctx);
  }
  const message =
    held.by === "pause"
      ? `Not sent: the API asked this client to wait until ${when} (the Retry-After of an earlier 429)`
      : held.limit === undefined
        ? `Not sent: ${turn} (requests are spaced while the API's limit is not known)`
        : `Not sent: the API limits this key${limit}, and ${turn}`;
  return apiErrorFromResponse(429, { code: "RATE_LIMITED", message }, ctx, seconds);
}

/** A decoded body as an error answer reads it: its JSON, else its text (undefined when it could not be decoded). */
function parsedOrText(body: DecodedBody): unknown {
  if (!("text" in body)) return undefined;
  try {
    return JSON.parse(body.text) as unknown;
  } catch {
    return body.text;
  }
}

/**
 * Nothing more is sent with a key the API refused (401), or to a project it refused the key for
 * (403): such a request is answered unsent, with the refusal's status and words; and until an
 * answer shows the key reaches a project, the writes to it go one at a time (refusedCredentials.ts).
 */
export function guarded(credentials = new RefusedCredentials()): Interceptor {
  return (next) => async (req) => {
    const before = credentials.refusalFor(req.projectId);
    if (before !== undefined) return unsent(refusedError(req, before), Date.now());
    const told = await credentials.admit(req);
    let status: number | undefined;
    let body: unknown;
    try {
      const now = credentials.refusalFor(req.projectId);
      if (now !== undefined) return unsent(refusedError(req, now), Date.now());
      const outcome = await next(req);
      if (outcome.answered) status = outcome.status;
      if (outcome.answered && (status === 401 || status === 403)) body = parsedOrText(outcome.body);
      return outcome;
    } finally {
      told(status, body);
    }
  };
}

/**
 * The error of a request not sent because the API refused the key (401), or the key for this
 * project (403), before: the refusal's status and words, saying which request met it, when,
 * and that nothing more is sent with the key (to the project).
 */
function refusedError(req: HttpRequest, refusal: Refusal): ApiError {
  const api = apiErrorFromResponse(refusal.status, refusal.body, { operation: req.operation });
  const scope = refusal.status === 401 ? "with this key" : `to project ${req.projectId ?? ""} with this key`;
  const message =
    `${api.apiMessage.replace(/[.\s]+$/, "")} (not sent: the API refused ${refusal.request} at ${new Date(refusal.at).toISOString()}, ` +
    `and this client sends nothing more ${scope})`;
  return apiErrorFromResponse(refusal.status, { code: api.code, message }, { ...contextOf(req), request: refusal.request });
}
