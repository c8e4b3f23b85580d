/** Errors that come from the HTTP layer rather than the domain model. */
import { EmulatorApiError } from "../model/errors";

/** 404 for a path no operation has. */
export class UnknownPathError extends EmulatorApiError {
  /** @param path - the path received. */
  constructor(path: string) {
    super(404, "NOT_FOUND", "No such path", `no operation at ${path}`);
  }
}

/** 405 for a known path with a method it does not take; carries `Allow`. */
export class MethodNotAllowedError extends EmulatorApiError {
  /** @param method - the method received; @param allowed - the methods the path takes. */
  constructor(method: string, allowed: readonly string[]) {
    super(405, "INVALID_REQUEST", "Method not allowed", `${method} is not allowed here; allowed: ${allowed.join(", ")}`, {
      Allow: allowed.join(", "),
    });
  }
}

/** 413 for a body over the limit. */
export class PayloadTooLargeError extends EmulatorApiError {
  /** @param limitBytes - the limit. */
  constructor(limitBytes: number) {
    super(413, "INVALID_REQUEST", "Request body too large", `the body must be at most ${limitBytes} bytes`, {
      Connection: "close",
    });
  }
}

/** 429 from the rate limiter, with `Retry-After` in whole seconds unless its policy leaves it out. */
export class RateLimitedError extends EmulatorApiError {
  /**
   * @param retryAfterSeconds - what `Retry-After` says (undefined: no `Retry-After`); @param details - why;
   * @param fields - further headers (the RateLimit fields).
   */
  constructor(retryAfterSeconds: number | undefined, details = "request rate exceeded", fields: Record<string, string> = {}) {
    super(429, "RATE_LIMITED", "Too many requests", details, {
      ...fields,
      ...(retryAfterSeconds === undefined ? {} : { "Retry-After": String(retryAfterSeconds) }),
    });
  }
}

/** The contract's error code for an HTTP status, for injected faults. */
export function codeForStatus(status: number): string {
  switch (status) {
    case 401:
      return "UNAUTHORIZED";
    case 403:
      return "FORBIDDEN";
    case 404:
      return "NOT_FOUND";
    case 409:
      return "CONFLICT";
    case 429:
      return "RATE_LIMITED";
    case 502:
    case 503:
    case 504:
      return "UNAVAILABLE";
    default:
      return status >= 500 ? "INTERNAL" : "INVALID_REQUEST";
  }
}

/** An answer forced by a fault rule of the control path. */
export class InjectedFaultError extends EmulatorApiError {
  /** @param status - the status to answer; @param retryAfterSeconds - `Retry-After`, if any. */
  constructor(status: number, retryAfterSeconds: number | undefined) {
    super(
      status,
      codeForStatus(status),
      status === 429 ? "Too many requests" : "Injected failure",
      "answer injected by the emulator's control path",
      retryAfterSeconds === undefined ? {} : { "Retry-After": String(retryAfterSeconds) },
    );
  }
}
