/**
 * The base of the client's error hierarchy: {@link ClouddbError}, its brand, and the
 * stable codes of the errors that do not come from an API answer.
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

/**
 * True when `obj` carries the brand and was constructed as (a subclass of) the class whose
 * static `kind` is `kind`. The check every `isInstance` of the hierarchy uses. Never throws.
 */
export function hasKind(obj: unknown, kind: string): boolean {
  if (obj === null || (typeof obj !== "object" && typeof obj !== "function")) return false;
  const kinds = (obj as Branded)[BRAND];
  return Array.isArray(kinds) && kinds.includes(kind);
}

/** Stable codes of the errors that do not come from an API answer. */
export const ClientErrorCode = {
  /** A response body did not match what the client relies on. */
  ResponseValidation: "CLOUDDB_RESPONSE_VALIDATION",
  /** An answer's resource belongs to another project than the one asked for (its `project_id`). */
  ForeignResource: "CLOUDDB_FOREIGN_RESOURCE",
  /** A waiter ran out of time. */
  Timeout: "CLOUDDB_TIMEOUT",
  /** A wait was under way when its client was closed. */
  WaitCancelled: "CLOUDDB_WAIT_CANCELLED",
  /** A pause of the client (a retry's backoff, a look again at a list) or of the providers was cut short: the work was stopped. */
  Cancelled: "CLOUDDB_CANCELLED",
  /** A waited-for resource reached a failure state or disappeared. */
  ResourceFailed: "CLOUDDB_RESOURCE_FAILED",
  /** The client is missing or has an invalid setting. */
  Configuration: "CLOUDDB_CONFIGURATION",
  /** The request did not get an HTTP answer (connection refused or reset, timed out). */
  Network: "CLOUDDB_NETWORK",
  /**
   * A create may have made a resource but the client cannot tell which one is its own
   * (several fit), or could not look: see `AmbiguousCreateError`.
   */
  AmbiguousCreate: "CLOUDDB_AMBIGUOUS_CREATE",
  /** The URL answered a redirect (3xx): the request was not carried out there, and the client does not follow it. */
  Redirect: "CLOUDDB_REDIRECT",
  /** A 2xx answer that is not the API's (an HTML page of a firewall or a proxy). */
  NotTheApi: "CLOUDDB_NOT_THE_API",
} as const;

/** One of the {@link ClientErrorCode} values. */
export type ClientErrorCodeValue = (typeof ClientErrorCode)[keyof typeof ClientErrorCode];

/**
 * Base of every error this client raises, and of the provider's own errors. Never thrown
 * directly by the client.
 */
export class ClouddbError extends Error {
  /** The class kind used by `isInstance`; each subclass sets its own. */
  static readonly kind: string = "ClouddbError";
  /** Stable string code: the API's code for `ApiError`s, a `CLOUDDB_*` code otherwise. */
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
