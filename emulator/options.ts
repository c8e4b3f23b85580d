/** Options of the emulator, their defaults and their validation. */
import { SHORT_ID_PATTERN } from "../contract";

/** Options of {@link startEmulator}. */
export interface EmulatorOptions {
  /** TCP port; 0 picks a free one. @default 0 (the CLI defaults to 8787) */
  port?: number;
  /** Interface to listen on. @default "127.0.0.1" */
  host?: string;
  /** Factor applied to every nominal transition time; 0 makes transitions instant. @default 1 */
  clockScale?: number;
  /**
   * The emulator clock stands still: it moves only when the control path advances it
   * (`POST /_emulator/clock` with `advanceMs`), so a test sees each state for as long as it
   * likes however slow the machine. @default false
   */
  frozenClock?: boolean;
  /** Directory for durable state; without it state lives in memory. @default undefined */
  dataDir?: string;
  /** Id of the default project (10 characters of `[a-z0-9]`). @default the stored one, else random */
  projectId?: string;
  /** The personal access token, bound to the default project. @default "clouddb-emulator-pat" */
  pat?: string;
  /** The OAuth user token, reaching the default and the second project. @default "clouddb-emulator-oauth" */
  oauthToken?: string;
  /**
   * A real PostgreSQL server behind every service created from now on (emulator/README.md,
   * "Real databases"). Needs PostgreSQL's server binaries and openssl.
   * @default false
   */
  postgres?: boolean;
}

/** Default personal access token. */
export const DEFAULT_PAT = "clouddb-emulator-pat";
/** Default OAuth user token. */
export const DEFAULT_OAUTH_TOKEN = "clouddb-emulator-oauth";
/** Default interface. */
export const DEFAULT_HOST = "127.0.0.1";
/** Default port of the CLI. */
export const DEFAULT_CLI_PORT = 8787;

/** An option has a value the emulator cannot use. */
export class EmulatorOptionsError extends Error {
  /** @param option - the option; @param reason - what is wrong and what is allowed. */
  constructor(
    readonly option: string,
    reason: string,
  ) {
    super(`Invalid emulator option ${option}: ${reason}`);
    this.name = "EmulatorOptionsError";
  }
}

/** Checks option values. @throws EmulatorOptionsError */
export function validateOptions(options: EmulatorOptions): void {
  const { port, clockScale, projectId, pat, oauthToken, postgres } = options;
  if (postgres !== undefined && typeof postgres !== "boolean") {
    throw new EmulatorOptionsError("postgres", `${JSON.stringify(postgres)} must be true or false`);
  }
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
    throw new EmulatorOptionsError("port", `${port} is not a port number (0 to 65535)`);
  }
  if (clockScale !== undefined && (!Number.isFinite(clockScale) || clockScale < 0)) {
    throw new EmulatorOptionsError("clockScale", `${clockScale} must be a finite number >= 0`);
  }
  if (projectId !== undefined && !SHORT_ID_PATTERN.test(projectId)) {
    throw new EmulatorOptionsError("projectId", `${JSON.stringify(projectId)} must be 10 characters of [a-z0-9]`);
  }
  for (const [name, token] of [
    ["pat", pat],
    ["oauthToken", oauthToken],
  ] as const) {
    if (token !== undefined && !/^\S+$/.test(token)) {
      throw new EmulatorOptionsError(name, "a token must be non-empty and contain no whitespace");
    }
  }
  if (pat !== undefined && pat === (oauthToken ?? DEFAULT_OAUTH_TOKEN)) {
    throw new EmulatorOptionsError("pat", "the PAT and the OAuth token must differ");
  }
}
