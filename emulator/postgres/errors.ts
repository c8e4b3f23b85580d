/** The one error type of the emulator's PostgreSQL hosting (`--postgres`). */

const BRAND = "__clouddbEmulatorPostgresError";

/** Which step of hosting a database failed. */
export type PostgresStep = "locate" | "account" | "tls" | "initdb" | "start" | "setup" | "stop" | "remove";

/**
 * A step of hosting PostgreSQL failed: the binaries are missing, the server account
 * cannot reach its directories, or a tool or server failed. The message never contains
 * a password (tool output is scrubbed of the secrets it was given).
 */
export class PostgresError extends Error {
  /** Brand that survives duplicate copies of this module. */
  readonly [BRAND] = true;

  /** @param step - what failed; @param message - what happened and, when known, what to do. */
  constructor(
    readonly step: PostgresStep,
    message: string,
  ) {
    super(`PostgreSQL ${step}: ${message}`);
    this.name = "PostgresError";
  }

  /** True when `value` is a {@link PostgresError}, from any copy of this module. */
  static isInstance(value: unknown): value is PostgresError {
    return typeof value === "object" && value !== null && (value as Record<string, unknown>)[BRAND] === true;
  }
}

/** `text` with every secret replaced by `***`. */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length > 0) out = out.split(secret).join("***");
  return out;
}
