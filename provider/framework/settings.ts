import type { ClouddbClient } from "../client/client";
import { cancellationSignal } from "./cancellation";
import { apiKeyProblem, apiUrlProblem, canonicalApiUrl, DEFAULT_LIST_LAG_MS, numberProblem } from "../client/config";
import { settingTypeProblem, unset, type SettingKind } from "../client/configValues";
import { FLEET_MACHINES_ENV, resolveFleet } from "../client/fleetConfig";
import { DEFAULT_OPERATION_TIMEOUT_MS, parseDuration, TIMEOUT_RANGE_MS, TIMEOUT_RANGE_TEXT } from "./durations";
import { NO_ANSWERS, OWNERSHIP_CONFIG_KEY, OWNERSHIP_ENV, parseOwnership, type Ownership, type OwnershipAnswers } from "./ownership";
import { configurationError, invalid, notSet, type SettingName, type SettingProblem } from "./settingProblems";
import type { TimeoutsInput } from "./timeouts";
import type { SettingsOverride } from "./settingsOverride";

/** The subset of Pulumi's dynamic `Config` that the providers read. */
export interface ConfigSource {
  /**
   * The value of a namespaced key such as `clouddb:apiUrl`, or undefined: a string from the
   * stack config (a structured value as its JSON text), any JSON value from the native
   * provider's inputs (an explicit provider's arguments keep their types).
   */
  get(key: string): unknown;
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
  /**
   * `clouddb:apiUrl`, else `CLOUDDB_API_URL`, in its one form (`canonicalApiUrl`: scheme and
   * host in lower case, no default port, no trailing slash, no userinfo): every key derived
   * from the endpoint (journal entries, locks, pacing files, learned transition times, the
   * process's clients) uses it, so two spellings of one endpoint never make two of anything.
   */
  readonly apiUrl?: string;
  /**
   * The endpoint as it was given (trimmed), where it differs from {@link apiUrl}: the text
   * earlier versions keyed the journal's entries and the learned transition times by, still
   * looked up (framework/journal.ts).
   */
  readonly apiUrlAsGiven?: string;
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
  /**
   * `clouddb:ownership` and `CLOUDDB_OWNERSHIP`: the user's word on who made each resource
   * whose state does not say (framework/ownership.ts). @default none
   */
  readonly ownership: OwnershipAnswers;
  /**
   * `clouddb:listLag`, else `CLOUDDB_LIST_LAG_MS`: the bound within which the API's list shows
   * what a create made, from when the client stopped waiting for its request. After a lost
   * answer, a list read that long after the request ended that shows nothing it made proves
   * it made nothing, and the create is sent again (the client's createRecovery.ts; the
   * journal's interruptedCreates.ts). @default 30s
   */
  readonly listLagMs: number;
  /**
   * What cannot work in these settings (a missing endpoint or key, a URL without
   * `/public/api/v1`, a duration that is not one), each naming its config key and
   * variable. Every operation that needs the API fails with all of them; `check` reports
   * them. Empty when all is well.
   */
  readonly problems: readonly SettingProblem[];
}

const DEFAULT_LIST_CACHE_MS = 2_000;

/** Config keys the providers read, each with the environment variable it falls back to, if any. */
export const CONFIG_KEYS = {
  apiUrl: { key: "clouddb:apiUrl", env: "CLOUDDB_API_URL" },
  apiKey: { key: "clouddb:apiKey", env: "CLOUDDB_API_KEY" },
  projectId: { key: "clouddb:projectId", env: "CLOUDDB_PROJECT_ID" },
  pollInterval: { key: "clouddb:pollInterval", env: "CLOUDDB_POLL_INITIAL_MS" },
  pollMaxInterval: { key: "clouddb:pollMaxInterval", env: "CLOUDDB_POLL_MAX_MS" },
  createTimeout: { key: "clouddb:createTimeout" },
  updateTimeout: { key: "clouddb:updateTimeout" },
  deleteTimeout: { key: "clouddb:deleteTimeout" },
  readCache: { key: "clouddb:readCache" },
  requestTimeout: { key: "clouddb:requestTimeout" },
  ownership: { key: OWNERSHIP_CONFIG_KEY, env: OWNERSHIP_ENV },
  listLag: { key: "clouddb:listLag", env: "CLOUDDB_LIST_LAG_MS" },
} as const satisfies Record<string, SettingName>;

/** The settings' endpoint fields for `given` (the text of the config, the variable or a `settings` input). */
function endpoint(given: string | undefined): Pick<ProviderSettings, "apiUrl" | "apiUrlAsGiven"> {
  if (given === undefined) return {};
  const apiUrl = canonicalApiUrl(given);
  return apiUrl === given ? { apiUrl } : { apiUrl, apiUrlAsGiven: given };
}

/**
 * The spellings of an endpoint that files on this machine may be keyed by, in the order they
 * are looked up: its one form, then the text as given where it differs (earlier versions keyed
 * the journal's entries and the learned transition times by it).
 */
export function endpointSpellings(s: Pick<ProviderSettings, "apiUrl" | "apiUrlAsGiven">): string[] {
  return [s.apiUrl ?? "", ...(s.apiUrlAsGiven === undefined ? [] : [s.apiUrlAsGiven])];
}

let configured: ProviderSettings | undefined;
const clients = new Map<string, ClouddbClient>();

/**
 * Reads the settings from the stack configuration, falling back to the environment for
 * the endpoint, key, project and poll intervals. Never throws: what cannot work is in
 * `problems`. Pure: no state is changed.
 */
export function readSettings(source: ConfigSource, env: NodeJS.ProcessEnv = process.env): ProviderSettings {
  const problems: SettingProblem[] = [];
  /** The value of `setting` of `kind` from `raw` (the config key's, or else the variable's), or undefined (unset, or of a type it does not take: a problem). */
  const mistyped = new Set<string>();
  const typed = (setting: SettingName, kind: SettingKind, raw: unknown, fromEnv: boolean): string | number | undefined => {
    if (unset(raw)) return undefined;
    const problem = settingTypeProblem(raw, kind);
    if (problem === undefined) return raw as string | number;
    problems.push(invalid(setting, fromEnv, problem));
    mistyped.add(setting.key);
    return undefined;
  };
  const read = new Map<string, string | undefined>();
  /** The config key's value as text, read once per key (so a problem is told once); `kind` says what it takes. */
  const configured = (setting: SettingName, kind: SettingKind = "text"): string | undefined => {
    if (!read.has(setting.key)) {
      const value = typed(setting, kind, source.get(setting.key), false);
      read.set(setting.key, value === undefined ? undefined : String(value));
    }
    return read.get(setting.key);
  };
  const fromEnv = (setting: SettingName): string | undefined => {
    const value = setting.env === undefined ? undefined : env[setting.env];
    return value === undefined || value.trim() === "" ? undefined : (typed(setting, "text", value, true) as string | undefined);
  };
  /** Text: the config key's, else (when the key is not given at all) the variable's. */
  const pick = (setting: SettingName): string | undefined => (unset(source.get(setting.key)) ? fromEnv(setting) : configured(setting));
  const duration = (setting: SettingName): number | undefined => {
    const text = configured(setting, "duration");
    if (text === undefined) return undefined;
    try {
      return parseDuration(text);
    } catch (e) {
      problems.push(invalid(setting, false, (e as Error).message));
      return undefined;
    }
  };
  /** A timeout: a duration within {@link TIMEOUT_RANGE_MS}. */
  const timeout = (setting: SettingName): number | undefined => {
    const ms = duration(setting);
    if (ms === undefined || (ms >= TIMEOUT_RANGE_MS.min && ms <= TIMEOUT_RANGE_MS.max)) return ms;
    problems.push(
      invalid(setting, false, `${JSON.stringify(configured(setting))} is out of range: expected a duration ${TIMEOUT_RANGE_TEXT}`),
    );
    return undefined;
  };
  /** A poll interval: the config key's duration, else the variable's milliseconds (which the client reads itself). */
  const interval = (setting: SettingName): number | undefined => {
    if (unset(source.get(setting.key))) {
      const ms = fromEnv(setting);
      const problem = ms === undefined ? undefined : numberProblem(ms, 1);
      if (problem !== undefined) problems.push(invalid(setting, true, `${problem} (milliseconds)`));
    }
    return duration(setting);
  };

  /** The config key's duration, where a duration may also be none: 0 for a value `zero` takes (`0`, `0s`...), undefined when unset. */
  const durationOrZero = (setting: SettingName, zero: RegExp): number | undefined => {
    const text = configured(setting, "duration")?.trim();
    return text === undefined ? undefined : zero.test(text) ? 0 : duration(setting);
  };
  /** The list's bound: the config key's duration (`0` too), else the variable's milliseconds; within 0 to {@link TIMEOUT_RANGE_MS}'s longest. */
  const listLag = (setting: SettingName): number => {
    const text = configured(setting, "duration")?.trim();
    const ms = fromEnv(setting);
    let lag: number | undefined;
    if (text !== undefined) lag = durationOrZero(setting, /^(0|0s|0ms)$/);
    else if (ms !== undefined) {
      const problem = numberProblem(ms, 0);
      if (problem !== undefined) problems.push(invalid(setting, true, `${problem} (milliseconds)`));
      else lag = Number(ms.trim());
    }
    if (lag !== undefined && lag > TIMEOUT_RANGE_MS.max) {
      problems.push(
        invalid(setting, text === undefined, `${JSON.stringify(text ?? ms)} is out of range: expected a duration from 0 to 168h (7 days)`),
      );
      lag = undefined;
    }
    return lag ?? DEFAULT_LIST_LAG_MS;
  };

  const { apiUrl: url, apiKey: key, projectId: project } = CONFIG_KEYS;
  const apiUrl = pick(url)?.trim();
  const apiKey = pick(key)?.trim();
  if (apiUrl === undefined) {
    if (!mistyped.has(url.key)) problems.push(notSet(url, "https://<host>/public/api/v1"));
  } else {
    const problem = apiUrlProblem(apiUrl);
    if (problem !== undefined) problems.push(invalid(url, unset(source.get(url.key)), problem));
  }
  if (apiKey === undefined) {
    if (!mistyped.has(key.key)) problems.push(notSet(key, "<key>", true));
  } else {
    const problem = apiKeyProblem(apiKey);
    if (problem !== undefined) problems.push(invalid(key, unset(source.get(key.key)), `the key ${problem}`));
  }
  /**
   * The answers of one source (the config key's, the variable's), or none when it is unset or
   * cannot be read. Ownership is an object: its JSON text (stack config, the variable) or the
   * object itself (an explicit provider's input), so it is read apart from the text keys.
   */
  const answers = (value: unknown, fromEnv: boolean): Map<string, Ownership> => {
    if (unset(value)) return new Map();
    const read = parseOwnership(value);
    if ("answers" in read) return read.answers;
    problems.push(invalid(CONFIG_KEYS.ownership, fromEnv, read.problem));
    return new Map();
  };
  // The order keys are read in is the order of the schema's configuration (scripts/generate reads it so).
  const listCacheMs = durationOrZero(CONFIG_KEYS.readCache, /^(0|0s|off)$/) ?? DEFAULT_LIST_CACHE_MS;
  const ownershipConfig = answers(source.get(CONFIG_KEYS.ownership.key), false);
  const ownershipEnv = answers(env[OWNERSHIP_ENV], true);
  // The fleet is the machine's (its variables), read by the client itself: told here before anything is sent.
  try {
    resolveFleet(undefined, env);
  } catch (e) {
    problems.push({ key: FLEET_MACHINES_ENV, message: (e as Error).message });
  }
  return {
    ...endpoint(apiUrl),
    apiKey,
    projectId: pick(project)?.trim(),
    timeouts: {
      createMs: timeout(CONFIG_KEYS.createTimeout) ?? DEFAULT_OPERATION_TIMEOUT_MS,
      updateMs: timeout(CONFIG_KEYS.updateTimeout) ?? DEFAULT_OPERATION_TIMEOUT_MS,
      deleteMs: timeout(CONFIG_KEYS.deleteTimeout) ?? DEFAULT_OPERATION_TIMEOUT_MS,
    },
    requestTimeoutMs: timeout(CONFIG_KEYS.requestTimeout),
    poll: { initialMs: interval(CONFIG_KEYS.pollInterval), maxMs: interval(CONFIG_KEYS.pollMaxInterval) },
    listCacheMs,
    ownership: ownershipConfig.size + ownershipEnv.size === 0 ? NO_ANSWERS : { config: ownershipConfig, env: ownershipEnv },
    listLagMs: listLag(CONFIG_KEYS.listLag),
    problems,
  };
}

/**
 * Stores the settings for this provider process. Called from each provider's
 * `configure`, which Pulumi runs once per resource type and process with the whole
 * stack configuration. Never throws (Pulumi's host keeps a provider whose `configure`
 * failed, unconfigured): what cannot work is reported by `check` and by every operation.
 */
export function configure(source: ConfigSource): void {
  configured = readSettings(source);
}

/** The problem of a resource that gives no project when none is configured. */
const NO_PROJECT = notSet(CONFIG_KEYS.projectId, "<project id>", false, "give the resource a projectId");

/**
 * The check failures of the configuration in force, for a resource whose `projectId`
 * input is `projectId`: one per problem (a project only when the resource gives none and
 * none is configured; an unknown one, in a preview, is given). Empty when all is well.
 */
export function configurationFailures(projectId: unknown, override?: SettingsOverride): { property: string; reason: string }[] {
  const s = settingsFor(override);
  // A project of the wrong type is told as such, not as one not set.
  const noProject = projectId === undefined && s.projectId === undefined && !s.problems.some((p) => p.key === CONFIG_KEYS.projectId.key);
  return [...s.problems, ...(noProject ? [NO_PROJECT] : [])].map((p) => ({ property: "", reason: p.message }));
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
   * @throws ConfigurationError listing every problem of the settings, each naming its config key and variable.
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

/** The keys an override stands in for. */
const OVERRIDDEN: Readonly<Record<keyof SettingsOverride, string>> = {
  apiUrl: CONFIG_KEYS.apiUrl.key,
  apiKey: CONFIG_KEYS.apiKey.key,
  projectId: CONFIG_KEYS.projectId.key,
};

/**
 * The settings in force for a resource: those given to {@link configure} (else the
 * environment's alone), with what its `settings` input sets in their place. Problems of the
 * stack's value of a setting the resource sets are not its problems (its own values are
 * checked by `check`, as inputs).
 */
export function settingsFor(override: SettingsOverride = {}): ProviderSettings {
  const base = configured ?? readSettings({ get: () => undefined });
  const given = (Object.keys(OVERRIDDEN) as Array<keyof SettingsOverride>).filter((k) => override[k] !== undefined);
  if (given.length === 0) return base;
  const keys = new Set(given.map((k) => OVERRIDDEN[k]));
  return {
    ...base,
    ...Object.fromEntries(given.map((k) => [k, override[k]])),
    ...(override.apiUrl === undefined ? {} : { apiUrlAsGiven: undefined, ...endpoint(override.apiUrl) }),
    problems: base.problems.filter((p) => !keys.has(p.key)),
  };
}

/**
 * The context of the settings in force for a resource (see {@link settingsFor}); `owner` is
 * the `__owner` input of the resource at hand, `autonamed` whether `check` made its name up,
 * `override` what its `settings` input sets.
 */
export function providerContext(owner = "", autonamed = false, override?: SettingsOverride): ProviderContext {
  const s = settingsFor(override);
  return {
    settings: s,
    owner,
    autonamed,
    client: () => clientFor(s),
    clientLoaded: () => clients.has(cacheKeyOf(s)),
    projectOf(inputProjectId) {
      const project = inputProjectId ?? s.projectId;
      if (!project) throw configurationError([NO_PROJECT]);
      return project;
    },
    timeoutMs(input, operation) {
      const given = input?.[operation];
      return given !== undefined ? parseDuration(given) : s.timeouts[`${operation}Ms`];
    },
  };
}

function cacheKeyOf(s: ProviderSettings): string {
  return JSON.stringify([s.apiUrl, s.apiKey, s.projectId, s.poll, s.listCacheMs, s.requestTimeoutMs, s.listLagMs]);
}

function clientFor(s: ProviderSettings): ClouddbClient {
  const cacheKey = cacheKeyOf(s);
  let found = clients.get(cacheKey);
  if (!found) {
    if (s.problems.length > 0) throw configurationError(s.problems);
    // Loaded here, not at the top: `check` and `diff` never need undici, the client or the priors' file.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { ClouddbClient: Client } = require("../client/client") as typeof import("../client/client");
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { loadPriors } = require("./transitionPriors") as typeof import("./transitionPriors");
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const pacingDir = (require("./journalStore") as typeof import("./journalStore")).pacingDir();
    found = new Client({
      apiUrl: s.apiUrl,
      apiKey: s.apiKey,
      projectId: s.projectId,
      listCacheMs: s.listCacheMs,
      listLagMs: s.listLagMs,
      ...(s.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: s.requestTimeoutMs }),
      poll: s.poll,
      expectedDurations: loadPriors(...endpointSpellings(s)),
      ...(pacingDir === undefined ? {} : { pacingDir }),
      // The process's one cancellation signal: Cancel, or the engine gone, stops this client too, whenever it is made (cancellation.ts).
      signal: cancellationSignal(),
    });
    clients.set(cacheKey, found);
  }
  return found;
}
