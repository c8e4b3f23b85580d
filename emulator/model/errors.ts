/**
 * Typed errors of the emulated API. Each carries the HTTP status and the contract's
 * error `code`; the HTTP layer turns any of them into `{code, message, details?}`.
 */

const BRAND = "__clouddbEmulatorError";

/** Base class of every error the emulator answers with. */
export class EmulatorApiError extends Error {
  /** Brand that survives duplicate copies of this module. */
  readonly [BRAND] = true;

  /**
   * @param status - HTTP status of the answer.
   * @param code - the contract's error code (`INVALID_REQUEST`, `NOT_FOUND`, ...).
   * @param message - for a person.
   * @param details - the actionable part: which field, which value, what is allowed.
   * @param headers - extra response headers (e.g. `Retry-After`).
   */
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }

  /** True when `value` is an {@link EmulatorApiError}, from any copy of this module. */
  static isInstance(value: unknown): value is EmulatorApiError {
    return typeof value === "object" && value !== null && (value as Record<string, unknown>)[BRAND] === true;
  }

  /** The contract's error body. */
  toBody(): { code: string; message: string; details?: string } {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

/** 400: malformed JSON, missing or wrongly typed field, value not allowed. */
export class InvalidRequestError extends EmulatorApiError {
  /** @param message - what is wrong; @param details - field, value and what is allowed. */
  constructor(message: string, details?: string) {
    super(400, "INVALID_REQUEST", message, details);
  }
}

/** 401: missing header, wrong scheme or unknown token. */
export class UnauthorizedError extends EmulatorApiError {
  /** @param details - why the credential was refused. */
  constructor(details: string) {
    super(401, "UNAUTHORIZED", "Authentication required", details);
  }
}

/** 403: the credential does not reach the project. */
export class ForbiddenError extends EmulatorApiError {
  /** @param projectId - the project asked for. */
  constructor(projectId: string) {
    super(403, "FORBIDDEN", "The credential does not give access to this project", `project_id: ${projectId}`);
  }
}

/** 404: unknown resource (also once its deletion has finished), or unknown path. */
export class NotFoundError extends EmulatorApiError {
  /** @param kind - what was looked for; @param id - its identifier. */
  constructor(kind: string, id: string) {
    super(404, "NOT_FOUND", `${kind} not found`, `${kind} ${JSON.stringify(id)} does not exist`);
  }
}

/** 409: the resource's state does not allow the action, or it would break another resource. */
export class ConflictError extends EmulatorApiError {
  /** @param message - what is refused; @param details - the state or what is attached. */
  constructor(message: string, details?: string) {
    super(409, "CONFLICT", message, details);
  }
}
