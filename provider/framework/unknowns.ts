/**
 * The value Pulumi's engine puts where an input is not known yet (during preview, for
 * an output of a resource that has not been created or updated).
 */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** True when `value` is, or contains anywhere inside it, the engine's unknown value. */
export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}
