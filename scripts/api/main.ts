/**
 * `npm run api`: writes the API reports (`api/*.api.md`) of every entry point from the built
 * declarations (run `npm run build` first). With `--check` it writes nothing and exits 1 naming
 * the entry points whose surface differs from its report (`npm test` runs the same check).
 */
import * as path from "path";
import { extractReports, REPORT_FOLDER } from "./reports";

function main(check: boolean): void {
  let failed = false;
  for (const { entry, changed, problems } of extractReports(!check)) {
    for (const p of problems) console.error(`${entry.specifier}: ${p}`);
    failed ||= problems.length > 0;
    if (!changed) continue;
    const report = path.join(path.relative(process.cwd(), REPORT_FOLDER), entry.reportFileName);
    if (check) {
      console.error(`${entry.specifier}: its public surface differs from ${report}: run \`npm run api\`, review and commit it`);
      failed = true;
    } else console.log(`wrote ${report}`);
  }
  if (failed) process.exitCode = 1;
}

main(process.argv.includes("--check"));
