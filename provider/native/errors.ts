/**
 * The native plugin's one error of its own: a partial failure as the engine takes it
 * (`ErrorResourceInitFailed`: the resource exists, with these properties and inputs, and the
 * reasons it is not ready). It carries what the framework's `ResourceInitError` carries, with
 * the properties and inputs as they go on the wire: secrets wrapped.
 */
import { ClouddbError, hasKind } from "../client/errorBase";
import { ProviderErrorCode } from "../framework/errors";
import type { Bag } from "./protos";

/** A partial failure, ready for the wire (server.ts turns it into `ErrorResourceInitFailed`). */
export class WiredInitError extends ClouddbError {
  static override readonly kind: string = "WiredInitError";

  /**
   * @param id the cloud's id of the resource, kept in state
   * @param properties its outputs as the engine stores them (secrets wrapped)
   * @param inputs its inputs as the engine stores them (secrets wrapped)
   * @param message why it is not ready, and what the next `up` does: the reason the CLI shows
   */
  constructor(
    readonly id: string,
    readonly properties: Bag,
    readonly inputs: Bag,
    message: string,
  ) {
    super(message, ProviderErrorCode.ResourceInit);
  }

  /** True for a WiredInitError from any copy of this package. */
  static override isInstance(value: unknown): value is WiredInitError {
    return hasKind(value, WiredInitError.kind);
  }
}

/** Stable codes of the native plugin's own errors. */
export const NativeErrorCode = {
  /** A partial failure on its way to the engine (`ErrorResourceInitFailed`). */
  ResourceInit: ProviderErrorCode.ResourceInit,
  /** A request the plugin does not serve: a type token, function token or schema version it does not know. */
  Unsupported: "CLOUDDB_UNSUPPORTED_REQUEST",
} as const;

/** A request names something this plugin does not serve (another package's type or function, a newer schema version). */
export class UnsupportedRequestError extends ClouddbError {
  static override readonly kind: string = "UnsupportedRequestError";

  /** @param message what was asked, and what the plugin serves */
  constructor(message: string) {
    super(message, NativeErrorCode.Unsupported);
  }

  /** True for an UnsupportedRequestError from any copy of this package. */
  static override isInstance(value: unknown): value is UnsupportedRequestError {
    return hasKind(value, UnsupportedRequestError.kind);
  }
}
