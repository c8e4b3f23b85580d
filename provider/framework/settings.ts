import type { ClouddbClient } from "../client/client";
import { ConfigurationError } from "../client/errors";
import { parseDuration, TIMEOUT_RANGE_MS, TIMEOUT_RANGE_TEXT } from "./durations";
import type { TimeoutsInput } from "./timeouts";

/** The subset of Pulumi's dynamic `Config` that the providers read. */
export interface ConfigSource {
  /** The value of a namespaced key such as `clouddb:apiUrl`, or undefined. */
  get(key: string): string | undefined;
}

/** Default timeouts, in milliseconds, for the operations that wait. */
export interface DefaultTimeouts {
  /** @default 30 minutes (`clouddb:createTimeout`) */
  readonly createMs: number;
  /** @default 30 minutes (`clouddb:updateTimeout`) */
  readonly updateMs: number;
  /** @default 30 minutes (`clouddb:deleteTimeout`) */
  readonly deleteMs: number;
}

/** What the providers know from the stack configuration and the environment. */
export interface ProviderSettings {
  /** `clouddb:apiUrl`, else `CLOUDDB_API_URL`. */
  readonly apiUrl?: string;
  /** `clouddb:apiKey` (a secret), else `CLOUDDB_API_KEY`. Never written to state or logs. */
  readonly apiKey?: string;
  /** `clouddb:projectId`, else `CLOUDDB_PROJECT_ID`: the project of resources that set none. */
  readonly projectId?: string;
  /** Defaults for each resource's `timeouts` input. */
  readonly timeouts: DefaultTimeouts;
  /** `clouddb:pollInterval` / `clouddb:pollMaxInterval`: the waiters' first and longest poll interval. */
  readonly poll: { readonly initialMs?: number; readonly maxMs?: number };
  /**
   * `clouddb:readCache`: how old a shared list answer may be when refresh reads many
   * resources (`0`, `0s` or `off` turn sharing off). @default 2s
   */
  readonly listCacheMs: number;
  /** `clouddb:requestTimeout`: how long one request may take, from its first byte sent to the last received. @default 30s */
  readonly requestTimeoutMs?: number;
}

const THIRTY_MINUTES = 30 * 60_000;
const DEFAULT_LIST_CACHE_MS = 2_000;

/** Config keys the providers read, each with the environment variable it falls back to. */
export const CONFIG_KEYS = {
  apiUrl: { key: "clouddb:apiUrl", env: "CLOUDDB_API_URL" },
  apiKey: { key: "clouddb:apiKey", env: "CLOUDDB_API_KEY" },
  projectId: { key: "clouddb:projectId", env: "CLOUDDB_PROJECT_ID" },
} as const;

let configured: ProviderSettings | undefined;
const clients = new Map<string, ClouddbClient>();

function duration(source: ConfigSource, key: string): number | undefined {
  const text = source.get(key);
  if (text === undefined || text === "") return undefined;
  try {
    return parseDuration(text);
  } catch (e) {
    throw new ConfigurationError(`Config ${key}: ${(e as Error).message}`);
  }
}

/** A timeout from the config, within {@link TIMEOUT_RANGE_MS}. @throws ConfigurationError naming the key and the range */
function timeout(source: ConfigSource, key: string): number | undefined {
  const ms = duration(source, key);
  if (ms !== undefined && (ms < TIMEOUT_RANGE_MS.min || ms > TIMEOUT_RANGE_MS.max)) {
    throw new ConfigurationError(
      `Config ${key}: ${JSON.stringify(source.get(key))} is out of range: expected a duration ${TIMEOUT_RANGE_TEXT}`,
    );
  }
  return ms;
}

/**
 * Reads the settings from the stack configuration, falling back to the environment for
 * the endpoint, key and project. Pure: no state is changed.
 */
export function readSettings(source: ConfigSource, env: NodeJS.ProcessEnv = process.env): ProviderSettings {
  const pick = (k: keyof typeof CONFIG_KEYS): string | undefined => {
    const value = source.get(CONFIG_KEYS[k].key) ?? env[CONFIG_KEYS[k].env];
    return value === "" ? undefined : value;
  };
  return {
    apiUrl: pick("apiUrl"),
    apiKey: pick("apiKey"),
    projectId: pick("projectId"),
    timeouts: {
      createMs: timeout(source, "clouddb:createTimeout") ?? THIRTY_MINUTES,
      updateMs: timeout(source, "clouddb:updateTimeout") ?? THIRTY_MINUTES,
      deleteMs: timeout(source, "clouddb:deleteTimeout") ?? THIRTY_MINUTES,
    },
    requestTimeoutMs: timeout(source, "clouddb:requestTimeout"),
    poll: { initialMs: duration(source, "clouddb:pollInterval"), maxMs: duration(source, "clouddb:pollMaxInterval") },
    listCacheMs: /^(0|0s|off)$/.test(source.get("clouddb:readCache") ?? "")
      ? 0
      : (duration(source, "clouddb:readCache") ?? DEFAULT_LIST_CACHE_MS),
  };
}

/**
 * Stores the settings for this provider process. Called from each provider's
 * `configure`, which Pulumi runs once per resource type and process with the whole
 * stack configuration.
 */
export function configure(source: ConfigSource): void {
  configured = readSettings(source);
}

/** What every provider operation is given: the settings in force and what follows from them. */
export interface ProviderContext {
  /** The settings from `configure` (else the environment's alone). */
  readonly settings: ProviderSettings;
  /**
   * The API client for these settings, one per endpoint, key and project in this process,
   * so every resource shares its connection pool and read cache. Loaded on first use:
   * `check` and `diff` never load it.
   *
   * @throws ConfigurationError naming the config key and the environment variable of a missing setting.
   */
  client(): ClouddbClient;
  /** True once {@link client} made (or found) the client for these settings: nothing to save otherwise. */
  clientLoaded(): boolean;
  /**
   * The project a resource belongs to: its own `projectId` input, else the configured one.
   *
   * @throws ConfigurationError when neither is set.
   */
  projectOf(inputProjectId: string | undefined): string;
  /** The timeout in ms for `operation`: the resource's `timeouts` input, else the configured default. */
  timeoutMs(input: TimeoutsInput | undefined, operation: keyof TimeoutsInput): number;
  /** The stack and resource a create is for (the SDK's `__owner` input), or "" when the program did not say. */
  readonly owner: string;
  /** True when `check` made the resource's name up (framework/autonaming.ts): a resource of exactly that name is this one's own. */
  readonly autonamed: boolean;
}

/**
 * The context of the settings in force: those given to {@link configure}, else the
 * environment's alone; `owner` is the `__owner` input of the resource at hand, `autonamed`
 * whether `check` made its name up.
 */
export function providerContext(owner = "", autonamed = false): ProviderContext {
  const s = configured ?? readSettings({ get: () => undefined });
  return {
    settings: s,
    owner,
    autonamed,
    client: () => clientFor(s),
    clientLoaded: () => clients.has(cacheKeyOf(s)),
    projectOf(inputProjectId) {
      const project = inputProjectId ?? s.projectId;
      if (!project) {
        throw new ConfigurationError(
          `No project: set the resource's projectId, \`pulumi config set ${CONFIG_KEYS.projectId.key} <id>\`, or the ${CONFIG_KEYS.projectId.env} environment variable`,
        );
      }
      return project;
    },
    timeoutMs(input, operation) {
      const given = input?.[operation];
      return given !== undefined ? parseDuration(given) : s.timeouts[`${operation}Ms`];
    },
  };
}

function cacheKeyOf(s: ProviderSettings): string {
  return JSON.stringify([s.apiUrl, s.apiKey, s.projectId, s.poll, s.listCacheMs, s.requestTimeoutMs]);
}

function clientFor(s: ProviderSettings): ClouddbClient {
  const cacheKey = cacheKeyOf(s);
  let found = clients.get(cacheKey);
  if (!found) {
    for (const k of ["apiUrl", "apiKey"] as const) {
      if (!s[k]) {
        throw new ConfigurationError(
          `No ${k}: set it with \`pulumi config set ${CONFIG_KEYS[k].key}${k === "apiKey" ? " --secret" : ""} <value>\` or the ${CONFIG_KEYS[k].env} environment variable`,
        );
      }
    }
    // Loaded here, not at the top: `check` and `diff` never need undici, the client or the priors' file.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { ClouddbClient: Client } = require("../client/client") as typeof import("../client/client");
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { loadPriors } = require("./transitionPriors") as typeof import("./transitionPriors");
    found = new Client({
      apiUrl: s.apiUrl,
      apiKey: s.apiKey,
      projectId: s.projectId,
      listCacheMs: s.listCacheMs,
      ...(s.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: s.requestTimeoutMs }),
      poll: s.poll,
      expectedDurations: loadPriors(s.apiUrl!),
    });
    clients.set(cacheKey, found);
  }
  return found;
}
