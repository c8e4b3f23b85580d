/**
 * `schema.json`: the Pulumi package schema of the resources, derived from their
 * definitions: resource types `<package>:index:<Kind>` with their inputs and outputs
 * (packageResources.ts), the object and enum types they use (packageTypes.ts), the
 * configuration (packageConfig.ts) and the npm package it describes. The ground for
 * serving the same resources to other languages than TypeScript, which a dynamic provider
 * cannot reach; tests/docs/packageSchema.test.ts validates it against Pulumi's metaschema.
 */
import type { RegisteredResource } from "../../provider/resources/registration";
import { namedTypesOf } from "../../provider/resources/registration";
import { packageConfig } from "./packageConfig";
import { PACKAGE_SUMMARY, packageInfo } from "./packageInfo";
import { resourceSpec } from "./packageResources";
import { PackageTypes } from "./packageTypes";
import type { PackageSpec, ResourceSpec } from "./pulumiSchemaSpec";

/** The package schema of `resources`, with the package described by `root`'s package.json. */
export function packageSchema(root: string, resources: readonly RegisteredResource[]): PackageSpec {
  const info = packageInfo(root);
  const config = packageConfig();
  const types = new PackageTypes(config.namespace, namedTypesOf(resources));
  const specs: Array<[string, ResourceSpec]> = resources.map((r) => [types.token(r.definition.schema.kind), resourceSpec(r, types)]);
  const keys = Object.keys(config.variables)
    .map((k) => `\`${config.namespace}:${k}\``)
    .join(", ");
  return {
    name: config.namespace,
    description: PACKAGE_SUMMARY,
    keywords: info.keywords,
    homepage: info.homepage,
    license: info.license,
    repository: info.repository,
    config: { variables: config.variables },
    provider: {
      description: `The provider of the ${config.namespace} resources. Its inputs are the stack configuration's keys (${keys}), for a provider made explicitly.`,
      inputProperties: config.variables,
    },
    resources: Object.fromEntries(specs.sort(([a], [b]) => (a < b ? -1 : 1))),
    types: types.all(),
    language: { nodejs: { packageName: info.name, packageDescription: info.description } },
  };
}

/** The text of `schema.json` (before Prettier lays it out). */
export function packageSchemaText(root: string, resources: readonly RegisteredResource[]): string {
  return `${JSON.stringify(packageSchema(root, resources), null, 2)}\n`;
}
