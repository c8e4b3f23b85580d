/**
 * Secrets as they travel between the program and the engine: a secret is the object
 * `{ [SIG_KEY]: SECRET_SIG, value }`. Dynamic providers do not accept secrets, so the engine
 * strips them before calling the provider and re-marks outputs afterwards.
 */
import { JsonObject } from "./protos";

/** Key of the signature that marks special values in serialized properties. */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
/** Signature of a secret value. */
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
/** What {@link redact} puts in place of a secret value. */
export const REDACTED = "[secret]";

/** True when `v` is a secret wrapper `{ [SIG_KEY]: SECRET_SIG, value }`. */
export function isSecretWrapper(v: unknown): v is { value: unknown } {
  return typeof v === "object" && v !== null && (v as JsonObject)[SIG_KEY] === SECRET_SIG;
}

/** Removes every secret marker in `value`, deeply; reports whether there was one. */
export function unwrapSecrets(value: unknown): { value: unknown; secret: boolean } {
  if (isSecretWrapper(value)) {
    return { value: unwrapSecrets(value.value).value, secret: true };
  }
  if (Array.isArray(value)) {
    let secret = false;
    const out = value.map((v) => {
      const r = unwrapSecrets(v);
      secret = secret || r.secret;
      return r.value;
    });
    return { value: out, secret };
  }
  if (typeof value === "object" && value !== null) {
    let secret = false;
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) {
      const r = unwrapSecrets(v);
      secret = secret || r.secret;
      out[k] = r.value;
    }
    return { value: out, secret };
  }
  return { value, secret: false };
}

/**
 * Unwraps the secrets of a property map and returns the top-level keys that held a secret
 * anywhere inside them.
 */
export function unwrapProperties(props: JsonObject): { props: JsonObject; secretKeys: string[] } {
  const out: JsonObject = {};
  const secretKeys: string[] = [];
  for (const [k, v] of Object.entries(props)) {
    const r = unwrapSecrets(v);
    out[k] = r.value;
    if (r.secret) secretKeys.push(k);
  }
  return { props: out, secretKeys };
}

/** Marks the given top-level keys as secrets, for a response to the program. */
export function wrapSecrets(props: JsonObject, secretKeys: readonly string[]): JsonObject {
  const out: JsonObject = { ...props };
  for (const k of secretKeys) {
    if (k in out) out[k] = { [SIG_KEY]: SECRET_SIG, value: out[k] };
  }
  return out;
}

/** Wraps a value as a secret. */
export function secretValue(value: unknown): { [SIG_KEY]: string; value: unknown } {
  return { [SIG_KEY]: SECRET_SIG, value };
}

/** Replaces the values of the given top-level keys with {@link REDACTED}. */
export function redact(props: JsonObject, secretKeys: readonly string[]): JsonObject {
  const out: JsonObject = { ...props };
  for (const k of secretKeys) {
    if (k in out) out[k] = REDACTED;
  }
  return out;
}

/** The keys among `keys` that `obj` has, once each. */
export function keysIn(keys: readonly string[], obj: JsonObject): string[] {
  return [...new Set(keys)].filter((k) => k in obj);
}

/**
 * The outputs the engine marks secret (pp `annotateSecrets` L886-902, sx L518-566): those the
 * registration lists in `additionalSecretOutputs`, and those named like a secret input.
 */
export function secretOutputKeys(
  additionalSecretOutputs: readonly string[],
  secretInputKeys: readonly string[],
  outputs: JsonObject,
): string[] {
  return keysIn([...additionalSecretOutputs, ...secretInputKeys.filter((k) => k !== "__provider")], outputs);
}
