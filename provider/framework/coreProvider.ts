/**
 * What the provider of one resource type offers its hosts (the dynamic-provider host and the
 * native plugin): Pulumi's dynamic provider, with a `diff` that says what changed in detail.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { Segment } from "./replaceOnChanges";
import type { Props } from "./schema";

/**
 * What `diff` finds: Pulumi's dynamic result (`changes`, `replaces`), and for a host whose
 * protocol carries more (the native plugin, provider/native) the properties that differ and
 * the deepest paths at which each differs, as the engine matches `replaceOnChanges` against
 * them. The dynamic-provider host passes on only `changes` and `replaces`.
 */
export interface DiffDetail extends dynamic.DiffResult {
  /** The diffed properties whose desired value differs from the recorded one (or is not known yet). */
  readonly changed: readonly string[];
  /** For each of `changed`, the deepest paths that differ within it (`[["haReplicas", "replicaCount"]]`). */
  readonly changedPaths: Readonly<Record<string, readonly Segment[][]>>;
  /** What the inputs ask for, property by property, compared with the recorded outputs. */
  readonly desired: Props;
}

/**
 * The provider of one resource type: Pulumi's dynamic provider, whose `diff` says what
 * changed ({@link DiffDetail}), whose `check` may be told which inputs the program gave as
 * secrets (a host that knows, the native plugin: their values are never quoted, and their
 * failures name them only in the reason, framework/check.ts), and whose `read` takes the old
 * inputs from a host that has them (the native plugin; framework/refreshedInputs.ts).
 */
export type CoreProvider = Required<Pick<dynamic.ResourceProvider, "configure" | "create" | "update" | "delete">> & {
  check(olds: Props, news: Props, secretInputs?: ReadonlySet<string>): Promise<dynamic.CheckResult>;
  /**
   * `movingToNative`: the recorded state is still the dynamic providers' (the native plugin
   * diffs it during a move), so the old half of a replacement is deleted by them, not here.
   */
  diff(id: string, olds: Props, news: Props, movingToNative?: boolean): Promise<DiffDetail>;
  read(id: string, props: Props, oldInputs?: Props): Promise<dynamic.ReadResult>;
};
