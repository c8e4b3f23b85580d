/**
 * The files generated from the resource schemas (the SDK's classes and types, the README's
 * resource tables) are committed as `npm run generate` writes them: the docs never drift
 * from what `check` accepts; a new resource type gets its README section from the generator. The generator runs in its own process: Prettier loads its
 * parsers with dynamic `import()`, which Jest's module sandbox refuses.
 */
import { spawnSync } from "child_process";
import * as path from "path";
import { RESOURCES } from "../../provider/resources/registry";
import { withResourceTables } from "../../scripts/generate/readmeTables";

const root = path.resolve(__dirname, "..", "..");

describe("generated files", () => {
  it("are as `npm run generate` writes them", () => {
    const run = spawnSync(
      process.execPath,
      [require.resolve("ts-node/dist/bin.js"), "--transpile-only", "scripts/generate/main.ts", "--check"],
      {
        cwd: root,
        encoding: "utf8",
      },
    );
    expect({ status: run.status, stderr: run.stderr.trim() }).toEqual({ status: 0, stderr: "" });
  });
});

describe("the README's resource tables", () => {
  it("get a section of their own for a resource type the README does not have yet", () => {
    const vpc = RESOURCES.filter((r) => r.definition.schema.kind === "Vpc");
    const readme = "## Resources\n\nIntro.\n\n### Functions\n\nLookups.\n";
    const out = withResourceTables(readme, vpc);
    expect(out).toMatch(
      /^## Resources\n\nIntro\.\n\n### `Vpc`\n\nA private network \(VPC\) of a project\.\n\n<!-- generated:Vpc -->\n\| argument /,
    );
    expect(out).toMatch(/<!-- \/generated:Vpc -->\n\n### Functions\n\nLookups\.\n$/);
    expect(withResourceTables(out, vpc)).toBe(out);
  });
});
