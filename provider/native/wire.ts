/**
 * Property values on the wire, as the engine sends them to a provider that accepts secrets:
 * a secret is `{ [SIG]: SECRET_SIG, value }`, a value not known yet (a preview) is the
 * string {@link UNKNOWN}. The resources see plain values (unknowns kept as that string, which
 * the framework understands) and the top-level keys that held a secret; what the plugin
 * returns is wrapped again, so a secret never reaches state in plain text. Every string the
 * engine sends as a secret is registered with the package's scrubber as it arrives
 * (client/redact.ts): no message of this process quotes it from then on.
 */
import { registerSecret } from "../client/redact";
import { UNKNOWN } from "../framework/unknowns";
import type { Bag } from "./protos";

/** The key that marks a special value (Pulumi's `specialSigKey`). */
export const SIG = "4dabf18193072939515e22adb298388d";
/** The signature of a secret (Pulumi's `specialSecretSig`). */
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** A bag read from the wire: plain values, and the top-level keys that were (or held) secrets. */
export interface Wired {
  readonly props: Bag;
  readonly secrets: ReadonlySet<string>;
}

function isSecret(v: unknown): v is { readonly value: unknown } {
  return v !== null && typeof v === "object" && (v as Bag)[SIG] === SECRET_SIG;
}

/** `v` without secret wrappers anywhere, and whether it had any. A string sent as a secret is registered with the scrubber. */
function unwrap(v: unknown): { value: unknown; secret: boolean } {
  if (isSecret(v)) {
    const value = unwrap(v.value).value;
    // A string the program made secret. (A whole object made secret, such as the `settings`
    // input, holds endpoints and project ids that messages name: its key is scrubbed where it is used.)
    if (typeof value === "string") registerSecret(value);
    return { value, secret: true };
  }
  if (Array.isArray(v)) {
    const items = v.map(unwrap);
    return { value: items.map((i) => i.value), secret: items.some((i) => i.secret) };
  }
  if (v !== null && typeof v === "object") {
    let secret = false;
    const out: Bag = {};
    for (const [k, x] of Object.entries(v as Bag)) {
      const u = unwrap(x);
      out[k] = u.value;
      secret ||= u.secret;
    }
    return { value: out, secret };
  }
  return { value: v, secret: false };
}

/** A bag from the wire, as {@link Wired}. */
export function fromWire(bag: Bag | undefined): Wired {
  const props: Bag = {};
  const secrets = new Set<string>();
  for (const [k, v] of Object.entries(bag ?? {})) {
    const u = unwrap(v);
    props[k] = u.value;
    if (u.secret) secrets.add(k);
  }
  return { props, secrets };
}

/**
 * Every string in the values of `wired`'s secret keys but `except` (the whole top-level value
 * of a key that held a secret anywhere): what a message must not quote. (A number is not text
 * to scrub: masking every `1000` of a message would point at the secret one by the gap it
 * leaves; `check` shows secret values as `[secret]` itself.)
 */
export function secretTexts(wired: Wired, except: ReadonlySet<string> = new Set()): string[] {
  const texts = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === "string") {
      if (v !== UNKNOWN && v !== "") texts.add(v);
    } else if (v !== null && typeof v === "object") for (const x of Object.values(v)) walk(x);
  };
  for (const key of wired.secrets) if (!except.has(key)) walk(wired.props[key]);
  return [...texts];
}

/** A bag for the wire: `undefined` dropped (anywhere), each of `secrets` that has a known value wrapped as a secret. */
export function toWire(props: Bag, secrets: Iterable<string>): Bag {
  const keys = new Set(secrets);
  const out: Bag = {};
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined) continue;
    const plain = JSON.parse(JSON.stringify(v)) as unknown;
    out[k] = keys.has(k) && v !== null && v !== UNKNOWN ? { [SIG]: SECRET_SIG, value: plain } : plain;
  }
  return out;
}
