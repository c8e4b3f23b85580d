/**
 * Errors of the waiters: {@link TimeoutError}, {@link ResourceFailedError} and
 * {@link WaitCancelledError}, all
 * {@link WaitError}s carrying the watched resource and the last body seen, typed by the
 * resource's kind: `ResourceFailedError.isInstance(e, "service")` narrows `e.lastSeen` to
 * `Service | undefined`, with no cast.
 */
import { ClientErrorCode, ClouddbError, hasKind } from "./errorBase";
import type { Peering, ReadReplicaSet, Service, WatchedKind } from "../../contract";

export type { WatchedKind } from "../../contract";

/** The body a waiter sees for each kind of resource. */
export interface WatchedBodies {
  /** A service. */
  service: Service;
  /** A read replica set. */
  "replica set": ReadReplicaSet;
  /** A VPC peering. */
  peering: Peering;
}

/** The resource a waiter watches, for messages and error fields. */
export interface WatchedResource<K extends WatchedKind = WatchedKind> {
  /** `service`, `replica set`, `peering`. */
  kind: K;
  /** Its identifier (for nested resources, `<parent id>/<id>`, e.g. `abc/def`). */
  id: string;
  /** Project it lives in. */
  projectId: string;
}

/** Fields every wait error is built from. */
export interface WaitErrorInit<K extends WatchedKind> {
  /** The watched resource. */
  resource: WatchedResource<K>;
  /** The states that were awaited (`["READY"]`, `["deleted"]`, ...). */
  awaited: readonly string[];
  /** The last body seen, when any. */
  lastSeen: WatchedBodies[K] | undefined;
}

/** True when `obj` is a wait error about a resource of `kind` (any kind when undefined). */
function watches(obj: unknown, kind: WatchedKind | undefined): boolean {
  return kind === undefined || (obj as { resource?: { kind?: unknown } }).resource?.kind === kind;
}

/**
 * A wait ended without the awaited state. Base of {@link TimeoutError} and
 * {@link ResourceFailedError}; never thrown directly.
 */
export class WaitError<K extends WatchedKind = WatchedKind> extends ClouddbError {
  static override readonly kind: string = "WaitError";
  /** The watched resource. */
  readonly resource: WatchedResource<K>;
  /** The awaited states. */
  readonly awaited: readonly string[];
  /** The last body seen (for a resource that vanished: the one before it did), when any. */
  readonly lastSeen: WatchedBodies[K] | undefined;

  /** Builds the error; subclasses compose the message. */
  constructor(message: string, code: string, init: WaitErrorInit<K>, cause?: unknown) {
    super(message, code, { cause });
    this.resource = init.resource;
    this.awaited = init.awaited;
    this.lastSeen = init.lastSeen;
  }

  /**
   * True when `obj` is an error of the class this is called on, e.g.
   * `TimeoutError.isInstance(e)` (from any copy of the package), and, when `kind` is given,
   * one about a resource of that kind, so that `lastSeen` is typed.
   */
  static override isInstance<C extends WaitErrorClass, K extends WatchedKind = WatchedKind>(
    this: C,
    obj: unknown,
    kind?: K,
  ): obj is InstanceType<C> & WaitError<K> {
    return hasKind(obj, this.kind) && watches(obj, kind);
  }
}

/** {@link WaitError} or one of its subclasses, as `isInstance` is called on it. */
export type WaitErrorClass = (abstract new (...args: never[]) => WaitError) & { readonly kind: string };

/**
 * A waiter ran out of time before the resource reached one of the awaited states. The
 * resource is left as it is (it may still get there).
 */
export class TimeoutError<K extends WatchedKind = WatchedKind> extends WaitError<K> {
  static override readonly kind: string = "TimeoutError";
  /** The last status seen, or undefined when no poll succeeded. */
  readonly lastStatus: string | undefined;
  /** The waiter's timeout in milliseconds. */
  readonly timeoutMs: number;

  /** Builds the error; `lastError` (a transient failure of the last polls) is mentioned and kept as `cause`. */
  constructor(init: WaitErrorInit<K> & { lastStatus: string | undefined; timeoutMs: number; lastError?: unknown }) {
    const last = init.lastStatus === undefined ? "none (no successful poll)" : init.lastStatus;
    // The cause's message as a sentence of its own: one full stop, whether or not it ends with one.
    const errText = init.lastError instanceof Error ? ` Last polling error: ${init.lastError.message.replace(/\.?\s*$/, ".")}` : "";
    super(
      `Timed out after ${init.timeoutMs} ms waiting for ${init.resource.kind} ${init.resource.id} ` +
        `(project ${init.resource.projectId}) to reach ${init.awaited.join(" or ")}; last status seen: ${last}.` +
        `${errText} Raise the timeout, or check the resource in the console.`,
      ClientErrorCode.Timeout,
      init,
      init.lastError,
    );
    this.lastStatus = init.lastStatus;
    this.timeoutMs = init.timeoutMs;
  }
}

/**
 * The client was closed (or stopped by its `signal`) while the wait was under way, or before
 * it began: it stopped polling. The resource is left as it is.
 */
export class WaitCancelledError<K extends WatchedKind = WatchedKind> extends WaitError<K> {
  static override readonly kind: string = "WaitCancelledError";

  /** Builds the error; `why` says what stopped the wait (default: the client was closed). */
  constructor(init: WaitErrorInit<K> & { why?: string }) {
    super(
      `Stopped waiting for ${init.resource.kind} ${init.resource.id} (project ${init.resource.projectId}) to reach ` +
        `${init.awaited.join(" or ")}: ${init.why ?? "the client was closed"}. The ${init.resource.kind} is left as it is.`,
      ClientErrorCode.WaitCancelled,
      init,
    );
  }
}

function capitalize(s: string): string {
  return s.length === 0 ? s : s[0].toUpperCase() + s.slice(1);
}

/**
 * A waited-for resource reached a state it cannot leave toward the awaited one (service
 * `UNSTABLE`, replica set `error`, peering `failed`: the `failed` statuses of
 * `contract/statuses.ts`), or disappeared (404) while it had to exist. `state` is that status,
 * or `NOT_FOUND`.
 */
export class ResourceFailedError<K extends WatchedKind = WatchedKind> extends WaitError<K> {
  static override readonly kind: string = "ResourceFailedError";
  /** The failure status (`UNSTABLE`, `error`, `failed`) or `NOT_FOUND`. */
  readonly state: string;

  /** Builds the error; `reason` (e.g. a peering's `error_message`) is quoted in the message. */
  constructor(init: WaitErrorInit<K> & { state: string; reason?: string; cause?: unknown }) {
    const what = init.state === "NOT_FOUND" ? "no longer exists (404)" : `reached status ${init.state}`;
    const reason = init.reason === undefined || init.reason === "" ? "" : `: "${init.reason}"`;
    super(
      `${capitalize(init.resource.kind)} ${init.resource.id} (project ${init.resource.projectId}) ${what}${reason} ` +
        `while waiting for ${init.awaited.join(" or ")}. It will not get there on its own: inspect it, delete or recreate it.`,
      ClientErrorCode.ResourceFailed,
      init,
      init.cause,
    );
    this.state = init.state;
  }
}
