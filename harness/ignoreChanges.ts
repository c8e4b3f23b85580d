/**
 * `ignoreChanges` as the engine applies it before Check (pkg/resource/deploy/step_generator.go
 * `processIgnoreChanges` L2838-2858, v3.248.0; path semantics from
 * sdk/go/common/resource/properties_path.go `Reset` L354-572): for each property path, the
 * value at that path in the new inputs is reset to the value at the same path in the old
 * inputs; when the old inputs have nothing there, the key is deleted from the new ones.
 * Paths are full paths: `a`, `a.b`, `a[0]`, `a["x.y"]`, and `*` for every key or element.
 */
import { JsonObject } from "./protos";

/** A path segment: a key, an index, or `*` (every key or element). */
type Segment = string | number;

/** Parses a property path (`a.b[0]["c.d"]`); undefined when it is not one (the engine skips those silently). */
export function parsePath(path: string): Segment[] | undefined {
  const out: Segment[] = [];
  let i = 0;
  const ident = /^[^.[\]"]+/;
  while (i < path.length) {
    if (path[i] === "[") {
      const close = path.indexOf("]", i);
      if (close < 0) return undefined;
      const inner = path.slice(i + 1, close);
      if (inner === "*") out.push("*");
      else if (/^\d+$/.test(inner)) out.push(Number(inner));
      else if (/^".*"$/.test(inner)) out.push(JSON.parse(inner) as string);
      else return undefined;
      i = close + 1;
    } else {
      if (path[i] === ".") {
        if (i === 0) return undefined;
        i++;
      }
      const m = ident.exec(path.slice(i));
      if (!m) return undefined;
      out.push(m[0] === "*" ? "*" : m[0]);
      i += m[0].length;
    }
  }
  return out.length > 0 ? out : undefined;
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Resets `path` in `news` to `olds`; returns false on a path error (added or removed element). */
function reset(news: unknown, olds: unknown, path: Segment[]): boolean {
  const [head, ...rest] = path;
  if (head === "*") {
    if (Array.isArray(news) && Array.isArray(olds)) {
      if (news.length !== olds.length) return false;
      return news.every((_: unknown, i: number) => {
        if (rest.length > 0) return reset(news[i], olds[i], rest);
        news[i] = structuredClone(olds[i] as unknown);
        return true;
      });
    }
    if (isObject(news) && isObject(olds)) {
      if (rest.length === 0) {
        for (const k of Object.keys(news)) if (!(k in olds)) delete news[k];
        for (const [k, v] of Object.entries(olds)) news[k] = structuredClone(v);
        return true;
      }
      return Object.keys(olds).every((k) => k in news && reset(news[k], olds[k], rest));
    }
    return olds === undefined;
  }
  const container = news as Record<string | number, unknown>;
  const oldContainer = olds as Record<string | number, unknown> | undefined;
  const oldValue = oldContainer === undefined || oldContainer === null ? undefined : oldContainer[head];
  if (typeof head === "number") {
    if (!Array.isArray(news) || (Array.isArray(olds) && head >= olds.length) || head >= news.length) return oldValue === undefined;
  } else if (!isObject(news)) {
    return oldValue === undefined;
  }
  if (rest.length === 0) {
    if (oldValue === undefined) {
      if (typeof head === "string") delete container[head];
    } else {
      container[head] = structuredClone(oldValue);
    }
    return true;
  }
  if (oldValue === undefined) return true;
  if (container[head] === undefined) return false;
  return reset(container[head], oldValue, rest);
}

/**
 * The new inputs with every ignored path reset to the old inputs. Returns the paths the engine
 * could not apply (reported once as an info diagnostic, the others still apply).
 */
export function processIgnoreChanges(
  news: JsonObject,
  olds: JsonObject,
  paths: readonly string[],
): { inputs: JsonObject; failed: string[] } {
  const inputs = structuredClone(news);
  const failed: string[] = [];
  for (const p of paths) {
    const parsed = parsePath(p);
    if (!parsed) continue;
    if (!reset(inputs, olds, parsed)) failed.push(p);
  }
  return { inputs, failed };
}
