/**
 * Pulumi's `replaceOnChanges` option, applied by the provider's `diff`: the engine matches the
 * option against the changed keys and detailed diff a provider returns, and the
 * dynamic-provider host returns neither (pulumi/pulumi sdk/nodejs/cmd/dynamic-provider `diff`),
 * so the SDK carries the paths as an input and `diff` puts every property they cover into
 * `replaces`. The matching is the engine's (step_generator.go `applyReplaceOnChanges`
 * L2911-3002, properties_path.go `Contains` L314-345): a path replaces when it is a prefix of a
 * path that changed (`haReplicas` and `haReplicas.replicaCount` cover a change of
 * `haReplicas.replicaCount`; `haReplicas.syncReplicaCount` does not), `*` matching any one key
 * or index, so `*` alone covers every change.
 */
import { sameValue } from "./diff";
import { containsUnknown } from "./unknowns";

/** A path segment: a key or an index. */
export type Segment = string | number;

/** `a.b[0]["c.d"]` as segments; undefined when it is not a path. */
export function pathSegments(path: string): Segment[] | undefined {
  const segments: Segment[] = [];
  const token = /^(?:\.?([^.[\]"]+)|\[(\d+|\*)\]|\["((?:[^"\\]|\\.)*)"\])/;
  let rest = path;
  while (rest.length > 0) {
    const m = token.exec(rest);
    if (!m || (rest === path && rest.startsWith("."))) return undefined;
    segments.push(m[1] ?? (m[2] === undefined ? (JSON.parse(`"${m[3]}"`) as string) : m[2] === "*" ? "*" : Number(m[2])));
    rest = rest.slice(m[0].length);
  }
  return segments.length > 0 ? segments : undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** The deepest paths at which `a` and `b` differ, below `prefix` (an unknown value differs where it is). */
function changedPaths(prefix: Segment[], a: unknown, b: unknown): Segment[][] {
  if (containsUnknown(b) && !isObject(b) && !Array.isArray(b)) return [prefix];
  if (isObject(a) && isObject(b)) {
    return [...new Set([...Object.keys(a), ...Object.keys(b)])].flatMap((k) =>
      sameValue(a[k] ?? null, b[k] ?? null) ? [] : changedPaths([...prefix, k], a[k], b[k]),
    );
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    return a.flatMap((x, i) => (sameValue(x, b[i]) ? [] : changedPaths([...prefix, i], x, b[i])));
  }
  return [prefix];
}

/**
 * The deepest paths at which the recorded value of `property` and the desired one differ, each
 * starting with `property` (`[["haReplicas", "replicaCount"]]`): what the engine matches
 * `replaceOnChanges` against, and what a detailed diff lists.
 */
export function changedPathsOf(property: string, recorded: unknown, desired: unknown): Segment[][] {
  return changedPaths([property], recorded ?? null, desired ?? null);
}

/** Whether `path` contains `other`: `other` is at least as long, and they agree on `path`'s segments (`*` matching any). */
function contains(path: readonly Segment[], other: readonly Segment[]): boolean {
  return other.length >= path.length && path.every((s, i) => s === "*" || s === other[i]);
}

/**
 * The properties among `changed` that the program's `replaceOnChanges` paths (`paths`, the
 * raw input: anything but a list of strings is none) say must replace, comparing what was
 * recorded with what is desired.
 */
export function replacedByOption(
  paths: unknown,
  changed: readonly string[],
  recorded: Record<string, unknown>,
  desired: Record<string, unknown>,
): string[] {
  if (!Array.isArray(paths)) return [];
  const parsed = paths
    .filter((p): p is string => typeof p === "string")
    .map(pathSegments)
    .filter((p): p is Segment[] => p !== undefined);
  if (parsed.length === 0) return [];
  return changed.filter((property) => {
    const diffs = [[property], ...changedPaths([property], recorded[property] ?? null, desired[property] ?? null)];
    return diffs.some((d) => parsed.some((p) => contains(p, d)));
  });
}
