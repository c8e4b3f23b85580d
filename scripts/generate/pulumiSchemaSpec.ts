/**
 * The shapes of a Pulumi package schema that `schema.json` uses, after Pulumi's package
 * metaschema (`pkg/codegen/schema/pulumi.json` in pulumi/pulumi; a copy is in
 * tests/docs/fixtures): only the parts this package writes.
 */

/** A primitive type of the package schema. */
export type PrimitiveType = "boolean" | "integer" | "number" | "string";

/** A reference to a type: a primitive, an array, a map, a named type (`$ref`) or a union (`oneOf`). */
export interface TypeSpec {
  readonly type?: PrimitiveType | "array" | "object";
  /** The element type of an array. */
  readonly items?: TypeSpec;
  /** The value type of a map. */
  readonly additionalProperties?: TypeSpec;
  /** A named type: `#/types/<token>`, or `pulumi.json#/Any`. */
  readonly $ref?: string;
  /** The members of a union. */
  readonly oneOf?: readonly TypeSpec[];
}

/** A property of a resource, an object type or the configuration. */
export interface PropertySpec extends TypeSpec {
  readonly description?: string;
  /** Used when the property is not set; a primitive only. */
  readonly default?: boolean | number | string;
  /** Environment variables that give the value when it is not set. */
  readonly defaultInfo?: { readonly environment: readonly string[] };
  readonly secret?: true;
  /** A change replaces the resource. */
  readonly replaceOnChanges?: true;
}

/** An object type: its properties and which are required (set on inputs, present on outputs). */
export interface ObjectTypeSpec {
  readonly type: "object";
  readonly description?: string;
  readonly properties: Readonly<Record<string, PropertySpec>>;
  readonly required?: readonly string[];
}

/** An enum type: its primitive type and values. */
export interface EnumTypeSpec {
  readonly type: PrimitiveType;
  readonly description?: string;
  readonly enum: ReadonlyArray<{ readonly value: boolean | number | string }>;
}

/** A type declared under `types`. */
export type ComplexTypeSpec = ObjectTypeSpec | EnumTypeSpec;

/** A resource: its inputs and its outputs (`properties`). */
export interface ResourceSpec {
  readonly description?: string;
  readonly inputProperties: Readonly<Record<string, PropertySpec>>;
  readonly requiredInputs?: readonly string[];
  readonly properties?: Readonly<Record<string, PropertySpec>>;
  readonly required?: readonly string[];
  /** What a lookup (`get`) takes besides the id. */
  readonly stateInputs?: ObjectTypeSpec;
}

/** A Pulumi package schema. */
export interface PackageSpec {
  readonly name: string;
  readonly description?: string;
  readonly keywords?: readonly string[];
  readonly homepage?: string;
  readonly license?: string;
  readonly repository?: string;
  readonly config?: { readonly variables: Readonly<Record<string, PropertySpec>> };
  readonly provider?: ResourceSpec;
  readonly resources: Readonly<Record<string, ResourceSpec>>;
  readonly types: Readonly<Record<string, ComplexTypeSpec>>;
  readonly language?: { readonly nodejs: { readonly packageName: string; readonly packageDescription?: string } };
}

/** The type Pulumi's schema calls `Any`: any value. */
export const ANY: TypeSpec = { $ref: "pulumi.json#/Any" };
