/**
 * The type each configuration key takes (`clouddb:*`, its `CLOUDDB_*` variable, the native
 * provider's inputs): the endpoint, the key and the project are text; the timeouts, the poll
 * intervals and the read cache are durations (a number of seconds, or a string such as
 * `"30m"`). A value of another type fails `check` and `configure` naming the key, the type it
 * has and what is allowed (never a value: the key is a secret), instead of reaching the API
 * as text and failing there with 401 or 403.
 *
 * A structured stack config value (a map or a list under the key in `Pulumi.<stack>.yaml`, or
 * one set with `pulumi config set --path`) reaches a provider as its JSON text, whichever
 * host runs it (pkg/resource/deploy/target.go `GetPackageConfig` passes `config.Value`'s text):
 * so a string that is the JSON of an object or an array is taken for what it is. No value of
 * these keys is ever written so (a URL, a key, an id, a duration never start with `{` or `[`).
 */
import { typeOf } from "../../contract/rules";

/** What a configuration key takes: text, or a duration. */
export type SettingKind = "text" | "duration";

/** What a key of each kind takes, in words. */
const EXPECTED: Readonly<Record<SettingKind, string>> = {
  text: "a string",
  duration: 'a number of seconds or a string such as "90s", "30m", "1h30m"',
};

/** The type of the object or array whose JSON `text` is, or undefined when it is no such JSON. */
function structuredType(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return undefined;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    return parsed !== null && typeof parsed === "object"
      ? `${typeOf(parsed)} (a structured config value, which arrives as JSON)`
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why `value` (given, not blank) is of a type a key of `kind` does not take, or undefined when
 * it is of one it takes: a string (not the JSON of an object or array), or for a duration also
 * a number. The reason names the type and what is allowed, never the value.
 */
export function settingTypeProblem(value: unknown, kind: SettingKind): string | undefined {
  const found =
    typeof value === "string" ? structuredType(value) : typeof value === "number" && kind === "duration" ? undefined : typeOf(value);
  return found === undefined ? undefined : `${found} where ${EXPECTED[kind]} is expected`;
}

/** True when a config value counts as not given: absent, `null`, or a blank string. */
export function unset(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === "string" && value.trim() === "");
}
