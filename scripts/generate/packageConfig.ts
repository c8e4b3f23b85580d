/**
 * The package's configuration in the package schema (`schema.json`): one variable per key
 * the providers read (`provider/framework/settings.ts`). The keys, their namespace (the
 * package's name), their order, the environment variables they fall back to and the
 * defaults are read from the settings code; what each means, and that `apiKey` is a
 * secret, is written here, because settings.ts has no table that says it. Generation
 * fails when the keys the settings read and the ones described here differ.
 */
import {
  API_BASE_PATH,
  DEFAULT_LIST_LAG_MS,
  DEFAULT_POLL_INITIAL_MS,
  DEFAULT_POLL_MAX_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
} from "../../provider/client/config";
import { parseDuration } from "../../provider/framework/durations";
import type { SettingName } from "../../provider/framework/settingProblems";
import { CONFIG_KEYS, readSettings, type ProviderSettings } from "../../provider/framework/settings";
import type { PropertySpec, TypeSpec } from "./pulumiSchemaSpec";

/** What a configuration variable means, besides what the settings code says of it. */
interface VariableDoc {
  readonly doc: string;
  readonly secret?: true;
  /** Its type, when it is not a string. */
  readonly type?: TypeSpec;
  /** A duration: its value in milliseconds in the settings an empty configuration gives (its default), or undefined when it has none. */
  readonly duration?: (unset: ProviderSettings) => number | undefined;
}

const DURATION = 'seconds (`600`) or a duration such as `"90s"`, `"30m"`, `"1h30m"`';

/** The meaning of each key, by its name without the namespace. */
const VARIABLES: Readonly<Record<string, VariableDoc>> = {
  apiUrl: { doc: `Base URL of the API, ending in \`${API_BASE_PATH}\`.` },
  apiKey: { doc: "API key: a personal access token or OAuth token. Never written to state, logs or error messages.", secret: true },
  projectId: { doc: "Project of every resource that sets no `projectId`." },
  createTimeout: {
    doc: `How long a create may wait, for resources whose \`customTimeouts\` option (or, with the dynamic providers, \`timeouts\` input) sets no \`create\`: ${DURATION}.`,
    duration: (s) => s.timeouts.createMs,
  },
  updateTimeout: {
    doc: `How long an update may wait, for resources whose \`customTimeouts\` option (or, with the dynamic providers, \`timeouts\` input) sets no \`update\`: ${DURATION}.`,
    duration: (s) => s.timeouts.updateMs,
  },
  deleteTimeout: {
    doc: `How long a delete may wait, for resources whose \`customTimeouts\` option (or, with the dynamic providers, \`timeouts\` input) sets no \`delete\`: ${DURATION}.`,
    duration: (s) => s.timeouts.deleteMs,
  },
  pollInterval: {
    doc: `First wait between status polls: ${DURATION}. Unset: \`CLOUDDB_POLL_INITIAL_MS\` (milliseconds), else ${durationText(DEFAULT_POLL_INITIAL_MS)}.`,
    duration: (s) => s.poll.initialMs,
  },
  pollMaxInterval: {
    doc: `Longest wait between status polls: ${DURATION}. Unset: \`CLOUDDB_POLL_MAX_MS\` (milliseconds), else ${durationText(DEFAULT_POLL_MAX_MS)}.`,
    duration: (s) => s.poll.maxMs,
  },
  readCache: {
    doc: `How old a shared list answer may be when a refresh reads many resources: ${DURATION}; \`0\`, \`0s\` or \`off\` turn sharing off.`,
    duration: (s) => s.listCacheMs,
  },
  requestTimeout: {
    doc: `How long one request may take, from its first byte sent to its last received: ${DURATION}. Unset: ${durationText(DEFAULT_REQUEST_TIMEOUT_MS)}.`,
  },
  ownership: {
    doc:
      "Who made each resource whose state does not say (state written by pulumi-clouddb 0.1.0), for its delete: an object of " +
      'resource types, each an object of ids, each `"made"` (the stack made it: it is deleted) or `"adopted"` (it stays in the ' +
      "cloud and leaves the stack). Set one with `pulumi config set --path clouddb:ownership.<Kind>.<id> made`; a delete that needs " +
      "it prints the command. `CLOUDDB_OWNERSHIP` (the same object as JSON) is read as well.",
    type: { type: "object", additionalProperties: { type: "object", additionalProperties: { type: "string" } } },
  },
  listLag: {
    doc:
      `How long the API's lists may take to show what a create made, from when the provider stopped waiting for the create's answer: ${DURATION}, or \`0\`. ` +
      "After an answer lost on the way, a list read that long after the request ended that shows nothing the create made proves it made nothing, " +
      "and the create is sent again (in the same `up` when its create timeout allows the wait, else in the next). Raise it for an API or gateway slower than that. " +
      `Unset: \`CLOUDDB_LIST_LAG_MS\` (milliseconds), else ${durationText(DEFAULT_LIST_LAG_MS)}.`,
    duration: (s) => s.listLagMs,
  },
};

/** `ms` as a duration `parseDuration` reads back to the same value: `1800000` is `"30m"`. */
function durationText(ms: number): string {
  const units: ReadonlyArray<readonly [string, number]> = [
    ["h", 3_600_000],
    ["m", 60_000],
    ["s", 1_000],
    ["ms", 1],
  ];
  let rest = ms;
  const parts: string[] = [];
  for (const [unit, size] of units) {
    const n = Math.floor(rest / size);
    if (n > 0) parts.push(`${n}${unit}`);
    rest -= n * size;
  }
  const text = parts.join("");
  if (text === "" || parseDuration(text) !== ms) throw new Error(`${ms} ms cannot be written as a duration`);
  return text;
}

/** The configuration keys the settings read (`clouddb:apiUrl`, ...), in the order they read them. */
export function configKeysRead(): string[] {
  const keys = new Set<string>();
  readSettings(
    {
      get: (key) => {
        keys.add(key);
        return undefined;
      },
    },
    {},
  );
  return [...keys];
}

/** The package's configuration: its namespace (the package's name) and its variables. */
export interface PackageConfig {
  readonly namespace: string;
  readonly variables: Record<string, PropertySpec>;
}

/**
 * The configuration variables of the package, from the keys the settings read.
 *
 * @throws Error when the keys do not share one namespace, or differ from the ones described here.
 */
export function packageConfig(): PackageConfig {
  const read = configKeysRead().map((key) => key.split(":"));
  const namespaces = new Set(read.map(([namespace]) => namespace));
  if (namespaces.size !== 1) throw new Error(`the settings read keys of several namespaces: ${[...namespaces].join(", ")}`);
  const names = read.map(([, name]) => name);
  const undescribed = names.filter((n) => !(n in VARIABLES));
  const unread = Object.keys(VARIABLES).filter((n) => !names.includes(n));
  if (undescribed.length || unread.length) {
    throw new Error(
      `scripts/generate/packageConfig.ts describes the configuration keys the settings read: add ${undescribed.join(", ") || "none"}, remove ${unread.join(", ") || "none"}`,
    );
  }
  const unset = readSettings({ get: () => undefined }, {});
  const env: Readonly<Record<string, SettingName>> = CONFIG_KEYS;
  const variables = Object.fromEntries(
    names.map((name) => {
      const { doc, secret, duration, type } = VARIABLES[name];
      const ms = duration?.(unset);
      const spec: PropertySpec = {
        ...(type ?? { type: "string" }),
        description: doc,
        ...(ms === undefined ? {} : { default: durationText(ms) }),
        // The SDKs read a default from the environment as a string: only a string key names its
        // variable (the providers read the others, such as CLOUDDB_OWNERSHIP's JSON, themselves).
        ...(env[name]?.env === undefined || type !== undefined ? {} : { defaultInfo: { environment: [env[name].env] } }),
        ...(secret ? { secret } : {}),
      };
      return [name, spec];
    }),
  );
  return { namespace: [...namespaces][0], variables };
}
