/**
 * Client options and how they are resolved: explicit options first, then the
 * environment (`CLOUDDB_API_URL`, `CLOUDDB_API_KEY`, `CLOUDDB_PROJECT_ID`,
 * `CLOUDDB_POLL_INITIAL_MS`, `CLOUDDB_POLL_MAX_MS`, `CLOUDDB_LIST_LAG_MS`), then defaults.
 */
import * as fs from "fs";
import * as path from "path";
import { ConfigurationError } from "./errors";
import { type FleetOptions, resolveFleet } from "./fleetConfig";
import { REDACTED, registerSecret } from "./redact";

/** Polling of the waiters. */
export interface PollOptions {
  /** Delay before the first poll, and the shortest interval. Env: CLOUDDB_POLL_INITIAL_MS. @default 250 */
  initialMs?: number;
  /** Longest interval between polls. Env: CLOUDDB_POLL_MAX_MS. @default 10000 */
  maxMs?: number;
}

/** Options of {@link ClouddbClient}. */
export interface ClouddbClientOptions {
  /** Base URL ending in `/public/api/v1`. Env: CLOUDDB_API_URL. Required (no default). */
  apiUrl?: string;
  /** Bearer token (personal access token or OAuth token). Env: CLOUDDB_API_KEY. Required. */
  apiKey?: string;
  /** Default project of project-scoped methods. Env: CLOUDDB_PROJECT_ID. Required only by project-scoped calls without `opts.projectId`. */
  projectId?: string;
  /** Extra product token appended to `User-Agent: pulumi-clouddb/<version>`. */
  userAgent?: string;
  /** Per-request limit for response headers and for gaps in the body (undici headersTimeout / bodyTimeout). @default 30000 */
  requestTimeoutMs?: number;
  /** Total time one call may spend retrying 429 / 5xx / network failures. @default 120000 */
  retryDeadlineMs?: number;
  /**
   * Total time one call keeps retrying while its requests cannot reach the API at all
   * (connection refused, name not resolved, connect timeout), within `retryDeadlineMs`:
   * a wrong or dead endpoint fails within seconds. @default 3000
   */
  unreachableRetryMs?: number;
  /** Serve `getService` from one shared `listServices` answer at most this old; 0 turns it off. @default 0 */
  listCacheMs?: number;
  /**
   * The bound within which the API's lists show what a create made, in ms, from when the
   * client stopped waiting for the create's answer (it came, the connection closed, or the
   * request's deadline passed): after a lost answer, a list read started that long after
   * the request ended that shows nothing the create made proves it made nothing, and the
   * create is sent again (see createRecovery.ts). An API whose lists lag longer, or a gateway
   * that holds a request and passes it on later than this after the client gave up, breaks
   * that proof: raise it. Env: CLOUDDB_LIST_LAG_MS. @default 30000
   */
  listLagMs?: number;
  /** Waiter polling. */
  poll?: PollOptions;
  /**
   * How long transitions are expected to take, by name (`service:QUEUED->READY`): ms, as
   * `ClouddbClient.learnedDurations()` returned them in an earlier run, or the last
   * measurements, as `ClouddbClient.learnedSamples()` did (their median is expected): waits
   * on those transitions poll where readiness is likely from the first one (see pollSchedule.ts).
   * @default {} (learned as waits end)
   */
  expectedDurations?: Record<string, number | readonly number[]>;
  /**
   * A private directory of yours (made 0700 when missing) where the clients of the same API
   * URL and key on this machine share what they learn of its rate limit: one file per key,
   * named by a hash of the URL and of the key's hash, holding neither (see pacer.ts, "Shared
   * with the machine's other clients of the key"). The providers give their journal's.
   * @default none: the client paces alone
   */
  pacingDir?: string;
  /**
   * The fleet this client is part of: how many machines (each with its own `pacingDir`) share
   * the key at once, and the key's limit where the API does not announce it (`RateLimit-Policy`
   * wins). Told, the machine sends in a slot of its own on the fleet's grid of slots (one
   * request a slot, slots of the limit's second over its quota): near none of the 429s that
   * machines finding their shares alone meet; told also its number in the fleet (`index`), the
   * slot of that number, so that no two machines meet at all. Env: CLOUDDB_FLEET_MACHINES,
   * CLOUDDB_KEY_RATE_LIMIT, CLOUDDB_FLEET_MACHINE_INDEX.
   * @default none: each machine finds its share from the API's answers
   */
  fleet?: FleetOptions;
  /**
   * Stops the client when it aborts, as {@link ClouddbClient.close} does: every wait under
   * way, and any started later, ends (`WaitCancelledError`, naming the signal's reason when
   * it is an `Error`), every pause (a retry's backoff, a look again at a list, a turn at the
   * pacer) ends, and requests not sent yet and later calls are not sent (`CancelledError`,
   * whose `why` is the signal's reason when it is a `CancelledError`); a request already sent
   * gets its answer, so what a create made is known (a create whose answer was lost ends as
   * an `AmbiguousCreateError`, never as made nothing). One signal stops every client that
   * takes it, whenever it aborts, before or after a client is made.
   * @default none: only `close()` stops the client
   */
  signal?: AbortSignal;
}

/** Options after resolution. */
export interface ResolvedConfig {
  /** Base URL in its one form ({@link canonicalApiUrl}): what every key derived from it uses. */
  apiUrl: string;
  /** The bearer token. */
  apiKey: string;
  /** Default project, when configured. */
  projectId: string | undefined;
  /** Full User-Agent header value. */
  userAgent: string;
  /** See {@link ClouddbClientOptions.requestTimeoutMs}. */
  requestTimeoutMs: number;
  /** See {@link ClouddbClientOptions.retryDeadlineMs}. */
  retryDeadlineMs: number;
  /** See {@link ClouddbClientOptions.unreachableRetryMs}. */
  unreachableRetryMs: number;
  /** See {@link ClouddbClientOptions.listCacheMs}. */
  listCacheMs: number;
  /** See {@link ClouddbClientOptions.listLagMs}. */
  listLagMs: number;
  /** Resolved polling. */
  poll: { initialMs: number; maxMs: number };
  /** See {@link ClouddbClientOptions.expectedDurations}. */
  expectedDurations: Record<string, number | readonly number[]>;
  /** See {@link ClouddbClientOptions.pacingDir}. */
  pacingDir: string | undefined;
  /** See {@link ClouddbClientOptions.fleet}. */
  fleet: FleetOptions | undefined;
}

/** Default per-request timeout. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** Default retry deadline. */
export const DEFAULT_RETRY_DEADLINE_MS = 120_000;
/** Default time spent retrying an API that cannot be reached at all. */
export const DEFAULT_UNREACHABLE_RETRY_MS = 3_000;
/** The path every base URL ends in (SPEC.md section 9). */
export const API_BASE_PATH = "/public/api/v1";
/**
 * Default bound within which a list shows what a create made (see
 * {@link ClouddbClientOptions.listLagMs}): far above the lag a list of this API is expected to
 * show (its lists read the records its creates write; the emulator's show a create at once),
 * fifteen times the 2 s the client already looks for a lost create's resource, and short
 * against a create's default `timeouts` (30 minutes): a lost answer costs this wait once.
 */
export const DEFAULT_LIST_LAG_MS = 30_000;
/** Default first poll delay. */
export const DEFAULT_POLL_INITIAL_MS = 250;
/** Default longest poll interval. */
export const DEFAULT_POLL_MAX_MS = 10_000;

let cachedVersion: string | undefined;

/**
 * Version of this package, read from its package.json (found by walking up from this
 * file, which works from the TypeScript sources and from `dist/`). Returns `0.0.0` when
 * no package.json is found; never throws.
 */
export function packageVersion(): string {
  if (cachedVersion !== undefined) return cachedVersion;
  let dir = __dirname;
  for (let i = 0; i < 6; i++) {
    const file = path.join(dir, "package.json");
    try {
      const pkg = JSON.parse(fs.readFileSync(file, "utf8")) as { name?: unknown; version?: unknown };
      if (pkg.name === "pulumi-clouddb" && typeof pkg.version === "string") {
        cachedVersion = pkg.version;
        return cachedVersion;
      }
    } catch {
      // not here; keep walking up
    }
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  cachedVersion = "0.0.0";
  return cachedVersion;
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v.trim() === "" ? undefined : v.trim();
}

/**
 * Why `text` (an environment variable's value) is not a number of at least `min`;
 * undefined when it is.
 */
export function numberProblem(text: string, min: number): string | undefined {
  const n = Number(text.trim());
  return Number.isFinite(n) && n >= min ? undefined : `"${text}" is not a number of ${min} or more`;
}

function numberSetting(
  option: number | undefined,
  optionName: string,
  envValue: string | undefined,
  envName: string | undefined,
  fallback: number,
  min: number,
): number {
  if (option !== undefined) {
    if (typeof option !== "number" || !Number.isFinite(option) || option < min) {
      throw new ConfigurationError(`Invalid \`${optionName}\`: ${String(option)}; expected a number >= ${min}.`, optionName);
    }
    return option;
  }
  const env = nonEmpty(envValue);
  if (env !== undefined && envName !== undefined) {
    const problem = numberProblem(env, min);
    if (problem !== undefined) {
      throw new ConfigurationError(`Invalid ${envName}: ${problem} (or pass \`${optionName}\`).`, optionName);
    }
    return Number(env);
  }
  return fallback;
}

/** Characters an HTTP header value cannot carry (control characters but tab, and anything beyond Latin-1). */
const NOT_IN_HEADER = /[^\t\x20-\x7e\x80-\xff]/;

/**
 * Why `apiKey` cannot be sent as the API key, never quoting it: HTTP headers cannot carry
 * a line break or another control character, so such a key gets its own message (not a
 * network failure later). Undefined when it can be sent.
 */
export function apiKeyProblem(apiKey: string): string | undefined {
  const bad = NOT_IN_HEADER.exec(apiKey);
  if (bad === null) return undefined;
  const what = bad[0] === "\n" || bad[0] === "\r" ? "a line break" : "a character an HTTP header cannot carry";
  return (
    `contains ${what} at position ${bad.index + 1} of ${apiKey.length}: it cannot be sent in the Authorization header. ` +
    "Copy the key again, without line breaks or spaces around it."
  );
}

/**
 * `rawUrl` as messages may quote it, whether or not it parses as a URL: what may hold a
 * credential is replaced by `[REDACTED]`: the userinfo (`user:password@`, everything before
 * the last `@`), and the query and fragment (`?token=...`, `#access_token=...`).
 */
export function shownUrl(rawUrl: string): string {
  return rawUrl
    .replace(/^(\s*[a-z][a-z0-9+.-]*:\/*)?[\s\S]*@/i, (_all, scheme: string | undefined) => `${scheme ?? ""}${REDACTED}@`)
    .replace(/([?#])[\s\S]*$/, `$1${REDACTED}`);
}

/** Characters RFC 3986 calls unreserved: a percent-encoding of one of them is the character itself (RFC 3986 §6.2.2.2). */
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * `path` with its percent-encodings normalised as RFC 3986 §6.2.2 says: an encoded
 * unreserved character decoded (`%7E` is `~`, `%76` is `v`), every other encoding in upper
 * case (`%2f` is `%2F`).
 */
function normalEncoding(path: string): string {
  return path.replace(/%([0-9A-Fa-f]{2})/g, (_all, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

/**
 * The one form of an API base URL that every key derived from it uses (the journal's
 * entries and their locks, the pacing and shared-list files, the learned transition times,
 * the process's clients with their read caches and poll hubs), so that two spellings of one
 * endpoint are one endpoint: parsed as WHATWG `URL` does (scheme and host in lower case, a
 * default port dropped, dot segments resolved), its percent-encodings normalised (RFC 3986
 * §6.2.2), its trailing slashes dropped; no userinfo, query or fragment (the client never
 * sends them: userinfo is never part of a key or a file name). Text that is not a URL comes
 * back trimmed (its problem is {@link apiUrlProblem}'s to report). Never throws.
 *
 * `https://API.example.com:443/public/api/v1/`, `HTTPS://api.example.com/public/api/%76%31`
 * and `https://user:pw@api.example.com/public/api/v1` all give
 * `https://api.example.com/public/api/v1`.
 */
export function canonicalApiUrl(rawUrl: string): string {
  let url: URL;
  try {
    url = new URL(rawUrl.trim());
  } catch {
    return rawUrl.trim();
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return rawUrl.trim();
  return `${url.origin}${normalEncoding(url.pathname).replace(/\/+$/, "")}`;
}

/**
 * Why `rawUrl` cannot be the API's base URL (http or https, no query or fragment, ending in
 * `/public/api/v1` once normalised as {@link canonicalApiUrl} does), saying what to use
 * instead; undefined when it can. The URL is quoted without its userinfo ({@link shownUrl}),
 * whose user and password are registered as secrets first.
 */
export function apiUrlProblem(rawUrl: string): string | undefined {
  const shown = JSON.stringify(shownUrl(rawUrl));
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return `${shown} is not a URL`;
  }
  for (const part of [url.username, url.password]) {
    registerSecret(part);
    try {
      registerSecret(decodeURIComponent(part));
    } catch {
      // not percent-encoded: registered as it is
    }
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `${shown} is not an http or https URL`;
  if (url.search !== "" || url.hash !== "") return `${shown} has a query or fragment: none is allowed`;
  const path = normalEncoding(url.pathname).replace(/\/+$/, "");
  if (path.endsWith(API_BASE_PATH)) return undefined;
  const other = /\/public\/api\/v[^/]*$/.test(path);
  const base = other ? path.replace(/\/public\/api\/v[^/]*$/, "") : path;
  return (
    `${shown} does not end in ${API_BASE_PATH}, the API's base path${other ? " (this client speaks v1)" : ""}: ` +
    `use "${url.origin}${base}${API_BASE_PATH}"`
  );
}

/**
 * Resolves options against the environment and defaults.
 *
 * @throws ConfigurationError, with `setting` naming the option, when the API URL or key is
 * missing ("No API key: pass `apiKey` or set CLOUDDB_API_KEY"), the key holds a line break,
 * the URL is not http(s) or does not end in `/public/api/v1`, or a number is invalid. The
 * API key is registered for redaction before anything else can fail.
 */
export function resolveConfig(options: ClouddbClientOptions = {}, env: NodeJS.ProcessEnv = process.env): ResolvedConfig {
  const rawKey = nonEmpty(options.apiKey) ?? nonEmpty(env.CLOUDDB_API_KEY);
  registerSecret(options.apiKey);
  registerSecret(env.CLOUDDB_API_KEY);
  registerSecret(rawKey);
  if (rawKey === undefined) {
    throw new ConfigurationError("No API key: pass `apiKey` or set CLOUDDB_API_KEY.", "apiKey");
  }
  const keyProblem = apiKeyProblem(rawKey);
  if (keyProblem !== undefined) throw new ConfigurationError(`The API key (from \`apiKey\` or CLOUDDB_API_KEY) ${keyProblem}`, "apiKey");
  const apiKey = rawKey;
  const rawUrl = nonEmpty(options.apiUrl) ?? nonEmpty(env.CLOUDDB_API_URL);
  if (rawUrl === undefined) {
    throw new ConfigurationError(`No API URL: pass \`apiUrl\` or set CLOUDDB_API_URL (the base URL ending in ${API_BASE_PATH}).`, "apiUrl");
  }
  const urlProblem = apiUrlProblem(rawUrl);
  if (urlProblem !== undefined) throw new ConfigurationError(`The API URL (from \`apiUrl\` or CLOUDDB_API_URL) ${urlProblem}.`, "apiUrl");
  const apiUrl = canonicalApiUrl(rawUrl);
  const projectId = nonEmpty(options.projectId) ?? nonEmpty(env.CLOUDDB_PROJECT_ID);
  const extra = nonEmpty(options.userAgent);
  const initialMs = numberSetting(
    options.poll?.initialMs,
    "poll.initialMs",
    env.CLOUDDB_POLL_INITIAL_MS,
    "CLOUDDB_POLL_INITIAL_MS",
    DEFAULT_POLL_INITIAL_MS,
    1,
  );
  const maxMs = numberSetting(
    options.poll?.maxMs,
    "poll.maxMs",
    env.CLOUDDB_POLL_MAX_MS,
    "CLOUDDB_POLL_MAX_MS",
    Math.max(DEFAULT_POLL_MAX_MS, initialMs),
    1,
  );
  return {
    apiUrl,
    apiKey,
    projectId,
    userAgent: `pulumi-clouddb/${packageVersion()}${extra === undefined ? "" : ` ${extra}`}`,
    requestTimeoutMs: numberSetting(options.requestTimeoutMs, "requestTimeoutMs", undefined, undefined, DEFAULT_REQUEST_TIMEOUT_MS, 1),
    retryDeadlineMs: numberSetting(options.retryDeadlineMs, "retryDeadlineMs", undefined, undefined, DEFAULT_RETRY_DEADLINE_MS, 0),
    unreachableRetryMs: numberSetting(
      options.unreachableRetryMs,
      "unreachableRetryMs",
      undefined,
      undefined,
      DEFAULT_UNREACHABLE_RETRY_MS,
      0,
    ),
    listCacheMs: numberSetting(options.listCacheMs, "listCacheMs", undefined, undefined, 0, 0),
    listLagMs: numberSetting(options.listLagMs, "listLagMs", env.CLOUDDB_LIST_LAG_MS, "CLOUDDB_LIST_LAG_MS", DEFAULT_LIST_LAG_MS, 0),
    poll: { initialMs, maxMs: Math.max(maxMs, initialMs) },
    expectedDurations: { ...(options.expectedDurations ?? {}) },
    pacingDir: nonEmpty(options.pacingDir),
    fleet: resolveFleet(options.fleet, env),
  };
}

/**
 * The project a call addresses: `opts.projectId`, else the client's.
 * @throws ConfigurationError "No project ID: pass `projectId` or set CLOUDDB_PROJECT_ID".
 */
export function requireProjectId(config: ResolvedConfig, override: string | undefined): string {
  const projectId = nonEmpty(override) ?? config.projectId;
  if (projectId === undefined) {
    throw new ConfigurationError("No project ID: pass `projectId` (to the client or the call) or set CLOUDDB_PROJECT_ID.", "projectId");
  }
  return projectId;
}
