/**
 * `npm run generate`: writes the files generated from the resource schemas (the SDK's
 * classes and named types, the README's resource tables). `npm test` fails when a
 * committed file differs from what this would write.
 */
import * as fs from "fs";
import * as path from "path";
import { generatedFiles } from "./files";

const root = path.resolve(__dirname, "..", "..");

async function main(): Promise<void> {
  for (const [file, content] of Object.entries(await generatedFiles(root))) {
    const full = path.join(root, file);
    const before = fs.existsSync(full) ? fs.readFileSync(full, "utf8") : undefined;
    if (before !== content) {
      fs.writeFileSync(full, content);
      console.log(`wrote ${file}`);
    }
  }
}

void main();
