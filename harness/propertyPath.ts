/**
 * Property paths as the engine reads them (pulumi/pulumi v3.248.0,
 * sdk/go/common/resource/properties_path.go): parsing (`ParsePropertyPath`), `Contains`
 * (L314-345, by which `replaceOnChanges` matches) and `Reset` (L354-572, by which
 * `ignoreChanges` applies). Paths are `a`, `a.b`, `a[0]`, `a["x.y"]`, and `*` for every key
 * or element.
 */
import { JsonObject } from "./protos";

/** A path segment: a key, an index, or `*` (every key or element). */
export type Segment = string | number;

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
      out.push(m[0]);
      i += m[0].length;
    }
  }
  return out.length > 0 ? out : undefined;
}

/**
 * `PropertyPath.Contains`: `path` contains `other` when `other` is at least as long and each
 * of `path`'s segments equals `other`'s at the same place (`*` matching any key or index).
 * So `a` contains `a.b.c`, and `a.b` does not contain `a`.
 */
export function contains(path: readonly Segment[], other: readonly Segment[]): boolean {
  if (other.length < path.length) return false;
  return path.every((p, i) => p === "*" || p === other[i]);
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * `PropertyPath.reset`, line by line: resets `path` in `news` to its value in `olds`, deleting
 * it from `news` where `olds` has nothing (including where `olds` lacks a parent object that
 * `news` has: the engine then deletes the new value). Returns false on a path error (an added
 * or removed element), as the engine does.
 */
function reset(path: readonly Segment[], olds: unknown, news: unknown): boolean {
  if (path.length === 0) return false;
  const [key, ...rest] = path;
  if (typeof key === "number") {
    if (rest.length === 0) {
      if (!Array.isArray(olds) && !Array.isArray(news)) return true;
      if (!Array.isArray(olds) || !Array.isArray(news)) return false;
      if (key >= olds.length && key >= news.length) return true;
      if (key >= olds.length || key >= news.length) return false;
      news[key] = structuredClone(olds[key] as unknown);
      return true;
    }
    if (!Array.isArray(olds) || !Array.isArray(news)) return !Array.isArray(olds) && !Array.isArray(news);
    if (key >= olds.length || key >= news.length) return false;
    return reset(rest, olds[key], news[key]);
  }
  if (key === "*") {
    if (rest.length === 0) {
      if (isObject(news)) {
        if (isObject(olds)) {
          for (const [k, v] of Object.entries(olds)) news[k] = structuredClone(v);
          for (const k of Object.keys(news)) if (!(k in olds)) delete news[k];
        }
        return true;
      }
      if (Array.isArray(news)) {
        if (Array.isArray(olds)) {
          for (let i = 0; i < olds.length && i < news.length; i++) news[i] = structuredClone(olds[i] as unknown);
          if (olds.length !== news.length) return false;
        }
        return true;
      }
      return false;
    }
    if (isObject(olds) && isObject(news)) {
      return Object.keys(olds).every((k) => k in news && reset(rest, olds[k], news[k]));
    }
    if (Array.isArray(olds) && Array.isArray(news)) {
      for (let i = 0; i < olds.length && i < news.length; i++) if (!reset(rest, olds[i], news[i])) return false;
      return olds.length === news.length;
    }
    return false;
  }
  if (rest.length === 0) {
    const has = isObject(olds) && key in olds;
    if (has) {
      if (!isObject(news)) return false;
      news[key] = structuredClone(olds[key]);
    } else if (isObject(news)) {
      delete news[key];
    }
    return true;
  }
  if (!isObject(olds) || !isObject(news)) return !isObject(olds) && !isObject(news);
  const hasNew = key in news;
  const hasOld = key in olds;
  if (hasOld && !hasNew) return false;
  if (!hasOld && !hasNew) return true;
  // An old value that is missing reads as null: the rest of the path then deletes from the new one.
  return reset(rest, hasOld ? olds[key] : null, news[key]);
}

/** `PropertyPath.Reset` of `path` in `news` (changed in place) from `olds`. */
export function resetPath(path: readonly Segment[], olds: JsonObject, news: JsonObject): boolean {
  return reset(path, olds, news);
}
