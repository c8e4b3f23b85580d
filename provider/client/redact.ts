/**
 * The one place where secrets are scrubbed from text that leaves the client.
 *
 * Every {@link ClouddbError} passes its message and string fields through {@link redact}
 * in its constructor, so no error raised by this package can carry the API key or a known
 * password. The registry lives on `globalThis` under a `Symbol.for` key, so two copies of
 * this package loaded into one process share it.
 */

import { maskSpans, SecretIndex, secretSpans } from "./secretForms";

const REGISTRY_KEY = Symbol.for("pulumi-clouddb.client.secrets");

/** Secrets shorter than this are not registered: scrubbing them would mangle ordinary text. */
const MIN_SECRET_LENGTH = 4;

/** The text that replaces a secret in messages. */
export const REDACTED = "[REDACTED]";

function registry(): Set<string> {
  const holder = globalThis as unknown as Record<symbol, Set<string> | undefined>;
  let set = holder[REGISTRY_KEY];
  if (set === undefined) {
    set = new Set<string>();
    holder[REGISTRY_KEY] = set;
  }
  return set;
}

/** The registry's secrets, indexed for search: this copy's own, brought up to date with the registry (which only grows) before each scrub. */
const registered = new SecretIndex();

function registeredIndex(): SecretIndex {
  const secrets = registry();
  if (registered.size !== secrets.size) for (const s of secrets) registered.add(s);
  return registered;
}

/**
 * Registers a secret (API key, password) so that {@link redact} scrubs it from now on.
 * Values that are not strings, or shorter than 4 characters, are ignored. Never throws.
 */
export function registerSecret(secret: unknown): void {
  if (typeof secret === "string" && secret.length >= MIN_SECRET_LENGTH) {
    registry().add(secret);
  }
}

/** What a text that could not be scrubbed (memory ran out) is replaced by: nothing of it is shown. */
export const UNSCRUBBED = "[message withheld: it could not be scrubbed of secrets]";

/**
 * Returns `text` with every registered secret, every one of `extra` (4 characters or more;
 * others and undefined are skipped), and anything that looks like a bearer token after
 * `Bearer `, replaced by `[REDACTED]`: each secret in every form it can take (raw,
 * percent-encoded as a URL or a form writes it, JSON-escaped, as HTML references, base64:
 * secretForms.ts), since what answered may echo it in the encoding of where it was sent.
 * No regular expression is built from a secret: a secret of any length and any characters
 * is found by plain search, in time linear in the text's length, whatever the number of
 * secrets registered.
 * The package's one scrubber: the client's errors and the providers use it. Never throws:
 * should scrubbing itself fail, the whole text is withheld ({@link UNSCRUBBED}).
 */
export function redact(text: string, extra: ReadonlyArray<string | undefined> = []): string {
  try {
    const own = extra.filter((s): s is string => typeof s === "string" && s.length >= MIN_SECRET_LENGTH);
    const indexes = own.length === 0 ? [registeredIndex()] : [registeredIndex(), SecretIndex.of(own)];
    return maskSpans(text, secretSpans(text, indexes), REDACTED).replace(/(Bearer(?:\s|\+|%20)+)[^\s"',;&]+/gi, `$1${REDACTED}`);
  } catch {
    return UNSCRUBBED;
  }
}

const SECRET_KEY = /password|secret|token|authorization|api_?key$/i;

/**
 * Renders a value received from the server for an error message: keys that name secrets
 * (`*password*`, `*secret*`, `*token*`, `authorization`, `api_key`) are masked, registered
 * secrets are scrubbed, and the text is cut to `maxLength` characters. Never throws.
 */
export function describeReceived(value: unknown, maxLength = 300): string {
  let text: string;
  try {
    const json = JSON.stringify(value, (key, v: unknown) =>
      key !== "" && SECRET_KEY.test(key) && v !== null && typeof v !== "object" ? REDACTED : v,
    );
    text = json === undefined ? String(value) : json;
  } catch {
    text = String(value);
  }
  text = redact(text);
  return text.length > maxLength ? `${text.slice(0, maxLength)}… (${text.length} chars)` : text;
}
