/**
 * `npm run generate`: writes the files generated from the resource definitions it
 * finds (the provider's registry and entry points, the SDK's classes and named types, the
 * README's resource tables, the Pulumi package schema `schema.json`). With `--check` it writes
 * nothing and exits 1 naming the committed files that differ from what it would write
 * (`npm test` runs it so).
 */
import * as fs from "fs";
import * as path from "path";
import { generatedFiles } from "./files";

const root = path.resolve(__dirname, "..", "..");

async function main(check: boolean): Promise<void> {
  const differing: string[] = [];
  for (const [file, content] of Object.entries(await generatedFiles(root))) {
    const full = path.join(root, file);
    const before = fs.existsSync(full) ? fs.readFileSync(full, "utf8") : undefined;
    if (before === content) continue;
    differing.push(file);
    if (!check) {
      fs.writeFileSync(full, content);
      console.log(`wrote ${file}`);
    }
  }
  if (check && differing.length > 0) {
    console.error(`${differing.join(", ")} differ from what \`npm run generate\` writes: run it and commit the result`);
    process.exitCode = 1;
  }
}

void main(process.argv.includes("--check"));
