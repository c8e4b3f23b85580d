/**
 * Errors the client raises without an API error answer: a body it cannot rely on
 * ({@link ResponseValidationError}), a bad setting ({@link ConfigurationError}), and no
 * answer at all ({@link NetworkError}).
 */
import { ClientErrorCode, ClouddbError, hasKind } from "./errorBase";
import { redact } from "./redact";

/** `operation createService` or `operation createService, step listServices`. */
function operationText(operation: string, step: string | undefined): string {
  return step === undefined || step === operation ? `operation ${operation}` : `operation ${operation}, step ${step}`;
}

/** Where and how a response body failed validation, as given to {@link ResponseValidationError}. */
export interface ResponseValidationInit {
  /** Client method name the caller ran. */
  operation: string;
  /** The request whose answer failed, when not the operation's own. */
  step?: string;
  /** The object that failed, when the answer holds several (`service abc in the list`). */
  subject?: string;
  /** Field path such as `read_replica_sets[0].status`, or `(body)` for the whole body. */
  path: string;
  /** What was expected there. */
  expected: string;
  /** What came back at that path, already rendered safe (truncated, secrets masked). */
  received: string;
}

/**
 * A 2xx answer whose body is not what the client relies on (a missing identifier, a
 * field of the wrong type, not JSON). The request may have taken effect.
 */
export class ResponseValidationError extends ClouddbError {
  static override readonly kind: string = "ResponseValidationError";
  /** Client method name the caller ran. */
  readonly operation: string;
  /** The request whose answer failed, when not the operation's own. */
  readonly step: string | undefined;
  /** The object that failed, when the answer holds several (`service abc in the list`). */
  readonly subject: string | undefined;
  /** Field path of the first mismatch (relative to {@link ResponseValidationError.subject} when given). */
  readonly path: string;
  /** What came back at that path (truncated, secrets masked). */
  readonly received: string;

  /** Builds the error; the message names operation, field path, expectation and value. */
  constructor(init: ResponseValidationInit) {
    super(
      `Unexpected response body from the API (${operationText(init.operation, init.step)}): ` +
        `${init.subject === undefined ? "" : `${init.subject}: `}field \`${init.path}\`: ` +
        `expected ${init.expected}, received ${init.received}. The API may be newer or older than this client.`,
      ClientErrorCode.ResponseValidation,
    );
    this.operation = init.operation;
    this.step = init.step === init.operation ? undefined : init.step;
    this.subject = init.subject;
    this.path = init.path;
    this.received = redact(init.received);
  }
  /** True when `obj` is a {@link ResponseValidationError}. */
  static override isInstance(obj: unknown): obj is ResponseValidationError {
    return hasKind(obj, ResponseValidationError.kind);
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

/** Low-level error codes after which a retry cannot help (client closed, invalid argument). */
const FINAL_CAUSES = new Set(["UND_ERR_INVALID_ARG", "UND_ERR_CLOSED", "UND_ERR_DESTROYED", "UND_ERR_NOT_SUPPORTED"]);

/** The `code` of a low-level error, or of its `cause`. */
function codeOf(cause: unknown): string | undefined {
  const c = cause as { code?: unknown; cause?: { code?: unknown } } | undefined;
  if (typeof c?.code === "string") return c.code;
  return typeof c?.cause?.code === "string" ? c.cause.code : undefined;
}

/** What a {@link NetworkError} is built from. */
export interface NetworkErrorInit {
  /** Client method name the caller ran. */
  operation: string;
  /** The request that failed, when not the operation's own. */
  step?: string;
  /** The URL requested (it holds no secret). */
  url: string;
  /** The low-level error. */
  cause: unknown;
}

/**
 * No HTTP answer: connection refused or reset, DNS failure, header/body timeout, or an
 * answer cut short. Retried like a 503 for reads and idempotent actions; for creates, see
 * `createRecovery.ts`.
 */
export class NetworkError extends ClouddbError {
  static override readonly kind: string = "NetworkError";
  /** Client method name the caller ran. */
  readonly operation: string;
  /** The request that failed, when not the operation's own. */
  readonly step: string | undefined;
  /** The URL requested. */
  readonly url: string;
  /** The underlying error code (`ECONNREFUSED`, `UND_ERR_HEADERS_TIMEOUT`, ...), when known. */
  readonly causeCode: string | undefined;
  /** False for failures a retry cannot fix (client closed, invalid argument). */
  readonly retryable: boolean;

  /** Wraps the low-level error `cause`. */
  constructor(init: NetworkErrorInit) {
    const causeCode = codeOf(init.cause);
    const cause = init.cause as { message?: unknown } | undefined;
    const causeMessage = typeof cause?.message === "string" ? cause.message : String(init.cause);
    super(
      `Could not reach the API at ${init.url} (${operationText(init.operation, init.step)}): ${causeMessage}` +
        `${causeCode === undefined ? "" : ` [${causeCode}]`}. Check apiUrl / CLOUDDB_API_URL and the network.`,
      ClientErrorCode.Network,
      { cause: init.cause },
    );
    this.operation = init.operation;
    this.step = init.step === init.operation ? undefined : init.step;
    this.url = init.url;
    this.causeCode = causeCode;
    this.retryable = causeCode === undefined || !FINAL_CAUSES.has(causeCode);
  }
  /** True when `obj` is a {@link NetworkError}. */
  static override isInstance(obj: unknown): obj is NetworkError {
    return hasKind(obj, NetworkError.kind);
  }
}
