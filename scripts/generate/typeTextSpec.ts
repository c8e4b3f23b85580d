/**
 * A package-schema type from TypeScript type text: what a definition says of a value whose
 * zod schema JSON Schema cannot describe (a `z.custom` check), in its metadata's `tsType`
 * or its spec's `sdkType`, e.g. `number | string`, `number | "shared"` or `Size`.
 */
import type { TypeSpec } from "./pulumiSchemaSpec";

/** The spec of a type the text names (e.g. `Size`), or `undefined` when it names none. */
export type NamedTypeLookup = (name: string) => TypeSpec | undefined;

/** `text` split at `separator` where no bracket is open. */
function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if ("<{([".includes(c)) depth++;
    else if (">})]".includes(c)) depth--;
    else if (c === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim());
}

/** The union of `members`, each once (by their JSON), or the one member when only one is left. */
export function unionOf(members: TypeSpec[]): TypeSpec {
  const unique = [...new Map(members.map((m) => [JSON.stringify(m), m])).values()];
  return unique.length === 1 ? unique[0] : { oneOf: unique };
}

/**
 * The package-schema type of TypeScript type text: the primitives, string and number
 * literals (as `string` and `number`: the schema has no literal types), `Array<T>`, the
 * names `named` resolves, and unions of these (`undefined` and `null` left out: whether a
 * property may be absent is said by its being required or not).
 *
 * @throws Error on text it cannot read, so that no property silently becomes `Any`.
 */
export function typeSpecOfText(text: string, named: NamedTypeLookup): TypeSpec {
  const members = splitTopLevel(text, "|").filter((m) => m !== "undefined" && m !== "null");
  if (members.length === 0) throw new Error(`type text ${JSON.stringify(text)} names no value`);
  return unionOf(
    members.map((m): TypeSpec => {
      if (m === "string" || m === "number" || m === "boolean") return { type: m };
      if (/^"(?:[^"\\]|\\.)*"$/.test(m)) return { type: "string" };
      if (/^-?\d+(?:\.\d+)?$/.test(m)) return { type: "number" };
      const array = /^Array<(.*)>$/.exec(m);
      if (array) return { type: "array", items: typeSpecOfText(array[1], named) };
      const found = named(m);
      if (found) return found;
      throw new Error(`cannot read the type text ${JSON.stringify(text)}: ${JSON.stringify(m)} is no type this generator knows`);
    }),
  );
}
