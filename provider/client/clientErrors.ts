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
  /**
   * What the mismatch most likely means and what to do, when it is not a body of another
   * shape (an empty body, one that is not JSON or cannot be decoded). @default that the API
   * may be newer or older than this client
   */
  why?: string;
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

  /**
   * Builds the error; the message names operation, field path, expectation and value.
   * @param code - the stable code of a subclass. @default CLOUDDB_RESPONSE_VALIDATION
   */
  constructor(init: ResponseValidationInit, code: string = ClientErrorCode.ResponseValidation) {
    super(
      `Unexpected response body from the API (${operationText(init.operation, init.step)}): ` +
        `${init.subject === undefined ? "" : `${init.subject}: `}field \`${init.path}\`: ` +
        `expected ${init.expected}, received ${init.received}. ${init.why ?? "The API may be newer or older than this client."}`,
      code,
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

/** What a {@link ForeignResourceError} is built from. */
export interface ForeignResourceInit {
  /** Client method name the caller ran. */
  operation: string;
  /** The request whose answer it was, when not the operation's own. */
  step?: string;
  /** What the resource is (`service`), and whether the answer was a list. */
  noun: string;
  /** The resource's id, as the answer gave it. */
  id: string;
  /** The project the request asked for. */
  askedProject: string;
  /** The project the answer says the resource belongs to. */
  answeredProject: string;
  /** True when the resource was an item of a list answer. */
  inList?: boolean;
}

/**
 * An answer whose resource belongs to another project than the one the request asked for
 * (its `project_id`): something between this machine and the API mixed up projects, or an id
 * is another project's. The resource is not used: not taken over, not changed, not recorded.
 * A {@link ResponseValidationError} (path `project_id`) with its own code.
 */
export class ForeignResourceError extends ResponseValidationError {
  static override readonly kind: string = "ForeignResourceError";
  /** The project the request asked for. */
  readonly askedProject: string;
  /** The project the answer says the resource belongs to. */
  readonly answeredProject: string;
  /** The resource's id. */
  readonly resourceId: string;

  /** Builds the error; the message names both projects and the resource. */
  constructor(init: ForeignResourceInit) {
    super(
      {
        operation: init.operation,
        ...(init.step === undefined ? {} : { step: init.step }),
        subject: `${init.noun} ${init.id}${init.inList === true ? " in the list" : ""}`,
        path: "project_id",
        expected: `"${init.askedProject}" (the project asked for)`,
        received: JSON.stringify(init.answeredProject),
        why:
          `The answer shows ${init.noun} ${init.id} of project ${init.answeredProject}, not of project ${init.askedProject}: ` +
          "something between this machine and the API mixed up projects, or the id is another project's. It is not used: " +
          "nothing is taken over, changed or recorded because of it. Check the projectId and the id.",
      },
      ClientErrorCode.ForeignResource,
    );
    this.askedProject = init.askedProject;
    this.answeredProject = init.answeredProject;
    this.resourceId = init.id;
  }
  /** True when `obj` is a {@link ForeignResourceError}. */
  static override isInstance(obj: unknown): obj is ForeignResourceError {
    return hasKind(obj, ForeignResourceError.kind);
  }
}

/** A required setting is missing or invalid (e.g. "No API key: pass `apiKey` or set CLOUDDB_API_KEY"). */
export class ConfigurationError extends ClouddbError {
  static override readonly kind: string = "ConfigurationError";
  /** The option at fault (`apiKey`, `apiUrl`, `projectId`, `poll.maxMs`, ...), when one is. */
  readonly setting: string | undefined;
  /**
   * Builds the error with the given actionable message (which must not quote a secret).
   * @param setting - the option at fault, when one is.
   */
  constructor(message: string, setting?: string) {
    super(message, ClientErrorCode.Configuration);
    this.setting = setting;
  }
  /** True when `obj` is a {@link ConfigurationError}. */
  static override isInstance(obj: unknown): obj is ConfigurationError {
    return hasKind(obj, ConfigurationError.kind);
  }
}

/**
 * A pause or wait ended early because the work was stopped: the client was closed, or the
 * signal it was given (`ClouddbClientOptions.signal`) aborted, as the providers' does when
 * Pulumi cancels (Ctrl-C) or its engine is gone. Nothing was sent because of the pause; what
 * was sent before it stays as it is. Never retried.
 */
export class CancelledError extends ClouddbError {
  static override readonly kind: string = "CancelledError";
  /** What stopped the work, a clause: `the client was closed`, `Pulumi cancelled the operation (Ctrl-C)`. */
  readonly why: string;
  /** @param why - what stopped the work, a clause. */
  constructor(why: string) {
    super(`Stopped: ${why}.`, ClientErrorCode.Cancelled);
    this.why = why;
  }
  /** True when `obj` is a {@link CancelledError}. */
  static override isInstance(obj: unknown): obj is CancelledError {
    return hasKind(obj, CancelledError.kind);
  }
}

/** Low-level error codes after which a retry cannot help (client closed, invalid argument). */
const FINAL_CAUSES = new Set(["UND_ERR_INVALID_ARG", "UND_ERR_CLOSED", "UND_ERR_DESTROYED", "UND_ERR_NOT_SUPPORTED"]);

/**
 * Low-level error codes after which the request certainly never reached the API: nothing
 * was connected (refused, name not resolved, no route, connect timeout).
 */
const NOT_SENT_CAUSES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_INVALID_ARG",
  "UND_ERR_CLOSED",
  "UND_ERR_DESTROYED",
]);

/**
 * The code of the failure the transport raises when an answer did not arrive whole within
 * the request's deadline (`requestTimeoutMs`), however the server sent its bytes (a body
 * trickling in counts from the first byte sent to the last received).
 */
export const ANSWER_DEADLINE_CODE = "CLOUDDB_ANSWER_DEADLINE";

/**
 * What a failure of TLS (code `ERR_SSL_*`, `ERR_TLS_*`, a certificate's) says to do: no retry
 * can change it, and no request went out (the handshake comes first). Undefined for others.
 */
function tlsAdvice(code: string | undefined): string | undefined {
  if (code === undefined) return undefined;
  if (/^ERR_SSL_(WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|HTTP_REQUEST|RECORD_LAYER_FAILURE)$/.test(code)) {
    return "the server at that address does not answer in TLS: is it plain HTTP on that port? Check the scheme and port of apiUrl / CLOUDDB_API_URL";
  }
  if (/CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY|DECRYPT)|HOSTNAME_MISMATCH|INVALID_CA/.test(code)) {
    return "this machine does not trust the server's certificate (self-signed, expired, of an unknown authority or for another name): fix the certificate, or trust its authority (NODE_EXTRA_CA_CERTS), and check apiUrl / CLOUDDB_API_URL";
  }
  if (/^(ERR_SSL_|ERR_TLS_|EPROTO$)/.test(code))
    return "TLS with the server failed: check apiUrl / CLOUDDB_API_URL and what stands between this machine and the API";
  return undefined;
}

/** Codes of an answer that is not HTTP (the server speaks another protocol): the request went out; repeating it changes nothing. */
function isProtocolFailure(code: string | undefined): boolean {
  return code !== undefined && /^HPE_/.test(code);
}

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
  /**
   * False when the request certainly never reached the API (connection refused, name not
   * resolved, connect timeout); true when it may have (reset, timeout waiting for the
   * answer, answer cut short): then a create's outcome is unknown.
   */
  readonly requestSent: boolean;

  /**
   * What to do when TLS with the server failed (it does not speak TLS, or its certificate is
   * not trusted here): such a failure is never retried. Undefined for other failures.
   */
  readonly tlsAdvice: string | undefined;

  /** Wraps the low-level error `cause`. */
  constructor(init: NetworkErrorInit) {
    const causeCode = codeOf(init.cause);
    const cause = init.cause as { message?: unknown } | undefined;
    const causeMessage = typeof cause?.message === "string" ? cause.message : String(init.cause);
    const tls = tlsAdvice(causeCode);
    super(
      tls !== undefined
        ? `TLS with the API at ${init.url} failed (${operationText(init.operation, init.step)}): ${causeMessage.split("\n")[0]} [${causeCode}]: ${tls}. Not retried: nothing was sent.`
        : causeCode === ANSWER_DEADLINE_CODE
          ? `No whole answer from the API at ${init.url} (${operationText(init.operation, init.step)}): ${causeMessage} [${causeCode}]. ` +
            "The request may have been carried out. Check the network and what stands between this machine and the API."
          : `Could not reach the API at ${init.url} (${operationText(init.operation, init.step)}): ${causeMessage}` +
            `${causeCode === undefined ? "" : ` [${causeCode}]`}. Check apiUrl / CLOUDDB_API_URL and the network.`,
      ClientErrorCode.Network,
      { cause: init.cause },
    );
    this.operation = init.operation;
    this.step = init.step === init.operation ? undefined : init.step;
    this.url = init.url;
    this.causeCode = causeCode;
    this.tlsAdvice = tls;
    this.retryable = causeCode === undefined || (!FINAL_CAUSES.has(causeCode) && tls === undefined && !isProtocolFailure(causeCode));
    this.requestSent = causeCode === undefined || (!NOT_SENT_CAUSES.has(causeCode) && tls === undefined);
  }
  /** True when `obj` is a {@link NetworkError}. */
  static override isInstance(obj: unknown): obj is NetworkError {
    return hasKind(obj, NetworkError.kind);
  }
}

/** What an {@link AmbiguousCreateError} is built from. */
export interface AmbiguousCreateInit {
  /** The create the caller ran (`createService`, `forkService`, ...). */
  operation: string;
  /** What it creates, for messages (`service`, `VPC`, `peering`, `replica set`). */
  noun: string;
  /** How the resource is known to a person: its requested name, or its peer for a peering. */
  label: string;
  /** Project it was created in. */
  projectId: string;
  /** Ids of the resources that fit the request, none of which was taken over. */
  candidateIds: readonly string[];
  /** The candidates with when the API says each was made, when it says (for messages). */
  candidates?: ReadonlyArray<{ id: string; created?: string | undefined }>;
  /** How the outcome became unknown, e.g. `its answer was lost: 503 UNAVAILABLE`. */
  failure: string;
  /** Why the client could not settle it: why the candidates prove nothing, or why there are none. */
  unsettled?: string;
  /** The error that made the outcome unknown, or that stopped the check. */
  cause?: unknown;
}

/**
 * A create was sent, its outcome is unknown (the answer was lost, cut short or unreadable),
 * and the client could not tell which resource, if any, it made: none of those that fit
 * can be proved its own (createRecovery.ts), several can, or it could not look. Nothing
 * was taken over and nothing more was created. The message names every candidate and the
 * exact `adoptId: "<id>"` that takes it over.
 */
export class AmbiguousCreateError extends ClouddbError {
  static override readonly kind: string = "AmbiguousCreateError";
  /** The create the caller ran. */
  readonly operation: string;
  /** What it creates (`service`, `VPC`, `peering`, `replica set`). */
  readonly noun: string;
  /** Project it was created in. */
  readonly projectId: string;
  /** Ids of the resources that fit the request (possibly none). */
  readonly candidateIds: readonly string[];

  /** Builds the error; the message says what happened and how to adopt each candidate. */
  constructor(init: AmbiguousCreateInit) {
    const created = new Map((init.candidates ?? []).map((c) => [c.id, c.created]));
    const listed = init.candidateIds.map((id) => `"${id}"${created.get(id) === undefined ? "" : ` (created ${created.get(id)})`}`);
    const count = init.candidateIds.length;
    const why =
      init.unsettled ??
      (count >= 2 ? "the client takes one over only when it can prove it made it" : "the client could not check what it made");
    const what =
      count === 0
        ? `${why}.`
        : `${count === 1 ? `one ${init.noun} fits it: ${listed[0]}` : `${count} ${init.noun}s fit it: ${listed.join(", ")}`}, and ${why}; none was taken over and no other ${init.noun} was created.`;
    const adopt =
      count === 0
        ? `If a ${init.noun} it made exists, set adoptId: "<id>" (its id) on the resource to take it over.`
        : `If ${count === 1 ? "it is" : "one of them is"} yours, take it over by setting ${init.candidateIds.map((id) => `adoptId: "${id}"`).join(" or ")} on the resource, and delete any ${init.noun} you do not want.`;
    super(
      `${init.operation} (${init.noun} ${init.label}, project ${init.projectId}): the outcome of the create is unknown (${init.failure}): ${what} ${adopt}`,
      ClientErrorCode.AmbiguousCreate,
      { cause: init.cause },
    );
    this.operation = init.operation;
    this.noun = init.noun;
    this.projectId = init.projectId;
    this.candidateIds = [...init.candidateIds];
  }
  /** True when `obj` is an {@link AmbiguousCreateError}. */
  static override isInstance(obj: unknown): obj is AmbiguousCreateError {
    return hasKind(obj, AmbiguousCreateError.kind);
  }
}
