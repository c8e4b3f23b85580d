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
  it("are as `npm run generate` writes them", async () => {
    const differing = Object.entries(await generatedFiles(root))
      .filter(([file, content]) => fs.readFileSync(path.join(root, file), "utf8") !== content)
      .map(([file]) => file);
    if (differing.length > 0)
      throw new Error(`${differing.join(", ")} differ from what \`npm run generate\` writes: run it and commit the result`);
  });
});
