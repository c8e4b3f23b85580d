/** Every file generated from the resource definitions, by path relative to the repository root. */
import * as fs from "fs";
import * as path from "path";
import * as prettier from "prettier";
import { packageConfig } from "./packageConfig";
import { withTypeEntryPoints } from "./packageEntryPoints";
import { packageSchemaText } from "./packageSchema";
import { withConfigTable } from "./registryDocs";
import { foundResources, providerFiles } from "./providerFiles";
import { withResourceTables } from "./readmeTables";
import { sdkFiles } from "./sdkFiles";
import { sdkOverlayFiles } from "./sdkOverlays";

/**
 * The generated files' contents (TypeScript and JSON as Prettier formats them; the README
 * with its tables regenerated; `schema.json`, the Pulumi package schema; the Registry
 * installation page's configuration table; package.json's entry points of the resource types;
 * the native TypeScript SDK's overlay listing the resource modules).
 */
export async function generatedFiles(root: string): Promise<Record<string, string>> {
  const options = (await prettier.resolveConfig(path.join(root, "package.json"))) ?? {};
  const files: Record<string, string> = {};
  const resources = foundResources(root);
  for (const [file, text] of Object.entries({ ...providerFiles(resources), ...sdkFiles(resources), ...sdkOverlayFiles(resources) })) {
    files[file] = await prettier.format(text, { ...options, parser: "typescript" });
  }
  files["schema.json"] = await prettier.format(packageSchemaText(root, resources), { ...options, parser: "json" });
  files["README.md"] = withResourceTables(fs.readFileSync(path.join(root, "README.md"), "utf8"), resources);
  const manifest = fs.readFileSync(path.join(root, "package.json"), "utf8");
  files["package.json"] = await prettier.format(withTypeEntryPoints(root, manifest, resources), { ...options, filepath: "package.json" });
  const registryPage = "docs/installation-configuration.md";
  files[registryPage] = withConfigTable(fs.readFileSync(path.join(root, registryPage), "utf8"), packageConfig());
  return files;
}
