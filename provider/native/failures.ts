/**
 * Check failures (CheckConfig's, Check's, Invoke's) as the engine prints them. The engine
 * prints a failure that names a property with that property's value from the program,
 * whole and in plain text, even when the program gave it as a secret (Pulumi's
 * `issueCheckFailures`: `property %v value %v has a problem`, the value printed by
 * `PropertyValue.String`, which does not hide a secret). So a failure on a property whose
 * value holds a secret names it only in its reason, with `property` empty (the dynamic
 * providers' convention, README "Bad input"), and no reason quotes a secret: the values the
 * program gave as secrets are masked as `[secret]` where the reason quotes them, and every
 * registered secret is scrubbed (client/redact.ts).
 */
import { shownUrl } from "../client/config";
import { redact } from "../client/redact";
import { topProperty } from "../framework/check";
import { secretTexts, type Wired } from "./wire";

/** A check failure: the property at fault (`""`: the resource as a whole) and why. */
export interface Failure {
  readonly property: string;
  readonly reason: string;
}

/** The text that stands for a secret value in a reason, as `check` writes it. */
const SECRET_SHOWN = "[secret]";

/** True when `value` holds, anywhere, a string that may carry a credential: a URL's userinfo, query or fragment (client/config.ts `shownUrl`). */
function carriesCredential(value: unknown): boolean {
  if (typeof value === "string") return shownUrl(value) !== value;
  if (Array.isArray(value)) return value.some(carriesCredential);
  if (value !== null && typeof value === "object") return Object.values(value).some(carriesCredential);
  return false;
}

/** `reason` with each of `values`, where it is quoted (`"value"`, as a message quotes a value it names), shown as `[secret]`. */
function maskQuoted(reason: string, values: readonly string[]): string {
  let out = reason;
  for (const v of [...values].sort((a, b) => b.length - a.length)) {
    for (const quoted of [JSON.stringify(v), `"${v}"`]) out = out.split(quoted).join(SECRET_SHOWN);
  }
  return out;
}

/**
 * `failures` safe to hand to the engine for inputs `news`: a failure whose property's value
 * the program gave as a secret, or is one of `secretKeys` (the schema's secret inputs, the
 * provider's `apiKey`), or holds what may be a credential (`https://user:password@...`), has
 * its `property` emptied (its reason names it); each reason has the strings the program gave
 * as secrets (but in `secretKeys`, which `check` shows as `[secret]` itself) masked where
 * quoted, and every registered secret scrubbed.
 */
export function forEngine(failures: readonly Failure[], news: Wired, secretKeys: Iterable<string> = []): Failure[] {
  const declared = new Set(secretKeys);
  const secret = new Set([...news.secrets, ...declared]);
  // The inputs declared secret are shown as `[secret]` by `check` itself (`settings` holds endpoints and project ids reasons name).
  const values = secretTexts(news, declared);
  return failures.map((f) => {
    const key = topProperty(f.property);
    const reason = redact(maskQuoted(f.reason, values), values);
    const hidden = key !== "" && (secret.has(key) || carriesCredential(news.props[key]));
    return { property: hidden ? "" : f.property, reason };
  });
}
