/**
 * The provider's files generated from the resource definitions found under
 * `provider/resources/<module>/definition.ts` (each exporting `<module>Definition`): the
 * list of resource types (`provider/resources/registry.ts`, and `provider/framework/kinds.ts`
 * without the definitions), one entry point per type
 * (`provider/<module>.ts`, which the SDK's trampolines require as
 * `pulumi-clouddb/provider/<module>`), and `provider/index.ts`.
 */
import * as fs from "fs";
import * as path from "path";
import type { ResourceDefinition } from "../../provider/framework/resourceProvider";
import type { RegisteredResource } from "../../provider/resources/registration";
import { header } from "./header";

/** The resource types whose definitions are found under `provider/resources`, in the order of their modules' names. */
export function foundResources(root: string): RegisteredResource[] {
  const dir = path.join(root, "provider", "resources");
  const modules = fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(dir, e.name, "definition.ts")))
    .map((e) => e.name)
    .sort();
  return modules.map((module) => {
    const source = `provider/resources/${module}/definition.ts`;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const exports = require(path.join(dir, module, "definition")) as Record<string, unknown>;
    const definition = exports[`${module}Definition`];
    if (definition === undefined) throw new Error(`${source} does not export ${module}Definition`);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { module, source, definition: definition as ResourceDefinition<any, any> };
  });
}

/** `provider/resources/registry.ts`: every resource type, once. */
function registryFile(resources: readonly RegisteredResource[]): string {
  const imports = resources.map((r) => `import { ${r.module}Definition } from "./${r.module}/definition";`);
  const entries = resources.map((r) => `  { module: "${r.module}", source: "${r.source}", definition: ${r.module}Definition },`);
  return `${header("provider/resources/*/definition.ts")}/**
 * Every resource type, once: what the SDK's generated files, the docs, the import document
 * and the tests iterate over. A resource type is added by adding its definition.
 */
import type { RegisteredResource } from "./registration";
${imports.join("\n")}

/** The resource types, in the order of their modules' names. */
export const RESOURCES: readonly RegisteredResource[] = [
${entries.join("\n")}
];
`;
}

/**
 * `provider/framework/kinds.ts`: each resource type's kind and module, with no import, for the
 * code that must know them but may not load the definitions (the framework, below them).
 */
function kindsFile(resources: readonly RegisteredResource[]): string {
  const entries = resources.map((r) => `  { kind: "${r.definition.schema.kind}", module: "${r.module}" },`);
  return `${header("provider/resources/*/definition.ts")}/**
 * The resource types, once, by kind (\`clouddb.<Kind>\`, \`clouddb:index:<Kind>\`) and module
 * (\`pulumi-clouddb/provider/<module>\`), in the order of their modules' names: the list
 * \`RESOURCES\` (provider/resources/registry.ts) holds with the definitions, for code that
 * loads none (the framework, below them).
 */

/** The resource types' kinds and modules. */
export const KINDS = [
${entries.join("\n")}
] as const;

/** The kind of a resource type, \`Vpc\`. */
export type Kind = (typeof KINDS)[number]["kind"];
`;
}

/** `provider/<module>.ts`: the entry point of one resource type. */
function entryPointFile(r: RegisteredResource): string {
  const kind = r.definition.schema.kind;
  return `${header(r.source)}/** Entry point \`pulumi-clouddb/provider/${r.module}\`, which the serialized trampolines load: the dynamic provider. */
import { defineResourceProvider } from "./framework/resourceProvider";
import { ${r.module}Definition } from "./resources/${r.module}/definition";

/** The dynamic provider behind \`clouddb.${kind}\`. */
export const provider = defineResourceProvider(${r.module}Definition);
`;
}

/** `provider/index.ts`: the dynamic providers of every resource type and the API client. */
function indexFile(resources: readonly RegisteredResource[]): string {
  return `${header("provider/resources/*/definition.ts")}/**
 * Entry point \`pulumi-clouddb/provider\`: the dynamic providers of the resource types
 * (what the serialized trampolines load) and the API client.
 */
${resources.map((r) => `export { provider as ${r.module} } from "./${r.module}";`).join("\n")}
export * as client from "./client/index";
`;
}

/** Every generated provider file, by path. */
export function providerFiles(resources: readonly RegisteredResource[]): Record<string, string> {
  const files: Record<string, string> = {
    "provider/resources/registry.ts": registryFile(resources),
    "provider/framework/kinds.ts": kindsFile(resources),
    "provider/index.ts": indexFile(resources),
  };
  for (const r of resources) files[`provider/${r.module}.ts`] = entryPointFile(r);
  return files;
}
