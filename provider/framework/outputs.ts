/**
 * Returns a copy of `value` without `undefined` anywhere inside it. Pulumi's dynamic
 * provider host fails a whole call when an output holds `undefined`, so every `outs`
 * object goes through here.
 */
export function withoutUndefined<T>(value: T): T {
  if (Array.isArray(value)) return value.filter((v) => v !== undefined).map(withoutUndefined) as T;
  if (value !== null && typeof value === "object") {
    const result: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) if (v !== undefined) result[key] = withoutUndefined(v);
    return result as T;
  }
  return value;
}
