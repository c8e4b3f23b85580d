/**
 * The types of the package schema (`schema.json`), from the definitions' zod schemas
 * (through their JSON Schema): primitives, arrays, maps and unions inline; objects and
 * enums declared once under `types` and referenced by `$ref`. The SDK's named types keep
 * their names (without the `Args` suffix, which Pulumi's SDK generators add to input types
 * themselves); any other object or enum is named after where it is first found, and a type
 * found again with the same shape is the same type.
 */
import type { NamedType } from "../../provider/framework/schema";
import { ANY, type ComplexTypeSpec, type EnumTypeSpec, type ObjectTypeSpec, type PropertySpec, type TypeSpec } from "./pulumiSchemaSpec";
import { jsonSchemaOf, type JsonSchema } from "./typeText";
import { typeSpecOfText, unionOf } from "./typeTextSpec";

/** The names a type found at one place gets, if it is new. */
export interface TypeNames {
  /** An object type's name. */
  readonly object: string;
  /** An enum's names, in order of preference: the first one free is taken. */
  readonly enums: readonly string[];
  /** An object type's description. */
  readonly description?: string;
}

function pascal(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/**
 * The names of a type found at property `key` of a resource `kind`: an object is
 * `<Kind><Key>` (it is that resource's), an enum `<Key>` (a set of values, often shared:
 * regions, environments), else `<Kind><Key>`.
 */
export function namesAtResource(kind: string, key: string, description?: string): TypeNames {
  return { object: `${kind}${pascal(key)}`, enums: [pascal(key), `${kind}${pascal(key)}`], description };
}

/** The names of a type found at field `key` of the object type `owner`: `<Owner><Key>`. */
function namesInObject(owner: string, key: string): TypeNames {
  return { object: `${owner}${pascal(key)}`, enums: [`${owner}${pascal(key)}`] };
}

/** The names of an array's elements: `ServiceResources` gives `ServiceResource`. */
function namesOfItems(names: TypeNames): TypeNames {
  const one = (name: string) => (/[^s]s$/.test(name) ? name.slice(0, -1) : `${name}Item`);
  return { object: one(names.object), enums: names.enums.map(one) };
}

/** The name under `types` of the SDK's named type `name`: `HaReplicasArgs` is `HaReplicas`. */
function typeNameOf(name: string): string {
  return name.replace(/Args$/, "");
}

function isPrimitive(value: unknown): value is boolean | number | string {
  return typeof value === "boolean" || typeof value === "number" || typeof value === "string";
}

/** A type's shape: the type without its own description, as JSON. */
function shapeOf(spec: ComplexTypeSpec): string {
  const { description: _description, ...shape } = spec;
  return JSON.stringify(shape);
}

/** The types of one package schema, collected as its properties are converted. */
export class PackageTypes {
  private readonly types = new Map<string, ComplexTypeSpec>();

  /**
   * @param pkg the package's name, the first part of every type token (`clouddb:index:Timeouts`)
   * @param named the SDK's named types (`namedTypesOf`): those with a schema are declared first, under their names
   */
  constructor(
    private readonly pkg: string,
    private readonly named: Readonly<Record<string, NamedType>>,
  ) {
    for (const name of Object.keys(named)) this.namedSpec(name);
  }

  /** The token of the type `name`: `<package>:index:<name>`. */
  token(name: string): string {
    return `${this.pkg}:index:${name}`;
  }

  /**
   * The type of a value described by `js`; `text` (a spec's `sdkType`) is read where JSON
   * Schema says nothing of the value and its metadata has no `tsType` either.
   */
  typeSpec(js: JsonSchema, names: TypeNames, text?: string): TypeSpec {
    if (js.$ref !== undefined) throw new Error(`unexpected $ref ${js.$ref} in a definition's JSON Schema (${names.object})`);
    // A value written as a named type with a form of its own in the native SDKs (a union in the core's) is that form.
    if (js.tsType !== undefined && this.named[js.tsType]?.native !== undefined) return this.namedSpec(js.tsType) ?? ANY;
    if (js.const !== undefined) return this.primitive(js.const, names);
    if (js.enum) return this.enumType(js.enum, names);
    const members = js.anyOf ?? js.oneOf;
    if (members) return unionOf(members.filter((m) => m.type !== "null").map((m) => this.typeSpec(m, names)));
    switch (js.type) {
      case "string":
      case "number":
      case "integer":
      case "boolean":
        return { type: js.type };
      case "array":
        return { type: "array", items: js.items ? this.typeSpec(js.items, namesOfItems(names)) : ANY };
      case "object":
        if (js.properties) return this.ref(this.objectType(js, names));
        return {
          type: "object",
          additionalProperties:
            typeof js.additionalProperties === "object" ? this.typeSpec(js.additionalProperties, namesOfItems(names)) : ANY,
        };
    }
    const written = js.tsType ?? text;
    return written === undefined ? ANY : typeSpecOfText(written, (name) => this.namedSpec(name));
  }

  /** Declares the object type `spec` under `name` (or finds the one of the same shape); a reference to it. */
  object(name: string, spec: ObjectTypeSpec): TypeSpec {
    return this.ref(this.declare([name], spec));
  }

  /** The fields of an object described by `js` (a zod object's JSON Schema), each typed and documented, named after `owner`. */
  fields(js: JsonSchema, owner: string): Record<string, PropertySpec> {
    return Object.fromEntries(
      Object.entries(js.properties ?? {}).map(([key, field]) => [key, this.field(field, namesInObject(owner, key))]),
    );
  }

  /** Every type declared, by token, in the order of their tokens. */
  all(): Record<string, ComplexTypeSpec> {
    const entries = [...this.types].map(([name, spec]): [string, ComplexTypeSpec] => [this.token(name), spec]);
    return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : 1)));
  }

  private ref(name: string): TypeSpec {
    return { $ref: `#/types/${this.token(name)}` };
  }

  /** The type the SDK names `name`, or `undefined` when it names none. */
  private namedSpec(name: string): TypeSpec | undefined {
    const named = this.named[name];
    if (named === undefined) return undefined;
    // The package schema is the native plugin's: a type with a form of its own there is that primitive.
    if (named.native !== undefined) return { type: named.native.type };
    if ("tsType" in named) return typeSpecOfText(named.tsType, (n) => this.namedSpec(n));
    const own = typeNameOf(name);
    return this.typeSpec(jsonSchemaOf(named.schema, "input"), { object: own, enums: [own], description: named.doc });
  }

  private primitive(value: unknown, names: TypeNames): TypeSpec {
    if (typeof value === "string" || typeof value === "boolean") return { type: typeof value as "string" | "boolean" };
    if (typeof value === "number") return { type: Number.isInteger(value) ? "integer" : "number" };
    throw new Error(`a constant ${JSON.stringify(value)} at ${names.object} has no type in the package schema`);
  }

  private enumType(values: readonly unknown[], names: TypeNames): TypeSpec {
    const kinds = new Set(values.map((v) => typeof v));
    const [kind] = [...kinds];
    if (kinds.size !== 1 || (kind !== "string" && kind !== "number" && kind !== "boolean") || !values.every(isPrimitive)) {
      throw new Error(`the enum ${JSON.stringify(values)} at ${names.object} mixes types or holds non-primitive values`);
    }
    const spec: EnumTypeSpec = { type: kind, enum: values.map((value) => ({ value })) };
    return this.ref(this.declare(names.enums, spec));
  }

  private objectType(js: JsonSchema, names: TypeNames): string {
    const properties = Object.fromEntries(
      Object.entries(js.properties ?? {}).map(([key, field]) => [key, this.field(field, namesInObject(names.object, key))]),
    );
    const required = (js.required ?? []).filter((key) => key in properties);
    const spec: ObjectTypeSpec = {
      type: "object",
      ...(names.description ? { description: names.description } : {}),
      properties,
      ...(required.length ? { required } : {}),
    };
    return this.declare([names.object], spec);
  }

  /** A field of an object type: its type, description and default (a primitive one; the TSDoc `@default` tag left out of the text). */
  private field(js: JsonSchema, names: TypeNames): PropertySpec {
    const dflt = isPrimitive(js.default) ? js.default : undefined;
    const description = dflt === undefined ? js.description : js.description?.replace(/\s*@default\s+\S+\s*$/, "");
    return { ...this.typeSpec(js, names), ...(description ? { description } : {}), ...(dflt === undefined ? {} : { default: dflt }) };
  }

  /** Declares `spec` under the first free name of `candidates`, unless a type of the same shape is declared: that one's name. */
  private declare(candidates: readonly string[], spec: ComplexTypeSpec): string {
    const shape = shapeOf(spec);
    for (const [name, existing] of this.types) if (shapeOf(existing) === shape) return name;
    const free = candidates.find((c) => !this.types.has(c));
    if (free === undefined) throw new Error(`the type names ${candidates.join(", ")} are all taken by other types`);
    this.types.set(free, spec);
    return free;
  }
}
