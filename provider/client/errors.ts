/**
 * The client's error hierarchy.
 *
 * Every error carries a stable string `code` to match on (never match on messages) and a
 * brand stored under `Symbol.for("pulumi-clouddb.ClouddbError")`, so the static
 * `isInstance` checks work even when two copies of this package are loaded in one
 * process (as inside Pulumi's dynamic-provider host). Messages are scrubbed of the API
 * key and known passwords by {@link redact} in the base constructor.
 */
import { redact } from "./redact";

const BRAND = Symbol.for("pulumi-clouddb.ClouddbError");

/** A value that carries the brand: the list of class kinds it was constructed as. */
type Branded = { [BRAND]?: readonly string[] };

function hasKind(obj: unknown, kind: string): boolean {
  if (obj === null || (typeof obj !== "object" && typeof obj !== "function")) return false;
  const kinds = (obj as Branded)[BRAND];
  return Array.isArray(kinds) && kinds.includes(kind);
}

/** Stable codes of the errors that do not come from an API answer. */
export const ClientErrorCode = {
  /** A response body did not match the expected schema. */
  ResponseValidation: "CLOUDDB_RESPONSE_VALIDATION",
  /** A waiter ran out of time. */
  Timeout: "CLOUDDB_TIMEOUT",
  /** A waited-for resource reached a failure state or disappeared. */
  ResourceFailed: "CLOUDDB_RESOURCE_FAILED",
  /** The client is missing or has an invalid setting. */
  Configuration: "CLOUDDB_CONFIGURATION",
  /** The request did not get an HTTP answer (connection refused or reset, timed out). */
  Network: "CLOUDDB_NETWORK",
} as const;

/**
 * Base of every error this client raises. Never thrown directly.
 */
export class ClouddbError extends Error {
  /** The class kind used by `isInstance`; each subclass sets its own. */
  static readonly kind: string = "ClouddbError";
  /** Stable string code: the API's code for {@link ApiError}s, a `CLOUDDB_*` code otherwise. */
  readonly code: string;

  /**
   * @param message - scrubbed of secrets before it is stored.
   * @param code - the stable code.
   * @param options - `cause`, kept as the standard `Error.cause`.
   */
  constructor(message: string, code: string, options?: { cause?: unknown }) {
    super(redact(message), options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    const kinds: string[] = [];
    for (let c: unknown = new.target; typeof c === "function" && c !== Error; c = Object.getPrototypeOf(c)) {
      if (Object.prototype.hasOwnProperty.call(c, "kind")) kinds.push((c as unknown as { kind: string }).kind);
    }
    Object.defineProperty(this, BRAND, { value: kinds, enumerable: false });
    this.name = new.target.name;
  }

  /** True when `obj` is an error of this package (from any copy of it). Never throws. */
  static isInstance(obj: unknown): obj is ClouddbError {
    return hasKind(obj, ClouddbError.kind);
  }
}

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
  /** Client method name, e.g. `createService`. */
  operation: string;
  /** Extra advice appended to the message. */
  hint?: string;
  /** Seconds from a `Retry-After` header (429). */
  retryAfterSeconds?: number;
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
  /** The client method that failed, e.g. `createService`. */
  readonly operation: string;

  /** Builds the error from an API answer; the message is composed and scrubbed here. */
  constructor(init: ApiErrorInit) {
    const details = init.details === undefined || init.details === "" ? undefined : init.details;
    const base = `${init.apiMessage.replace(/[.\s]+$/, "")} (operation ${init.operation}, ${init.status} ${init.code})`;
    const withDetails = details === undefined ? base : `${base}: ${details.replace(/[.\s]+$/, "")}`;
    super(init.hint === undefined ? `${withDetails}.` : `${withDetails}. ${init.hint}`, init.code);
    this.status = init.status;
    this.details = details === undefined ? undefined : redact(details);
    this.apiMessage = redact(init.apiMessage);
    this.operation = init.operation;
  }

  /** True when `obj` is an {@link ApiError} (any subclass, any copy of the package). */
  static override isInstance(obj: unknown): obj is ApiError {
    return hasKind(obj, ApiError.kind);
  }
}

/** 400 `INVALID_REQUEST` (also 422): the request was malformed or a value is not allowed. Not retried. */
export class InvalidRequestError extends ApiError {
  static override readonly kind: string = "InvalidRequestError";
  /** True when `obj` is an {@link InvalidRequestError}. */
  static override isInstance(obj: unknown): obj is InvalidRequestError {
    return hasKind(obj, InvalidRequestError.kind);
  }
}

/** 401 `UNAUTHORIZED`: the API key is missing, malformed or unknown. Not retried. */
export class AuthenticationError extends ApiError {
  static override readonly kind: string = "AuthenticationError";
  /** True when `obj` is an {@link AuthenticationError}. */
  static override isInstance(obj: unknown): obj is AuthenticationError {
    return hasKind(obj, AuthenticationError.kind);
  }
}

/** 403 `FORBIDDEN`: the credential may not reach this project. Not retried. */
export class PermissionError extends ApiError {
  static override readonly kind: string = "PermissionError";
  /** True when `obj` is a {@link PermissionError}. */
  static override isInstance(obj: unknown): obj is PermissionError {
    return hasKind(obj, PermissionError.kind);
  }
}

/** 404 `NOT_FOUND`: the project member, VPC, peering, service or replica set does not exist (or is deleted). */
export class NotFoundError extends ApiError {
  static override readonly kind: string = "NotFoundError";
  /** True when `obj` is a {@link NotFoundError}. */
  static override isInstance(obj: unknown): obj is NotFoundError {
    return hasKind(obj, NotFoundError.kind);
  }
}

/** 409 `CONFLICT`: the resource's state does not allow the action; nothing was changed. Not retried. */
export class ConflictError extends ApiError {
  static override readonly kind: string = "ConflictError";
  /** True when `obj` is a {@link ConflictError}. */
  static override isInstance(obj: unknown): obj is ConflictError {
    return hasKind(obj, ConflictError.kind);
  }
}

/**
 * 429 `RATE_LIMITED`. Retried after at least `Retry-After`; raised only once the retry
 * deadline would be passed.
 */
export class RateLimitError extends ApiError {
  static override readonly kind: string = "RateLimitError";
  /** Seconds the server asked to wait (`Retry-After`), when it said. */
  readonly retryAfterSeconds: number | undefined;
  /** Builds the error; see {@link ApiError}. */
  constructor(init: ApiErrorInit) {
    super(init);
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
  /** True when `obj` is a {@link RateLimitError}. */
  static override isInstance(obj: unknown): obj is RateLimitError {
    return hasKind(obj, RateLimitError.kind);
  }
}

/**
 * 5xx (`INTERNAL`, `UNAVAILABLE`). 500/502/503 are retried with backoff for reads and
 * idempotent actions; raised once the retry deadline is reached.
 */
export class ServerError extends ApiError {
  static override readonly kind: string = "ServerError";
  /** True when `obj` is a {@link ServerError}. */
  static override isInstance(obj: unknown): obj is ServerError {
    return hasKind(obj, ServerError.kind);
  }
}

/** Where and how a response body failed validation, as given to {@link ResponseValidationError}. */
export interface ResponseValidationInit {
  /** Client method name. */
  operation: string;
  /** Field path such as `read_replica_sets[0].status`, or `(body)` for the whole body. */
  path: string;
  /** What was expected there. */
  expected: string;
  /** What came back at that path, already rendered safe (truncated, secrets masked). */
  received: string;
}

/**
 * A 2xx answer whose body is not what SPEC.md section 2 describes (wrong type, unknown
 * enum value, missing identifier, not JSON). The request may have taken effect.
 */
export class ResponseValidationError extends ClouddbError {
  static override readonly kind: string = "ResponseValidationError";
  /** Client method name. */
  readonly operation: string;
  /** Field path of the first mismatch. */
  readonly path: string;
  /** What came back at that path (truncated, secrets masked). */
  readonly received: string;

  /** Builds the error; the message names operation, field path, expectation and value. */
  constructor(init: ResponseValidationInit) {
    super(
      `Unexpected response body from the API (operation ${init.operation}): field \`${init.path}\`: ` +
        `expected ${init.expected}, received ${init.received}. The API may be newer or older than this client.`,
      ClientErrorCode.ResponseValidation,
    );
    this.operation = init.operation;
    this.path = init.path;
    this.received = redact(init.received);
  }
  /** True when `obj` is a {@link ResponseValidationError}. */
  static override isInstance(obj: unknown): obj is ResponseValidationError {
    return hasKind(obj, ResponseValidationError.kind);
  }
}

/** The resource a waiter watches, for messages and error fields. */
export interface WatchedResource {
  /** `service`, `replica set`, `peering`. */
  kind: string;
  /** Its identifier (for nested resources, e.g. `abc/def`). */
  id: string;
  /** Project it lives in. */
  projectId: string;
}

/**
 * A waiter ran out of time before the resource reached one of the awaited states. The
 * resource is left as it is (it may still get there).
 */
export class TimeoutError extends ClouddbError {
  static override readonly kind: string = "TimeoutError";
  /** The watched resource. */
  readonly resource: WatchedResource;
  /** The states that were awaited (`["READY"]`, `["deleted"]`, ...). */
  readonly awaited: readonly string[];
  /** The last status seen, or undefined when no poll succeeded. */
  readonly lastStatus: string | undefined;
  /** The last resource body seen, when any. */
  readonly lastSeen: unknown;
  /** The waiter's timeout in milliseconds. */
  readonly timeoutMs: number;

  /** Builds the error; `lastError` (a transient failure of the last polls) is mentioned and kept as `cause`. */
  constructor(init: {
    resource: WatchedResource;
    awaited: readonly string[];
    lastStatus: string | undefined;
    lastSeen: unknown;
    timeoutMs: number;
    lastError?: unknown;
  }) {
    const last = init.lastStatus === undefined ? "none (no successful poll)" : init.lastStatus;
    const errText =
      init.lastError instanceof Error ? ` Last polling error: ${init.lastError.message}` : "";
    super(
      `Timed out after ${init.timeoutMs} ms waiting for ${init.resource.kind} ${init.resource.id} ` +
        `(project ${init.resource.projectId}) to reach ${init.awaited.join(" or ")}; last status seen: ${last}.` +
        `${errText} Raise the timeout, or check the resource in the console.`,
      ClientErrorCode.Timeout,
      { cause: init.lastError },
    );
    this.resource = init.resource;
    this.awaited = init.awaited;
    this.lastStatus = init.lastStatus;
    this.lastSeen = init.lastSeen;
    this.timeoutMs = init.timeoutMs;
  }
  /** True when `obj` is a {@link TimeoutError}. */
  static override isInstance(obj: unknown): obj is TimeoutError {
    return hasKind(obj, TimeoutError.kind);
  }
}

/**
 * A waited-for resource reached a state it cannot leave toward the awaited one (service
 * `UNSTABLE`, replica set `error`, peering `failed`), or disappeared (404) while it had to
 * exist. `state` is that status, or `NOT_FOUND`.
 */
export class ResourceFailedError extends ClouddbError {
  static override readonly kind: string = "ResourceFailedError";
  /** The watched resource. */
  readonly resource: WatchedResource;
  /** The failure status (`UNSTABLE`, `error`, `failed`) or `NOT_FOUND`. */
  readonly state: string;
  /** The last resource body seen (for `NOT_FOUND`: the one before it vanished), when any. */
  readonly lastSeen: unknown;
  /** The awaited states. */
  readonly awaited: readonly string[];

  /** Builds the error; `reason` (e.g. a peering's `error_message`) is quoted in the message. */
  constructor(init: {
    resource: WatchedResource;
    state: string;
    awaited: readonly string[];
    lastSeen: unknown;
    reason?: string;
    cause?: unknown;
  }) {
    const what =
      init.state === "NOT_FOUND"
        ? "no longer exists (404)"
        : `reached status ${init.state}`;
    const reason = init.reason === undefined || init.reason === "" ? "" : `: "${init.reason}"`;
    super(
      `${capitalize(init.resource.kind)} ${init.resource.id} (project ${init.resource.projectId}) ${what}${reason} ` +
        `while waiting for ${init.awaited.join(" or ")}. It will not get there on its own: inspect it, delete or recreate it.`,
      ClientErrorCode.ResourceFailed,
      { cause: init.cause },
    );
    this.resource = init.resource;
    this.state = init.state;
    this.lastSeen = init.lastSeen;
    this.awaited = init.awaited;
  }
  /** True when `obj` is a {@link ResourceFailedError}. */
  static override isInstance(obj: unknown): obj is ResourceFailedError {
    return hasKind(obj, ResourceFailedError.kind);
  }
}

/** A required setting is missing or invalid (e.g. "No API key: pass `apiKey` or set CLOUDDB_API_KEY"). */
export class ConfigurationError extends ClouddbError {
  static override readonly kind: string = "ConfigurationError";
  /** Builds the error with the given actionable message. */
  constructor(message: string) {
    super(message, ClientErrorCode.Configuration);
  }
  /** True when `obj` is a {@link ConfigurationError}. */
  static override isInstance(obj: unknown): obj is ConfigurationError {
    return hasKind(obj, ConfigurationError.kind);
  }
}

/**
 * No HTTP answer: connection refused or reset, DNS failure, header/body timeout. Retried
 * like a 503 for reads and idempotent actions; for creates, see `createGuard`.
 */
export class NetworkError extends ClouddbError {
  static override readonly kind: string = "NetworkError";
  /** Client method name. */
  readonly operation: string;
  /** The underlying error code (`ECONNREFUSED`, `UND_ERR_HEADERS_TIMEOUT`, ...), when known. */
  readonly causeCode: string | undefined;
  /** False for failures a retry cannot fix (client closed, invalid argument). */
  readonly retryable: boolean;

  /** Wraps the low-level error `cause`. */
  constructor(init: { operation: string; url: string; cause: unknown }) {
    const cause = init.cause as { code?: unknown; message?: unknown; cause?: { code?: unknown } } | undefined;
    const causeCode =
      typeof cause?.code === "string"
        ? cause.code
        : typeof cause?.cause?.code === "string"
          ? cause.cause.code
          : undefined;
    const causeMessage = typeof cause?.message === "string" ? cause.message : String(init.cause);
    super(
      `Could not reach the API at ${init.url} (operation ${init.operation}): ${causeMessage}` +
        `${causeCode === undefined ? "" : ` [${causeCode}]`}. Check apiUrl / CLOUDDB_API_URL and the network.`,
      ClientErrorCode.Network,
      { cause: init.cause },
    );
    this.operation = init.operation;
    this.causeCode = causeCode;
    this.retryable = !(
      causeCode === "UND_ERR_INVALID_ARG" ||
      causeCode === "UND_ERR_CLOSED" ||
      causeCode === "UND_ERR_DESTROYED" ||
      causeCode === "UND_ERR_NOT_SUPPORTED"
    );
  }
  /** True when `obj` is a {@link NetworkError}. */
  static override isInstance(obj: unknown): obj is NetworkError {
    return hasKind(obj, NetworkError.kind);
  }
}

function capitalize(s: string): string {
  return s.length === 0 ? s : s[0]!.toUpperCase() + s.slice(1);
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

/** Facts about the failed call that make a hint actionable. */
export interface ErrorContext {
  /** Client method name. */
  operation: string;
  /** Project the call addressed, when project-scoped. */
  projectId?: string;
}

/**
 * Builds the {@link ApiError} subclass for an error answer. `body` is the parsed JSON body
 * (or undefined / raw text when it was not JSON). Never throws.
 */
export function apiErrorFromResponse(
  status: number,
  body: unknown,
  ctx: ErrorContext,
  retryAfterSeconds?: number,
): ApiError {
  const obj = body !== null && typeof body === "object" ? (body as Record<string, unknown>) : {};
  const code =
    typeof obj.code === "string" && obj.code !== "" ? obj.code : (DEFAULT_CODES[status] ?? (status >= 500 ? "INTERNAL" : `HTTP_${status}`));
  const apiMessage =
    typeof obj.message === "string" && obj.message !== ""
      ? obj.message
      : typeof body === "string" && body.trim() !== ""
        ? `HTTP ${status}: ${body.trim().slice(0, 200)}`
        : `HTTP ${status}`;
  const details = typeof obj.details === "string" ? obj.details : undefined;
  const init: ApiErrorInit = { status, code, apiMessage, operation: ctx.operation };
  if (details !== undefined) init.details = details;
  if (retryAfterSeconds !== undefined) init.retryAfterSeconds = retryAfterSeconds;
  const project = ctx.projectId === undefined ? "" : ` ${ctx.projectId}`;
  switch (status) {
    case 400:
    case 422:
      return new InvalidRequestError({ ...init, hint: "Check the request fields named above." });
    case 401:
      return new AuthenticationError({ ...init, hint: "Check the API key (`apiKey` or CLOUDDB_API_KEY)." });
    case 403:
      return new PermissionError({
        ...init,
        hint: `Check that this API key may reach project${project} (\`projectId\` or CLOUDDB_PROJECT_ID).`,
      });
    case 404:
      return new NotFoundError({ ...init, hint: `Check the identifiers and project${project}; the resource may have been deleted.` });
    case 409:
      return new ConflictError({
        ...init,
        hint: "Wait until the resource is in a state that allows this action (usually READY / active), then try again.",
      });
    case 429:
      return new RateLimitError({ ...init, hint: "Lower the request rate or raise `retryDeadlineMs`." });
    default:
      if (status >= 500) {
        return new ServerError({ ...init, hint: "The API had trouble; try again later or raise `retryDeadlineMs`." });
      }
      return new ApiError({ ...init, hint: "Unexpected status from the API." });
  }
}
