/**
 * The `clouddb` provider's configuration: the keys the framework reads
 * (framework/settings.ts `CONFIG_KEYS`: `apiUrl`, `apiKey`, `projectId`, the timeouts, the
 * poll settings, ...), given to the provider resource, whether the default one (the stack's
 * `clouddb:*` config) or an explicit `clouddb.Provider`. CheckConfig judges the values given
 * with the framework's own rules; Configure hands them to the framework, which falls back to
 * the environment (`CLOUDDB_API_URL`, ...) for what is not given, as for the dynamic providers.
 */
import { sameValue } from "../framework/diff";
import { CONFIG_KEYS, configure, readSettings, type ConfigSource } from "../framework/settings";
import type { NativeDiff } from "./detailedDiff";
import { containsUnknown } from "../framework/unknowns";
import type { Bag } from "./protos";
import type { Failure } from "./failures";

/** The configuration keys by name (`apiUrl`), each with its namespaced key (`clouddb:apiUrl`). */
const KEYS: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(CONFIG_KEYS).map(([name, s]) => [name, s.key]));

/** What the engine adds to every provider's inputs, which are no configuration of ours. */
const ENGINE_KEYS: ReadonlySet<string> = new Set(["version", "pluginDownloadURL"]);

/**
 * The provider's inputs as the framework reads configuration: `clouddb:<name>` for each key
 * given, of the type it was given (the framework says which types each key takes). A value
 * not known yet (a preview of a provider whose inputs are outputs) is left out.
 */
export function configSourceOf(args: Bag): ConfigSource {
  const values = new Map<string, unknown>();
  for (const [name, value] of Object.entries(args)) {
    const key = KEYS[name];
    if (key !== undefined && value !== undefined && value !== null && !containsUnknown(value)) values.set(key, value);
  }
  return { get: (key) => values.get(key) };
}

/**
 * The failures of a provider's inputs: a key that is no configuration key (naming those that
 * are), and each value given that cannot work (the framework's message, naming the key).
 * What is not given is no failure here: the environment may give it, and a resource's own
 * `settings` may stand for it; each resource's check reports what it lacks.
 */
export function checkConfig(args: Bag): Failure[] {
  const failures: Failure[] = [];
  for (const name of Object.keys(args)) {
    if (ENGINE_KEYS.has(name) || name in KEYS) continue;
    failures.push({ property: name, reason: `${name} is no configuration key of clouddb; the keys are: ${Object.keys(KEYS).join(", ")}` });
  }
  const given = configSourceOf(args);
  const byKey = new Map(Object.entries(KEYS).map(([name, key]) => [key, name]));
  for (const problem of readSettings(given, {}).problems) {
    const name = byKey.get(problem.key);
    if (name !== undefined && given.get(problem.key) !== undefined) failures.push({ property: name, reason: problem.message });
  }
  return failures;
}

/** Configures the framework with the provider's inputs (the engine runs one plugin process per provider resource). */
export function configureProvider(args: Bag): ConfigSource {
  const source = configSourceOf(args);
  configure(source);
  return source;
}

/**
 * What changed between a provider's recorded inputs and its new ones: an update of the
 * provider resource (its new settings recorded), never a replacement, neither of the provider
 * nor of its resources. A new endpoint, key or timeout applies from the next operation on.
 */
export function diffConfig(olds: Bag, news: Bag): NativeDiff {
  const keys = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter((k) => !ENGINE_KEYS.has(k)).sort();
  const changed = keys.filter((k) => !sameValue(olds[k] ?? null, news[k] ?? null));
  const kind = (k: string) =>
    olds[k] === undefined || olds[k] === null ? "add" : news[k] === undefined || news[k] === null ? "delete" : "update";
  return {
    changes: changed.length > 0,
    replaces: [],
    diffs: changed,
    detailedDiff: Object.fromEntries(changed.map((k) => [k, { kind: kind(k), inputDiff: true }])),
  };
}
