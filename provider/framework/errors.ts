/**
 * Errors the providers raise themselves (the API client's own errors live in
 * `./client/errors`).
 */

import { withoutUndefined } from "./outputs";

const INIT_BRAND = Symbol.for("pulumi-clouddb:ResourceInitError");

/**
 * The cloud accepted a create (or an update resumed one) but the resource did not reach
 * its ready state: it failed, or waiting for it timed out.
 *
 * Pulumi's dynamic-provider host turns an error that carries `id` and `properties` into
 * `ErrorResourceInitFailed`: the engine keeps the resource in state with these
 * properties and calls `update` on the next `up`, which resumes waiting. `properties`
 * must hold the inputs (with `__provider`) and every output known so far, such as a
 * password that the API returns only once.
 */
export class ResourceInitError extends Error {
  /** Brand that survives two copies of this package. */
  readonly [INIT_BRAND] = true;
  /**
   * @param id the cloud's id of the resource, kept in state
   * @param properties what the engine stores as the resource's outputs
   * @param message why it is not ready, and what the next `up` will do
   */
  constructor(
    readonly id: string,
    properties: Record<string, unknown>,
    message: string,
  ) {
    super(message);
    this.name = "ResourceInitError";
    // The plugin cannot encode `undefined`: a properties object holding one makes it fail
    // to answer the engine at all.
    this.properties = withoutUndefined(properties);
  }

  /** What the engine stores as the resource's outputs, without `undefined` anywhere. */
  readonly properties: Record<string, unknown>;

  /** The reasons the engine shows under the resource. */
  get reasons(): string[] {
    return [this.message];
  }

  /** True for a ResourceInitError from any copy of this package. */
  static isInstance(value: unknown): value is ResourceInitError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[INIT_BRAND] === true;
  }
}

/** An input cannot be honoured against what exists in the cloud (e.g. an adopted resource differs in an immutable property). */
export class InputConflictError extends Error {
  /**
   * @param property the input's name
   * @param message what differs and what to do
   */
  constructor(
    readonly property: string,
    message: string,
  ) {
    super(message);
    this.name = "InputConflictError";
  }
}

/** Replaces every occurrence of each secret (of four characters or more) in `text` with `[secret]`. */
export function redact(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let result = text;
  for (const secret of secrets) {
    if (typeof secret === "string" && secret.length >= 4) result = result.split(secret).join("[secret]");
  }
  return result;
}

/**
 * Returns an error safe to hand to the engine: its message (and stack) without any of
 * the secrets, keeping `id` and `properties` of a {@link ResourceInitError}.
 */
export function withoutSecrets(error: unknown, secrets: ReadonlyArray<string | undefined>): Error {
  const original = error instanceof Error ? error : new Error(String(error));
  const message = redact(original.message, secrets);
  if (message === original.message && !(original.stack && secrets.some((s) => s && original.stack!.includes(s)))) {
    return original;
  }
  original.message = message;
  if (original.stack) original.stack = redact(original.stack, secrets);
  return original;
}
