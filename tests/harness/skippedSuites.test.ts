/**
 * A suite that cannot run here says so in the run's output: Jest's default reporter prints
 * nothing of a file whose tests were all skipped, so tests/setup/skippedSuites.js names it
 * with what it said. Runs a jest of its own on two real-CLI suites with no Pulumi tools built
 * (an empty `CLOUDDB_PULUMI_TOOLS_DIR`) and no `CLOUDDB_REQUIRE_PULUMI`.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { REPO_ROOT } from "../../harness";

describe("a test run whose suites cannot run here", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-skipped-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("names each skipped suite and why, without the Pulumi CLI", async () => {
    const jest = require.resolve("jest/bin/jest", { paths: [REPO_ROOT] });
    const files = ["tests/cli/importFlow.test.ts", "tests/cli/processes.test.ts"];
    // The files first: jest's array options take every argument after them. The real-CLI
    // suites are outside `npm test`'s paths (jest.config.js), so the ignore list is jest's default.
    const args = [
      jest,
      ...files,
      "--config",
      path.join(REPO_ROOT, "jest.config.js"),
      "--cacheDirectory",
      path.join(dir, "jest-cache"),
      "--ci",
    ];
    const tools = path.join(dir, "no-tools");
    const env = { ...process.env, CLOUDDB_PULUMI_TOOLS_DIR: tools, CLOUDDB_REQUIRE_PULUMI: "" };
    const output = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        [...args, "--testPathIgnorePatterns", "/node_modules/"],
        { cwd: REPO_ROOT, env, timeout: 120_000 },
        (_e, _o, stderr) => resolve({ code: child.exitCode, stderr }),
      );
    });
    expect(output.code).toBe(0);
    const lines = output.stderr.split("\n").filter((l) => l.startsWith("Skipped "));
    expect(lines.sort()).toEqual([
      "Skipped tests/cli/importFlow.test.ts (1 test): the Pulumi CLI is not built (npm run pulumi:build), so the real-CLI suite did not run",
      "Skipped tests/cli/processes.test.ts (4 tests): the Pulumi CLI is not built (npm run pulumi:build), so the real-CLI suite did not run",
    ]);
    expect(output.stderr).toMatch(/Test Suites: 2 skipped, 0 of 2 total/);
  }, 150_000);
});
