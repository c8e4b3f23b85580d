/**
 * Errors built from the API's error answers (4xx/5xx): {@link ApiError} and one subclass
 * per status the contract names, and {@link apiErrorFromResponse}, which picks the class.
 */
import { ClouddbError, hasKind } from "./errorBase";
import { redact } from "./redact";

/** What the API answered in a 4xx/5xx body, as given to {@link ApiError}. */
export interface ApiErrorInit {
  /** HTTP status of the answer. */
  status: number;
  /** The API's error code (`NOT_FOUND`, ...), or one derived from the status when absent. */
  code: string;
  /** The API's human message. */
  apiMessage: string;
  /** The API's actionable details, when given. */
  details?: string;
  /** Client method name, e.g. `createService`: the operation the caller ran. */
  operation: string;
  /** The request the client made for that operation, when it is not the operation's own (e.g. `listServices` while recovering a create). */
  step?: string;
  /** Extra advice appended to the message. */
  hint?: string;
  /** Seconds from a `Retry-After` header (429, 503), in either of its forms. */
  retryAfterSeconds?: number;
  /** The request that met the answer, `<METHOD> <path under the base URL>` (`GET /projects/p/services/s`): it names no secret. */
  request?: string;
  /** The project the request addressed, when it is project-scoped. */
  projectId?: string;
}

/** `(operation createService, 400 INVALID_REQUEST)` or `(operation createService, step listServices, 503 UNAVAILABLE)`. */
function where(init: ApiErrorInit): string {
  const step = init.step === undefined || init.step === init.operation ? "" : `, step ${init.step}`;
  return `(operation ${init.operation}${step}, ${init.status} ${init.code})`;
}

/**
 * An error answer (4xx/5xx) from the API. The subclass is chosen by HTTP status; `code`
 * is the API's own code. `message` reads
 * `<api message> (operation createService, 400 INVALID_REQUEST): <details>. <hint>`.
 */
export class ApiError extends ClouddbError {
  static override readonly kind: string = "ApiError";
  /** HTTP status of the answer. */
  readonly status: number;
  /** The API's `details`, scrubbed of secrets, when it sent one. */
  readonly details: string | undefined;
  /** The API's own `message` (scrubbed), without the operation and hint around it. */
  readonly apiMessage: string;
  /** The client method the caller ran, e.g. `createService`. */
  readonly operation: string;
  /** The request that failed, when it is not the operation's own (e.g. `listServices` during a create's recovery). */
  readonly step: string | undefined;
  /** Seconds the answer asked to wait (`Retry-After`: a 429's, a 503's), when it said. */
  readonly retryAfterSeconds: number | undefined;
  /** The request that met the answer, `<METHOD> <path under the base URL>` (`GET /projects/p/services/s`), when the client sent one. */
  readonly request: string | undefined;
  /** The project the request addressed, when it is project-scoped. */
  readonly projectId: string | undefined;

  /** Builds the error from an API answer; the message is composed and scrubbed here. */
  constructor(init: ApiErrorInit) {
    const details = init.details === undefined || init.details === "" ? undefined : init.details;
    const base = `${init.apiMessage.replace(/[.\s]+$/, "")} ${where(init)}`;
    const withDetails = details === undefined ? base : `${base}: ${details.replace(/[.\s]+$/, "")}`;
    super(init.hint === undefined ? `${withDetails}.` : `${withDetails}. ${init.hint}`, init.code);
    this.status = init.status;
    this.details = details === undefined ? undefined : redact(details);
    this.apiMessage = redact(init.apiMessage);
    this.operation = init.operation;
    this.step = init.step === init.operation ? undefined : init.step;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.request = init.request;
    this.projectId = init.projectId;
  }

  /**
   * True when `obj` is an error of the class this is called on, e.g. `NotFoundError.isInstance(e)`
   * (that class or a subclass, from any copy of the package).
   */
  static override isInstance<C extends ApiErrorClass>(this: C, obj: unknown): obj is InstanceType<C> {
    return hasKind(obj, this.kind);
  }
}

/** {@link ApiError} or one of its subclasses, as `isInstance` is called on it. */
export type ApiErrorClass = (abstract new (...args: never[]) => ApiError) & { readonly kind: string };

/** The base of an {@link ApiError} subclass that adds nothing but its `kind` (its class name, for `isInstance`). */
function ofKind(kind: string) {
  return class extends ApiError {
    static override readonly kind: string = kind;
  };
}

/** 400 `INVALID_REQUEST` (also 422): the request was malformed or a value is not allowed. Not retried. */
export class InvalidRequestError extends ofKind("InvalidRequestError") {}

/** 401 `UNAUTHORIZED`: the API key is missing, malformed or unknown. Not retried. */
export class AuthenticationError extends ofKind("AuthenticationError") {}

/** 403 `FORBIDDEN`: the credential may not reach this project. Not retried. */
export class PermissionError extends ofKind("PermissionError") {}

/** 404 `NOT_FOUND`: the project member, VPC, peering, service or replica set does not exist (or is deleted). */
export class NotFoundError extends ofKind("NotFoundError") {}

/** The resource whose state refused an action, as the client found it after a 409. */
export interface ConflictBlocker {
  /** `service` or `replica set`. */
  kind: "service" | "replica set";
  /** Its id (for a replica set, `<service id>/<replica set id>`). */
  id: string;
  /** Its status when the client looked, as the API spells it; `NOT_FOUND` when it was gone. */
  status: string;
}

/** What a {@link ConflictError} is built from: the answer, plus what the client learned about its cause. */
export interface ConflictErrorInit extends ApiErrorInit {
  /** The resource whose state refused the action, when the client looked it up. */
  blockedBy?: ConflictBlocker;
  /** See {@link ConflictError.curableByWaiting}. */
  curableByWaiting?: boolean;
}

/**
 * 409 `CONFLICT`: the resource's state does not allow the action; nothing was changed. Not
 * retried. For actions on a service or a replica set the client reads the blocking
 * resource once after the 409 (see conflicts.ts) and fills in `blockedBy` and
 * `curableByWaiting`.
 */
export class ConflictError extends ApiError {
  static override readonly kind: string = "ConflictError";
  /** The resource whose state refused the action, when the client looked it up. */
  readonly blockedBy: ConflictBlocker | undefined;
  /**
   * `false` when waiting cannot cure the conflict: the blocker is failed, dormant, being
   * deleted or gone (`UNSTABLE`, `PAUSED`, `DELETING`, replica set `error`): fail at once,
   * or act (start the service) first. `true` when its status passes by itself (waiting and
   * trying again can work). `undefined` when the client could not tell (no blocker read, or
   * the blocker is ready, so its status does not explain the refusal).
   */
  readonly curableByWaiting: boolean | undefined;

  /** Builds the error; see {@link ConflictErrorInit}. */
  constructor(init: ConflictErrorInit) {
    super(init);
    this.blockedBy = init.blockedBy;
    this.curableByWaiting = init.curableByWaiting;
  }
}

/** How the key's limit was shared when a {@link RateLimitError} was raised. */
export interface LimitSharing {
  /** Clients of the API key on this machine that took turns in the last seconds, this one included (1: it paced alone). */
  sharedWith: number;
  /** The key's limit as the client knew it (measured or announced), requests a second. */
  limitPerSecond?: number;
  /**
   * Set when the client answered the request itself, unsent: what held it, the pause an
   * earlier 429's `Retry-After` asked for, its turn in the key's schedule, or (a poll) the
   * client's other requests ahead of it until its answer would have been stale.
   */
  heldBy?: "pause" | "schedule" | "queue";
}

/** What a {@link RateLimitError} is built from. */
export interface RateLimitErrorInit extends ApiErrorInit {
  /** See {@link LimitSharing}. */
  sharing?: LimitSharing;
}

/**
 * 429 `RATE_LIMITED`: the API's, or the client's own when a request could not be sent within
 * its deadline (a pause after a 429, or its turn in the schedule the machine's clients of the
 * key share, comes later). Retried after at least `Retry-After`, as long as the call's
 * deadline allows (the operation's `timeouts` through the providers); raised once it would be
 * passed, saying how the limit was shared.
 */
export class RateLimitError extends ApiError {
  static override readonly kind: string = "RateLimitError";
  /** Clients of the key on this machine that shared its limit then, this one included; undefined when unknown. */
  readonly sharedWith: number | undefined;
  /** The key's limit as the client knew it then, requests a second; undefined when unknown. */
  readonly limitPerSecond: number | undefined;
  /** Set when the request was not sent: held by an earlier 429's pause, by its turn in the key's schedule, or (a poll) behind the client's other requests. */
  readonly heldBy: "pause" | "schedule" | "queue" | undefined;

  /** Builds the error; see {@link RateLimitErrorInit}. */
  constructor(init: RateLimitErrorInit) {
    super(init);
    this.sharedWith = init.sharing?.sharedWith;
    this.limitPerSecond = init.sharing?.limitPerSecond;
    this.heldBy = init.sharing?.heldBy;
  }
}

/**
 * 5xx (`INTERNAL`, `UNAVAILABLE`, a gateway's 502/504). Each that may follow a request the
 * API carried out (every 5xx but 501, 505 and 511, see `retry.ts`) is retried with backoff
 * for reads, idempotent actions and deletes, and is an ambiguous outcome for creates (see
 * `createRecovery.ts`); a 503's `Retry-After` is honoured.
 */
export class ServerError extends ApiError {
  static override readonly kind: string = "ServerError";
}

const DEFAULT_CODES: Record<number, string> = {
  400: "INVALID_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  422: "INVALID_REQUEST",
  429: "RATE_LIMITED",
  500: "INTERNAL",
  502: "UNAVAILABLE",
  503: "UNAVAILABLE",
  504: "UNAVAILABLE",
};

/**
 * A page that is not the API's error body (a gateway's HTML), for a message: its text
 * scrubbed of secrets before it is cut to 200 characters, so a cut never leaves part of a
 * secret behind.
 */
function shortened(page: string): string {
  const text = redact(page.trim());
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** Facts about the failed call that make a hint actionable. */
export interface ErrorContext {
  /** Client method name the caller ran. */
  operation: string;
  /** The request made for it, when not the operation's own. */
  step?: string;
  /** Project the call addressed, when project-scoped. */
  projectId?: string;
  /** The request that met the answer, `<METHOD> <path under the base URL>`. */
  request?: string;
  /** For a 429: how the key's limit was shared on this machine. */
  sharing?: LimitSharing;
}

/**
 * Builds the {@link ApiError} subclass for an error answer. `body` is the parsed JSON body
 * (or undefined / raw text when it was not JSON). Never throws.
 */
export function apiErrorFromResponse(status: number, body: unknown, ctx: ErrorContext, retryAfterSeconds?: number): ApiError {
  const obj = body !== null && typeof body === "object" ? (body as Record<string, unknown>) : {};
  const code =
    typeof obj.code === "string" && obj.code !== "" ? obj.code : (DEFAULT_CODES[status] ?? (status >= 500 ? "INTERNAL" : `HTTP_${status}`));
  const apiMessage =
    typeof obj.message === "string" && obj.message !== ""
      ? obj.message
      : typeof body === "string" && body.trim() !== ""
        ? `HTTP ${status}: ${shortened(body)}`
        : `HTTP ${status}`;
  const details = typeof obj.details === "string" ? obj.details : undefined;
  const init: ApiErrorInit = { status, code, apiMessage, operation: ctx.operation };
  if (ctx.step !== undefined) init.step = ctx.step;
  if (details !== undefined) init.details = details;
  if (retryAfterSeconds !== undefined) init.retryAfterSeconds = retryAfterSeconds;
  if (ctx.request !== undefined) init.request = ctx.request;
  if (ctx.projectId !== undefined) init.projectId = ctx.projectId;
  const project = ctx.projectId === undefined ? "" : ` ${ctx.projectId}`;
  const refused = ctx.request === undefined ? "" : ` (it refused ${ctx.request})`;
  const asked =
    retryAfterSeconds === undefined
      ? ""
      : ctx.sharing?.heldBy === "schedule"
        ? ` Its turn came ${retryAfterSeconds} s later.`
        : ` The API asked to wait ${retryAfterSeconds} s (Retry-After).`;
  switch (status) {
    case 400:
    case 422:
      return new InvalidRequestError({ ...init, hint: "Check the request fields named above." });
    case 401:
      return new AuthenticationError({ ...init, hint: "Check the API key (`apiKey` or CLOUDDB_API_KEY)." });
    case 403:
      return new PermissionError({
        ...init,
        hint: `Check that this API key may reach project${project}${refused} (\`projectId\` or CLOUDDB_PROJECT_ID).`,
      });
    case 404:
      return new NotFoundError({ ...init, hint: `Check the identifiers and project${project}; the resource may have been deleted.` });
    case 409:
      return new ConflictError({
        ...init,
        hint: "Wait until the resource is in a state that allows this action (usually READY / active), then try again.",
      });
    case 429: {
      const sharing = ctx.sharing;
      const limit =
        sharing?.limitPerSecond === undefined ? "" : ` (about ${Math.round(sharing.limitPerSecond * 10) / 10} requests a second)`;
      const shared =
        sharing === undefined || sharing.sharedWith <= 1
          ? ""
          : ` ${sharing.sharedWith} clients of this API key on this machine share its limit${limit}: run fewer at once, or`;
      return new RateLimitError({
        ...init,
        ...(sharing === undefined ? {} : { sharing }),
        hint: `The API limits the requests of this key.${shared ? `${shared} give` : " Give"} the call longer to wait (\`retryDeadlineMs\`).${asked}`,
      });
    }
    default:
      if (status >= 500) {
        return new ServerError({
          ...init,
          hint: `The API (or a gateway before it) had trouble; try again later or raise \`retryDeadlineMs\`.${asked}`,
        });
      }
      return new ApiError({ ...init, hint: "Unexpected status from the API." });
  }
}
