/**
 * The files generated from the resource schemas (the SDK's classes and types, the README's
 * resource tables) are committed as `npm run generate` writes them: the docs never drift
 * from what `check` accepts.
 */
import * as fs from "fs";
import * as path from "path";
import { generatedFiles } from "../../scripts/generate/files";

const root = path.resolve(__dirname, "..", "..");

describe("generated files", () => {
  it.each(Object.entries(generatedFiles(root)))("%s is as `npm run generate` writes it", (file, content) => {
    const committed = fs.readFileSync(path.join(root, file), "utf8");
    if (committed !== content) throw new Error(`${file} differs from what \`npm run generate\` writes: run it and commit the result`);
  });
});
