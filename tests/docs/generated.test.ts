/**
 * The files generated from the resource schemas (the SDK's classes and types, the README's
 * resource tables) are committed as `npm run generate` writes them: the docs never drift
 * from what `check` accepts. The generator runs in its own process: Prettier loads its
 * parsers with dynamic `import()`, which Jest's module sandbox refuses.
 */
import { spawnSync } from "child_process";
import * as path from "path";

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
