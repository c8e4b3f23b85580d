/**
 * `schema.json`: the Pulumi package schema of the resources, derived from their
 * definitions, and the contract of the native plugin `pulumi-resource-clouddb` (which serves
 * it) and of the SDKs generated from it (`sdk-native/`): resource types
 * `<package>:index:<Kind>` with their inputs and outputs (packageResources.ts) and their
 * aliases to the dynamic types (so that a stack made with the dynamic providers moves to the
 * native plugin), the object and enum types they use (packageTypes.ts), the functions
 * (packageFunctions.ts), the configuration and the explicit provider's inputs
 * (packageConfig.ts), what a Registry package carries (version, publisher, plugin download
 * URL, ...), and each language's package. tests/docs/packageSchema.test.ts validates it
 * against Pulumi's metaschema.
 */
import type { RegisteredResource } from "../../provider/resources/registration";
import { namedTypesOf } from "../../provider/resources/registration";
import { dynamicTypeOf } from "../../provider/framework/internalInputs";
import { packageConfig } from "./packageConfig";
import { functionSpecs } from "./packageFunctions";
import { NATIVE_PACKAGES, PACKAGE_SUMMARY, packageInfo } from "./packageInfo";
import { resourceSpec } from "./packageResources";
import { PackageTypes } from "./packageTypes";
import { usedTypes } from "./usedTypes";
import type { PackageSpec, ResourceSpec } from "./pulumiSchemaSpec";

/** The package schema of `resources`, with the package described by `root`'s package.json. */
export function packageSchema(root: string, resources: readonly RegisteredResource[]): PackageSpec {
  const info = packageInfo(root);
  const config = packageConfig();
  const types = new PackageTypes(config.namespace, namedTypesOf(resources));
  const specs: Array<[string, ResourceSpec]> = resources.map((r) => [
    types.token(r.definition.schema.kind),
    { ...resourceSpec(r, types), aliases: [{ type: dynamicTypeOf(r.definition.schema.kind) }] },
  ]);
  const functions = functionSpecs(resources, types);
  const keys = Object.keys(config.variables)
    .map((k) => `\`${config.namespace}:${k}\``)
    .join(", ");
  const schema: PackageSpec = {
    name: config.namespace,
    displayName: "CloudDB",
    version: info.version,
    publisher: "CloudDB",
    description: PACKAGE_SUMMARY,
    keywords: ["pulumi", config.namespace, "category/database", "kind/native"],
    homepage: info.homepage,
    license: info.license,
    repository: info.repository,
    pluginDownloadURL: `github://api.github.com/${new URL(info.repository).pathname.replace(/^\//, "")}`,
    config: { variables: config.variables },
    provider: {
      description: `The provider of the ${config.namespace} resources. Its inputs are the stack configuration's keys (${keys}), for a provider made explicitly.`,
      inputProperties: config.variables,
    },
    resources: Object.fromEntries(specs.sort(([a], [b]) => (a < b ? -1 : 1))),
    functions: Object.fromEntries(Object.entries(functions).sort(([a], [b]) => (a < b ? -1 : 1))),
    types: types.all(),
    language: {
      nodejs: {
        packageName: NATIVE_PACKAGES.nodejs,
        packageDescription: `${PACKAGE_SUMMARY} Served by the native provider plugin pulumi-resource-clouddb.`,
        dependencies: { "@pulumi/pulumi": "^3.269.0" },
        respectSchemaVersion: true,
      },
      python: { packageName: NATIVE_PACKAGES.python, pyproject: { enabled: true }, respectSchemaVersion: true },
      go: {
        importBasePath: NATIVE_PACKAGES.go,
        modulePath: NATIVE_PACKAGES.goModule,
        generateResourceContainerTypes: true,
        respectSchemaVersion: true,
      },
      java: NATIVE_PACKAGES.java,
    },
  };
  // Only the types it uses: a named type only the dynamic providers' inputs take is not the native schema's.
  return { ...schema, types: usedTypes(schema.types, { ...schema, types: undefined }) };
}

/** The text of `schema.json` (before Prettier lays it out). */
export function packageSchemaText(root: string, resources: readonly RegisteredResource[]): string {
  return `${JSON.stringify(packageSchema(root, resources), null, 2)}\n`;
}
