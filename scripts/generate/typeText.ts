/**
 * TypeScript type text from a zod schema, for the generated SDK: through zod's JSON Schema,
 * with `pulumi.Input<>` around every nested property of an input. A schema (or a field)
 * whose metadata has `tsType` is written as that.
 */
import { z } from "zod";

/** A JSON Schema as zod's `toJSONSchema` writes one (the parts the generators read). */
export interface JsonSchema {
  type?: string;
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  description?: string;
  default?: unknown;
  $ref?: string;
  /** A schema's (or a field's) TypeScript type as written in its metadata, e.g. `number | string`. */
  tsType?: string;
}

/** Whether the type is for an input (nested properties take `pulumi.Input`) or an output. */
export type Mode = "input" | "output";

function text(js: JsonSchema, mode: Mode, indent: string): string {
  if (js.tsType) return js.tsType;
  if (js.const !== undefined) return JSON.stringify(js.const);
  if (js.enum) return js.enum.map((e) => JSON.stringify(e)).join(" | ");
  const union = js.anyOf ?? js.oneOf;
  if (union) return union.map((u) => text(u, mode, indent)).join(" | ");
  switch (js.type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      return `Array<${js.items ? text(js.items, mode, indent) : "unknown"}>`;
    case "object": {
      if (!js.properties) {
        const values = typeof js.additionalProperties === "object" ? text(js.additionalProperties, mode, indent) : "unknown";
        return `Record<string, ${values}>`;
      }
      return objectText(js, mode, indent);
    }
    default:
      return "unknown";
  }
}

function objectText(js: JsonSchema, mode: Mode, indent: string): string {
  const inner = `${indent}  `;
  const required = new Set(js.required ?? []);
  const lines = Object.entries(js.properties ?? {}).map(([key, prop]) => {
    const t = text(prop, mode, inner);
    const typed = mode === "input" ? `pulumi.Input<${t}>` : t;
    const doc = prop.description ? `${inner}/** ${prop.description} */\n` : "";
    return `${doc}${inner}${key}${required.has(key) ? "" : "?"}: ${typed};`;
  });
  return `{\n${lines.join("\n")}\n${indent}}`;
}

/**
 * The JSON Schema of `schema`: as the program writes it (`input`, where a field with a
 * default is optional) or as it is read back (`output`). What JSON Schema cannot say (a
 * `z.custom` check) is `{}`, with the schema's metadata such as `tsType`.
 */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  return z.toJSONSchema(schema, { unrepresentable: "any", io }) as JsonSchema;
}

/** The JSON Schema of `schema` as the program writes it (input side). */
function jsonOf(schema: z.ZodType): JsonSchema {
  return jsonSchemaOf(schema, "input");
}

/** The type text of `schema` (without `pulumi.Input` around it); `undefined` not included. */
export function typeText(schema: z.ZodType, mode: Mode, indent = ""): string {
  return text(jsonOf(schema), mode, indent);
}

/** The members of an object schema as interface body lines, each with its description as TSDoc. */
export function interfaceBody(schema: z.ZodType, mode: Mode): string {
  const t = typeText(schema, mode);
  return t.startsWith("{") ? t.slice(1, -1).replace(/^\n/, "").replace(/\n$/, "") : `  // ${t}`;
}
