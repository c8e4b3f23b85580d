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
  /** Earlier type tokens of the resource: state recorded under one is this resource's (a migration). */
  readonly aliases?: ReadonlyArray<{ readonly type: string }>;
}

/** A function: its arguments (`inputs`) and what it returns (`outputs`). */
export interface FunctionSpec {
  readonly description?: string;
  readonly inputs?: ObjectTypeSpec;
  readonly outputs: ObjectTypeSpec;
}

/** What each language's SDK generator is told: its package name and dependencies (pkg/codegen/<language>/importer.go). */
export interface LanguageSpecs {
  readonly nodejs: {
    readonly packageName: string;
    readonly packageDescription?: string;
    readonly dependencies?: Readonly<Record<string, string>>;
    readonly respectSchemaVersion?: boolean;
  };
  readonly python?: {
    readonly packageName: string;
    readonly requires?: Readonly<Record<string, string>>;
    readonly pyproject?: { readonly enabled: boolean };
    readonly respectSchemaVersion?: boolean;
  };
  readonly go?: {
    readonly importBasePath: string;
    readonly modulePath?: string;
    readonly generateResourceContainerTypes?: boolean;
    readonly respectSchemaVersion?: boolean;
  };
  /** As pulumi-java's code generator reads it (its `PackageInfo`). */
  readonly java?: {
    /** The Java package's prefix: the package is `<basePackage>.<name>` (default `com.pulumi`). */
    readonly basePackage?: string;
    /** `gradle` (a Gradle build beside the sources) or `none`. */
    readonly buildFiles?: "gradle" | "none";
    /** Maven dependencies, `<groupId>:<artifactId>` to version. */
    readonly dependencies?: Readonly<Record<string, string>>;
  };
}

/** A Pulumi package schema. */
export interface PackageSpec {
  readonly name: string;
  /** The package's version: the plugin's, and what the generated SDKs ask the engine for. */
  readonly version?: string;
  readonly displayName?: string;
  readonly publisher?: string;
  /** Where the engine downloads the plugin from (`github://api.github.com/<owner>/<repo>`: the release's tarballs). */
  readonly pluginDownloadURL?: string;
  readonly logoUrl?: string;
  readonly description?: string;
  readonly keywords?: readonly string[];
  readonly homepage?: string;
  readonly license?: string;
  readonly repository?: string;
  readonly config?: { readonly variables: Readonly<Record<string, PropertySpec>> };
  readonly provider?: ResourceSpec;
  readonly resources: Readonly<Record<string, ResourceSpec>>;
  readonly types: Readonly<Record<string, ComplexTypeSpec>>;
  readonly functions?: Readonly<Record<string, FunctionSpec>>;
  readonly language?: LanguageSpecs;
}

/** The type Pulumi's schema calls `Any`: any value. */
export const ANY: TypeSpec = { $ref: "pulumi.json#/Any" };
