/**
 * The package's public surface is the one its API reports (`api/*.api.md`) record: for every
 * entry point of package.json's `exports`, what api-extractor reads from the built declarations
 * (`npm test` builds first) equals the checked-in report, so a change to what users can import
 * fails here until `npm run api` rewrites the report and the change is reviewed with it. A
 * report with one line changed shows that the check sees a difference.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { KINDS } from "../../provider/framework/kinds";
import { entryPoints, extractReports, REPORT_FOLDER } from "../../scripts/api/reports";

describe("API reports", () => {
  it("has one report per entry point of package.json's exports (a resource type's from the generated list)", () => {
    expect(entryPoints().map((e) => e.specifier)).toEqual([
      "pulumi-clouddb",
      "pulumi-clouddb/provider",
      "pulumi-clouddb/provider/client",
      ...KINDS.map((k) => `pulumi-clouddb/provider/${k.module}`),
      "pulumi-clouddb/emulator",
    ]);
    expect(fs.readdirSync(REPORT_FOLDER).sort()).toEqual(
      entryPoints()
        .map((e) => e.reportFileName)
        .sort(),
    );
  });

  it("matches what each entry point exports now, with nothing api-extractor finds wrong", () => {
    const results = extractReports(false);
    expect(results.filter((r) => r.changed).map((r) => r.entry.specifier)).toEqual([]);
    expect(results.flatMap((r) => r.problems)).toEqual([]);
  });

  it("sees a surface that differs from its report", () => {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-api-test-"));
    try {
      fs.cpSync(REPORT_FOLDER, copy, { recursive: true });
      const client = path.join(copy, "pulumi-clouddb-provider-client.api.md");
      const text = fs.readFileSync(client, "utf8");
      expect(text).toContain("    close(): Promise<void>;\n");
      fs.writeFileSync(client, text.replace("    close(): Promise<void>;\n", ""));
      const changed = extractReports(false, copy).filter((r) => r.changed);
      expect(changed.map((r) => r.entry.specifier)).toEqual(["pulumi-clouddb/provider/client"]);
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });
});
