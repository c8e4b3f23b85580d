/**
 * Errors the providers raise themselves. They share the client's design
 * (`provider/client/errors.ts`): each extends {@link ClouddbError}, so it carries a brand
 * that `isInstance` recognises across two copies of the package and a stable `code`, and its
 * message passes the package's one secret scrubber.
 */
import { ClouddbError, hasKind as isKind } from "../client/errorBase";
import { redact, registerSecret } from "../client/redact";
import { withoutUndefined } from "./outputs";

/** Stable codes of the provider's own errors. */
export const ProviderErrorCode = {
  /** The cloud made the resource, but it did not become ready. */
  ResourceInit: "CLOUDDB_RESOURCE_INIT",
  /** An input cannot be honoured against what exists (adoption, a fork's fixed properties, a lookup without its parent id). */
  InputConflict: "CLOUDDB_INPUT_CONFLICT",
  /** A service is in a state only deletion can leave (`UNSTABLE`). */
  ServiceUnusable: "CLOUDDB_SERVICE_UNUSABLE",
  /** A read replica set is in status `error`. */
  ReplicaSetFailed: "CLOUDDB_REPLICA_SET_FAILED",
  /** A resource cannot be deleted while others still use it (a VPC with services or peerings attached). */
  InUse: "CLOUDDB_IN_USE",
  /** A resource recorded in state no longer exists where an update needs it. */
  Gone: "CLOUDDB_GONE",
  /** The API refuses an action for a state that waiting cannot change (a paused or unstable service). */
  NotReady: "CLOUDDB_NOT_READY",
  /** State does not say whether the stack made a resource or adopted it, so it is not deleted. */
  OwnershipUnknown: "CLOUDDB_OWNERSHIP_UNKNOWN",
  /** An earlier create's outcome is unknown and nothing listed proves what it made: nothing is created on a guess. */
  CreateUnsettled: "CLOUDDB_CREATE_UNSETTLED",
  /** An import read the resource, but the answer does not show it as a program could declare it (a value no rule takes). */
  Unreadable: "CLOUDDB_UNREADABLE",
  /** A create or update got inputs that Check does not pass (a caller that skipped Check): nothing is sent. */
  InputsNotChecked: "CLOUDDB_INPUTS_NOT_CHECKED",
  /** State records a resource's own `settings` that the native provider serving it does not have: nothing is planned. */
  SettingsNotServed: "CLOUDDB_SETTINGS_NOT_SERVED",
} as const;

/**
 * `message` as a clause of a longer sentence: without its closing full stop, so that
 * `${clause(e.message)}. It is kept in state` ends one sentence once, whether or not the
 * message it quotes ended with one.
 */
export function clause(message: string): string {
  return message.replace(/\.?\s*$/, "");
}

/**
 * The cloud accepted a create (or an update resumed one) but the resource did not reach
 * its ready state: it failed, or waiting for it timed out.
 *
 * Pulumi's dynamic-provider host turns an error that carries `id` and `properties` into
 * `ErrorResourceInitFailed`: the engine keeps the resource in state with these properties
 * and shows `reasons`. `properties` must hold the inputs (with `__provider`) and every
 * output known so far, such as a password that the API returns only once.
 */
export class ResourceInitError extends ClouddbError {
  static override readonly kind: string = "ResourceInitError";
  /**
   * What the engine stores as the resource's outputs, without `undefined` anywhere (the host
   * cannot encode it). The provider wrapper adds the inputs (with `__provider`) before it
   * hands the error to the host.
   */
  properties: Record<string, unknown>;

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
    super(message, ProviderErrorCode.ResourceInit);
    this.properties = withoutUndefined(properties);
  }

  /** The reasons the engine shows under the resource (it shows these, not the message). */
  get reasons(): string[] {
    return [this.message];
  }

  /** True for a ResourceInitError from any copy of this package. */
  static override isInstance(value: unknown): value is ResourceInitError {
    return isKind(value, ResourceInitError.kind);
  }
}

/** An input cannot be honoured against what exists in the cloud. */
export class InputConflictError extends ClouddbError {
  static override readonly kind: string = "InputConflictError";
  /**
   * @param property the input's name
   * @param message what differs and what to do
   */
  constructor(
    readonly property: string,
    message: string,
  ) {
    super(message, ProviderErrorCode.InputConflict);
  }

  /** True for an InputConflictError from any copy of this package. */
  static override isInstance(value: unknown): value is InputConflictError {
    return isKind(value, InputConflictError.kind);
  }
}

/**
 * A create or an update got inputs that `check` does not pass: the engine always calls Check
 * first, so the caller skipped it (a client of the plugin's gRPC service, say). Nothing is
 * sent. The message names each failing input and why, as `check` words it (a secret input's
 * value never shown), never the inputs themselves.
 */
export class UncheckedInputsError extends ClouddbError {
  static override readonly kind: string = "UncheckedInputsError";

  /**
   * @param what the operation and the resource (`create of clouddb.Vpc`)
   * @param failures each input that fails, with why
   */
  constructor(
    what: string,
    readonly failures: ReadonlyArray<{ readonly property: string; readonly reason: string }>,
  ) {
    super(
      `The ${what} got inputs that Check does not pass, so nothing was sent (the engine calls Check first: was it skipped?): ` +
        failures.map((f) => f.reason).join("; "),
      ProviderErrorCode.InputsNotChecked,
    );
  }

  /** True for an UncheckedInputsError from any copy of this package. */
  static override isInstance(value: unknown): value is UncheckedInputsError {
    return isKind(value, UncheckedInputsError.kind);
  }
}

/** A resource is in a state that only deletion can leave; `lastSeen` is the resource as last read. */
export class UnusableResourceError<T> extends ClouddbError {
  static override readonly kind: string = "UnusableResourceError";
  /**
   * @param lastSeen the resource as last read
   * @param message what state it is in, and what to do
   * @param code {@link ProviderErrorCode.ServiceUnusable} or {@link ProviderErrorCode.ReplicaSetFailed}
   */
  constructor(
    readonly lastSeen: T,
    message: string,
    code: string,
  ) {
    super(message, code);
  }

  /** True for an UnusableResourceError from any copy of this package. */
  static override isInstance(value: unknown): value is UnusableResourceError<unknown> {
    return isKind(value, UnusableResourceError.kind);
  }
}

/** An action the provider cannot finish because of the state of the cloud (a VPC still in use, a resource gone). */
export class CloudStateError extends ClouddbError {
  static override readonly kind: string = "CloudStateError";

  /** True for a CloudStateError from any copy of this package. */
  static override isInstance(value: unknown): value is CloudStateError {
    return isKind(value, CloudStateError.kind);
  }
}

/**
 * A delete that cannot tell whether the stack made the resource or adopted it (state
 * written before that was recorded): nothing is deleted, and the message says what to do.
 */
export class OwnershipUnknownError extends ClouddbError {
  static override readonly kind: string = "OwnershipUnknownError";

  /** @param message what is known of the resource, and what the user can do */
  constructor(message: string) {
    super(message, ProviderErrorCode.OwnershipUnknown);
  }

  /** True for an OwnershipUnknownError from any copy of this package. */
  static override isInstance(value: unknown): value is OwnershipUnknownError {
    return isKind(value, OwnershipUnknownError.kind);
  }
}

/**
 * A resource whose state records its own `settings` (the dynamic providers' or plugin 0.2.0's
 * per-resource API, key or project) is served by a native provider whose settings differ:
 * it would be managed in another API or project, so `diff` stops before anything is planned.
 */
export class SettingsNotServedError extends ClouddbError {
  static override readonly kind: string = "SettingsNotServedError";

  /** @param message which recorded settings differ from the provider's, and the explicit provider to give instead */
  constructor(message: string) {
    super(message, ProviderErrorCode.SettingsNotServed);
  }

  /** True for a SettingsNotServedError from any copy of this package. */
  static override isInstance(value: unknown): value is SettingsNotServedError {
    return isKind(value, SettingsNotServedError.kind);
  }
}

/**
 * Returns an error safe to hand to the engine: every secret in `secrets` (the API key, the
 * passwords involved) is registered with the package's scrubber, and the message and stack
 * are scrubbed; `id` and `properties` of a {@link ResourceInitError} are kept.
 */
export function scrubbed(error: unknown, secrets: ReadonlyArray<unknown>): Error {
  for (const s of secrets) registerSecret(s);
  const original = error instanceof Error ? error : new ClouddbError(String(error), "CLOUDDB_UNEXPECTED");
  original.message = redact(original.message);
  if (original.stack) original.stack = redact(original.stack);
  return original;
}

/**
 * The message of an import whose answer does not show the resource as a program could declare
 * it: each input read back that `check` refuses (a value the answer does not show readably,
 * contract/readable.ts), and that nothing is recorded. Empty when every one passes.
 *
 * @param what the resource, e.g. `clouddb.Service abcdefghij`
 * @param failures `check`'s failures of the inputs read back
 */
export function unimportable(what: string, failures: ReadonlyArray<{ readonly reason: string }>): string | undefined {
  if (failures.length === 0) return undefined;
  return (
    `${what} is not imported: the API's answer does not show it as a program could declare it (${failures.map((f) => f.reason).join("; ")}), ` +
    "so nothing is recorded. Run the import again once the API shows it readably."
  );
}
