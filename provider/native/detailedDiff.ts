/**
 * The framework's diff as the engine's DiffResponse wants it: the changed keys (what the
 * engine matches `replaceOnChanges` against) and a detailed diff keyed by the deepest paths
 * that changed, in the engine's property-path syntax (`haReplicas.replicaCount`, `a[0]`,
 * `["odd.key"]`), each an add, a delete or an update, and a replacement where the property
 * replaces. The engine matches a `replaceOnChanges` path against these keys
 * (PropertyPath.Contains: the option's path is a prefix of a changed one).
 */
import type { DiffDetail } from "../framework/coreProvider";
import type { Segment } from "../framework/replaceOnChanges";

/** How one path changed, as the engine's `PropertyDiff.Kind` names it. */
export type DiffKind = "add" | "add-replace" | "delete" | "delete-replace" | "update" | "update-replace";

/** A diff for the engine. */
export interface NativeDiff {
  /** Whether anything changes (a resource not yet ready, or whose adoption record changes, has no changed key but changes). */
  readonly changes: boolean;
  /** Top-level properties whose change replaces the resource. */
  readonly replaces: readonly string[];
  /** Top-level properties that changed. */
  readonly diffs: readonly string[];
  /** Each changed path, and how. */
  readonly detailedDiff: Readonly<Record<string, { readonly kind: DiffKind; readonly inputDiff: boolean }>>;
}

/** A path in the engine's syntax: `a.b[0]["c.d"]`. */
export function pathText(segments: readonly Segment[]): string {
  return segments
    .map((s, i) => (typeof s === "number" ? `[${s}]` : /^[A-Za-z_][\w]*$/.test(s) ? `${i === 0 ? "" : "."}${s}` : `[${JSON.stringify(s)}]`))
    .join("");
}

/** The value at `segments` within `value` (undefined where there is none). */
function at(value: unknown, segments: readonly Segment[]): unknown {
  let v = value;
  for (const s of segments) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string | number, unknown>)[s];
  }
  return v;
}

/** The DiffResponse of the framework's diff `d` of the recorded outputs `olds`: each changed path an add, a delete or an update. */
export function detailedDiff(d: DiffDetail, olds: Record<string, unknown>): NativeDiff {
  const desired = d.desired;
  const replaces = d.replaces ?? [];
  const detailed: Record<string, { kind: DiffKind; inputDiff: boolean }> = {};
  for (const property of d.changed) {
    for (const path of d.changedPaths[property] ?? [[property]]) {
      const was = at(olds, path);
      const now = at(desired, path);
      const base = was === undefined || was === null ? "add" : now === undefined || now === null ? "delete" : "update";
      detailed[pathText(path)] = { kind: replaces.includes(property) ? `${base}-replace` : base, inputDiff: false };
    }
  }
  return { changes: d.changes === true, replaces, diffs: [...d.changed], detailedDiff: detailed };
}
