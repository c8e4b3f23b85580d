/**
 * How the providers say that their configuration cannot work: each problem names the
 * stack config key and the environment variable it falls back to (`clouddb:apiUrl /
 * CLOUDDB_API_URL: ...`), where the value came from, and how to set it. All problems are
 * reported together: as `check` failures (so `pulumi preview` shows them), and in one
 * {@link ConfigurationError} from any operation that needs the API.
 */
import { ConfigurationError } from "../client/errors";

/** A setting the providers read: its stack config key, and the environment variable it falls back to, if any. */
export interface SettingName {
  /** The namespaced stack config key, `clouddb:apiUrl`. */
  readonly key: string;
  /** The environment variable read when the key is not set, `CLOUDDB_API_URL`. */
  readonly env?: string;
}

/** One setting that cannot work, and why. */
export interface SettingProblem {
  /** The setting at fault, as {@link SettingName.key} names it. */
  readonly key: string;
  /** What is wrong and how to set it, naming the config key and the variable. */
  readonly message: string;
}

/** `clouddb:apiUrl / CLOUDDB_API_URL`: the names every message starts with. */
function names(setting: SettingName): string {
  return setting.env === undefined ? setting.key : `${setting.key} / ${setting.env}`;
}

/** The ways given, as a sentence: `a`, `a or b`, `a, b or c`. */
function either(ways: readonly string[]): string {
  return ways.length <= 1 ? ways.join("") : `${ways.slice(0, -1).join(", ")} or ${ways[ways.length - 1]}`;
}

/**
 * A setting that is set neither in the stack config nor in the environment: how to set it
 * (the `pulumi config set` command, `--secret` for a secret, or the variable).
 *
 * @param placeholder what to put in the command, e.g. `<key>`
 * @param secret whether the command sets it `--secret`
 * @param otherWay another way to give it, e.g. the resource's own input
 */
export function notSet(setting: SettingName, placeholder: string, secret = false, otherWay?: string): SettingProblem {
  const ways = [`run \`pulumi config set${secret ? " --secret" : ""} ${setting.key} ${placeholder}\``];
  if (setting.env !== undefined) ways.push(`set ${setting.env}`);
  if (otherWay !== undefined) ways.push(otherWay);
  return { key: setting.key, message: `${names(setting)}: ${setting.env === undefined ? "not set" : "neither is set"}: ${either(ways)}` };
}

/**
 * A setting whose value cannot work.
 *
 * @param fromEnv whether the value came from the environment variable (the config key being unset)
 * @param problem what is wrong with it, quoting it unless it is a secret
 */
export function invalid(setting: SettingName, fromEnv: boolean, problem: string): SettingProblem {
  const source = setting.env === undefined ? "" : ` (from ${fromEnv ? setting.env : setting.key})`;
  return { key: setting.key, message: `${names(setting)}${source}: ${problem}` };
}

/**
 * The error of an operation that cannot run with these problems: one message lists them
 * all, one a line. `setting` is the key at fault when there is one.
 */
export function configurationError(problems: readonly SettingProblem[]): ConfigurationError {
  if (problems.length === 1) return new ConfigurationError(problems[0].message, problems[0].key);
  return new ConfigurationError(
    `The provider's configuration cannot work (${problems.length} problems):\n${problems.map((p) => `  ${p.message}`).join("\n")}`,
  );
}
