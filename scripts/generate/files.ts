/** Every file generated from the resource schemas, by path relative to the repository root. */
import * as fs from "fs";
import * as path from "path";
import * as prettier from "prettier";
import { withResourceTables } from "./readmeTables";
import { sdkFiles } from "./sdkFiles";

/** The generated files' contents (TypeScript as Prettier formats it; the README with its tables regenerated). */
export async function generatedFiles(root: string): Promise<Record<string, string>> {
  const options = (await prettier.resolveConfig(path.join(root, "package.json"))) ?? {};
  const files: Record<string, string> = {};
  for (const [file, text] of Object.entries(sdkFiles())) files[file] = await prettier.format(text, { ...options, parser: "typescript" });
  files["README.md"] = withResourceTables(fs.readFileSync(path.join(root, "README.md"), "utf8"));
  return files;
}
