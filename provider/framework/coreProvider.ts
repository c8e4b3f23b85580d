/**
 * The core of one resource type, free of either protocol: its own requests and results,
 * which both hosts translate to and from (the dynamic-provider host, framework/resourceProvider.ts;
 * the native plugin, native/resources.ts). What the engine tells a host about a call (who
 * asks, whether it is a preview, the engine's timeout) is a field of the request, never an
 * input added and stripped again; the result says what changed in detail, whether or not the
 * host's protocol can carry it.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { Segment } from "./replaceOnChanges";
import type { Props } from "./schema";

/** Who asks: what a create, an update or a check is told of the resource besides its inputs. */
export interface Asking {
  /**
   * `<project>/<stack>/<type>/<name>` of the resource (the native host reads it from the URN;
   * the dynamic host from the SDK's `__owner` input, the only way its protocol carries it);
   * `""` when the program's SDK did not say. A create interrupted in one stack is never taken
   * over by another (framework/journal.ts); a name made up is made from its last segment.
   */
  readonly owner: string;
}

/** The engine's bound on one call: Pulumi's `customTimeouts`, in seconds (0 or absent: none). */
export interface EngineBound {
  /** The call waits no longer than this, nor than the resource's own `timeouts` allow. */
  readonly engineTimeoutSeconds?: number;
}

/** Checks inputs (`check`). */
export interface CheckRequest extends Asking {
  /** The old inputs (`{}` on a create or a replacement). */
  readonly olds: Props;
  /** The inputs the program gives. */
  readonly news: Props;
  /** The inputs the program gave as secrets, when the host knows: never quoted, named only in the reason (framework/check.ts). */
  readonly secretInputs?: ReadonlySet<string>;
}

/** Compares recorded outputs with new inputs (`diff`). */
export interface DiffRequest {
  readonly id: string;
  /** The recorded outputs. */
  readonly olds: Props;
  /** The new inputs. */
  readonly news: Props;
  /**
   * The recorded state is still the dynamic providers' (the native plugin diffs it during a
   * move), so the old half of a replacement is deleted by them, not here.
   */
  readonly movingToNative?: boolean;
}

/** Creates a resource (`create`), or in a preview says what it will have. */
export interface CreateRequest extends Asking, EngineBound {
  /** The checked inputs. */
  readonly news: Props;
  /** A preview: nothing is sent; the result holds what is known of the outputs, the rest unknown. */
  readonly preview: boolean;
}

/** Reads the live resource (`read`: a refresh, or a lookup by id). */
export interface ReadRequest {
  readonly id: string;
  /** The recorded outputs (`{}` for a lookup). */
  readonly props: Props;
  /** The old inputs, from a host whose protocol has them (framework/refreshedInputs.ts). */
  readonly oldInputs?: Props;
}

/** Updates a resource (`update`), or in a preview says what it will have. */
export interface UpdateRequest extends Asking, EngineBound {
  readonly id: string;
  /** The recorded outputs. */
  readonly olds: Props;
  /** The checked new inputs. */
  readonly news: Props;
  /** A preview: nothing is sent; the result holds the recorded outputs with what the inputs set. */
  readonly preview: boolean;
}

/** Deletes a resource (`delete`). */
export interface DeleteRequest extends EngineBound {
  readonly id: string;
  /** The recorded outputs. */
  readonly props: Props;
  /** The inputs as state recorded them, from a host whose protocol has them (state of 0.1.0 records adoption there alone). */
  readonly oldInputs?: Props;
}

/**
 * What `diff` finds: Pulumi's dynamic result (`changes`, `replaces`), the properties that
 * differ and the deepest paths at which each differs, as the engine matches `replaceOnChanges`
 * against them. A host passes on what its protocol carries: the native plugin all of it, the
 * dynamic-provider host `changes` and `replaces` (Pulumi's dynamic `DiffResult` has no
 * detailed diff).
 */
export interface DiffDetail extends dynamic.DiffResult {
  /** The diffed properties whose desired value differs from the recorded one (or is not known yet). */
  readonly changed: readonly string[];
  /** For each of `changed`, the deepest paths that differ within it (`[["haReplicas", "replicaCount"]]`). */
  readonly changedPaths: Readonly<Record<string, readonly Segment[][]>>;
  /** What the inputs ask for, property by property, compared with the recorded outputs. */
  readonly desired: Props;
}

/** What `check` returns: the inputs (with a name made up where the program set none) and one failure per bad property. */
export interface CheckOutcome {
  readonly inputs: Props;
  readonly failures: dynamic.CheckFailure[];
}

/** What `create` returns: the id (`""` in a preview) and every output. */
export interface CreateOutcome {
  readonly id: string;
  readonly outs: Props;
}

/** What `read` returns: the id (`""`: gone), the outputs, and the inputs when something drifted. */
export interface ReadOutcome {
  readonly id: string;
  readonly props?: Props;
  readonly inputs?: Props;
}

/** What `update` returns: every output. */
export interface UpdateOutcome {
  readonly outs: Props;
}

/**
 * The core of one resource type. Each call's failure contract is Pulumi's: a `create` that
 * throws without an id made nothing; one that throws a `ResourceInitError` made the resource,
 * which stays in state with the error's properties as its outputs; a `delete` that throws
 * leaves it in state.
 */
export interface CoreProvider {
  /** Stores the stack configuration for every resource in this process. */
  configure(config: dynamic.ConfigureRequest["config"]): Promise<void>;
  check(req: CheckRequest): Promise<CheckOutcome>;
  diff(req: DiffRequest): Promise<DiffDetail>;
  create(req: CreateRequest): Promise<CreateOutcome>;
  read(req: ReadRequest): Promise<ReadOutcome>;
  update(req: UpdateRequest): Promise<UpdateOutcome>;
  delete(req: DeleteRequest): Promise<void>;
}
