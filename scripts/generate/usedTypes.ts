/**
 * The object and enum types a package schema uses: those its resources, functions,
 * configuration and provider reference (`$ref: "#/types/<token>"`), and those these reference
 * in turn. A named type that only the dynamic providers' inputs use (`Timeouts`,
 * `ProviderSettings`) is then not in the native schema.
 */
import type { ComplexTypeSpec } from "./pulumiSchemaSpec";

const TYPE_REF = /^#\/types\/(.+)$/;

/** Every type token `value` references, at any depth. */
function referencesIn(value: unknown, found: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) for (const v of value) referencesIn(v, found);
  else if (value !== null && typeof value === "object") {
    for (const [key, v] of Object.entries(value)) {
      const token = key === "$ref" && typeof v === "string" ? TYPE_REF.exec(v)?.[1] : undefined;
      if (token !== undefined) found.add(token);
      else referencesIn(v, found);
    }
  }
  return found;
}

/** `types` without those neither `roots` (the rest of the schema) nor a type they use reference. */
export function usedTypes(types: Readonly<Record<string, ComplexTypeSpec>>, roots: unknown): Record<string, ComplexTypeSpec> {
  const used = referencesIn(roots);
  for (const pending = [...used]; pending.length > 0;) {
    for (const token of referencesIn(types[pending.pop() as string])) {
      if (!used.has(token)) {
        used.add(token);
        pending.push(token);
      }
    }
  }
  return Object.fromEntries(Object.entries(types).filter(([token]) => used.has(token)));
}
