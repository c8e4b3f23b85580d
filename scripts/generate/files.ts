/** Every file generated from the resource schemas, by path relative to the repository root. */
import * as fs from "fs";
import * as path from "path";
import { withResourceTables } from "./readmeTables";
import { sdkFiles } from "./sdkFiles";

/** The generated files' contents (the README with its tables regenerated). */
export function generatedFiles(root: string): Record<string, string> {
  return {
    ...sdkFiles(),
    "README.md": withResourceTables(fs.readFileSync(path.join(root, "README.md"), "utf8")),
  };
}
