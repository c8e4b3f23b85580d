/**
 * What the engine adds to a provider's Diff (pulumi/pulumi v3.248.0,
 * pkg/resource/deploy/step_generator.go): its own diff of the inputs when Diff answered
 * DIFF_UNKNOWN (`diffResource` L2773-2807: changed keys and a detailed diff whose paths
 * reach the leaves, sdk/go/common/resource/plugin/provider.go `NewDetailedDiffFromObjectDiff`
 * L745-806), and `replaceOnChanges` (`applyReplaceOnChanges` L2911-3002).
 */
import type { Deployment } from "./deployment";
import { message } from "./engineRun";
import { processIgnoreChanges } from "./ignoreChanges";
import { contains, parsePath, type Segment } from "./propertyPath";
import { JsonObject } from "./protos";
import { RegisterRequest, RegistrationError } from "./registration";
import { StateEntry } from "./state";

/** A Diff answer as the engine holds it once it has handled DIFF_UNKNOWN. */
export interface EngineDiff {
  /** Whether anything changed (DIFF_SOME). */
  some: boolean;
  /** The keys whose change replaces the resource (the provider's, and those `replaceOnChanges` adds). */
  replaceKeys: string[];
  /** Top-level keys that changed: only the engine's own diff has them (a dynamic provider returns none). */
  changedKeys: string[];
  /** Paths of the detailed diff, each marked whether it replaces: only the engine's own diff has them. */
  detailed: Map<string, { replace: boolean }>;
  deleteBeforeReplace: boolean;
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function same(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && same(a[k], b[k]));
  }
  return a === b;
}

/** A path as the engine prints it (`PropertyPath.String`): `a.b[0]`, `a["x.y"]`. */
function pathString(path: readonly Segment[]): string {
  return path
    .map((s, i) => (typeof s === "number" ? `[${s}]` : /^[A-Za-z_$][\w$]*$/.test(s) ? (i === 0 ? s : `.${s}`) : `[${JSON.stringify(s)}]`))
    .join("");
}

/** The leaf paths at which `olds` and `news` differ, as `objectDiffToDetailedDiff` lists them. */
function detailedPaths(prefix: Segment[], olds: unknown, news: unknown, out: Segment[][]): void {
  if (isObject(olds) && isObject(news)) {
    for (const k of new Set([...Object.keys(olds), ...Object.keys(news)])) {
      if (!(k in news) || !(k in olds)) out.push([...prefix, k]);
      else if (!same(olds[k], news[k])) detailedPaths([...prefix, k], olds[k], news[k], out);
    }
  } else if (Array.isArray(olds) && Array.isArray(news)) {
    for (let i = 0; i < Math.max(olds.length, news.length); i++) {
      if (i >= olds.length || i >= news.length) out.push([...prefix, i]);
      else if (!same(olds[i], news[i])) detailedPaths([...prefix, i], olds[i], news[i], out);
    }
  } else {
    out.push(prefix);
  }
}

/**
 * The engine's own diff for a DIFF_UNKNOWN answer: the old inputs against the new ones after
 * `ignoreChanges`, `__provider` included (`diffResource` L2794-2805).
 */
export function diffOfInputs(
  olds: JsonObject,
  news: JsonObject,
  ignoreChanges: readonly string[],
): Pick<EngineDiff, "some" | "changedKeys" | "detailed"> {
  const next = processIgnoreChanges(news, olds, ignoreChanges).inputs;
  const paths: Segment[][] = [];
  detailedPaths([], olds, next, paths);
  const changedKeys = [...new Set(paths.map((p) => String(p[0])))];
  return { some: paths.length > 0, changedKeys, detailed: new Map(paths.map((p) => [pathString(p), { replace: false }])) };
}

/** The key the engine adds when init errors meet a `replaceOnChanges` path that covers it. */
export const INIT_ERROR_KEY = "#initerror";

/**
 * `applyReplaceOnChanges`: each detailed-diff path and changed key that a `replaceOnChanges`
 * path contains becomes a replacement; init errors count as a change at `#initerror`, which
 * `*` contains. Nothing to do for DIFF_NONE without init errors.
 */
export function applyReplaceOnChanges(diff: EngineDiff, replaceOnChanges: readonly string[], hasInitErrors: boolean): EngineDiff {
  if (!diff.some && !hasInitErrors) return diff;
  const paths = replaceOnChanges.map(parsePath).filter((p): p is Segment[] => p !== undefined);
  const covered = (p: string): boolean => {
    const parsed = parsePath(p);
    return parsed !== undefined && paths.some((r) => contains(r, parsed));
  };
  const detailed = new Map([...diff.detailed].map(([p, d]) => [p, { replace: d.replace || covered(p) }]));
  const replaceKeys = new Set([...diff.replaceKeys, ...diff.changedKeys.filter(covered)]);
  let some = diff.some;
  if (hasInitErrors && covered(INIT_ERROR_KEY)) {
    replaceKeys.add(INIT_ERROR_KEY);
    some = true;
  }
  return { ...diff, some, detailed, replaceKeys: [...replaceKeys] };
}

/** `DiffResult.Replace`: a replace key, or a detailed diff entry that replaces. */
export function replaces(diff: EngineDiff): boolean {
  return diff.replaceKeys.length > 0 || [...diff.detailed.values()].some((d) => d.replace);
}

/**
 * Diff as the engine holds it (sg `diff` L2690-2770, `diffResource` L2773-2807): none for a
 * targeted replace (replace keys `["id"]`), else the provider's answer, decided by the
 * engine's own diff of the inputs when it was DIFF_UNKNOWN. A failed Diff ends the run.
 */
export async function diffAsEngineHolds(
  d: Deployment,
  urn: string,
  req: RegisterRequest,
  old: StateEntry,
  checked: JsonObject,
  targetedReplace: boolean,
): Promise<EngineDiff> {
  if (targetedReplace) return { some: true, replaceKeys: ["id"], changedKeys: [], detailed: new Map(), deleteBeforeReplace: false };
  let diff;
  try {
    diff = await d.rpc(() => d.plugin.diff(urn, old.id, old.outputs, checked, old.inputs));
  } catch (e) {
    d.error(urn, req.name, `${req.name}: diff: ${message(e)}`);
    d.bail();
    throw new RegistrationError(message(e));
  }
  const base: EngineDiff = {
    some: diff.changes === "some",
    replaceKeys: diff.replaces,
    changedKeys: [],
    detailed: new Map(),
    deleteBeforeReplace: diff.deleteBeforeReplace,
  };
  return diff.changes === "unknown" ? { ...base, ...diffOfInputs(old.inputs, checked, req.ignoreChanges) } : base;
}
