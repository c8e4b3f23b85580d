/**
 * A suite that cannot run here says so in the run's output: Jest's default reporter prints
 * nothing of a file whose tests were all skipped, so tests/setup/skippedSuites.js names it
 * with what it said. Runs a jest of its own on the two Automation API suites, with no
 * `pulumi` CLI on PATH.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { REPO_ROOT } from "../../harness";

describe("a test run whose suites cannot run here", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-skipped-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("names each skipped suite and why, without the pulumi CLI", async () => {
    const jest = require.resolve("jest/bin/jest", { paths: [REPO_ROOT] });
    const args = [jest, "--config", path.join(REPO_ROOT, "jest.config.js"), "--cacheDirectory", path.join(dir, "jest-cache"), "--ci"];
    const files = ["tests/providers/automation.test.ts", "tests/harness/automation.test.ts"];
    // Node's own folder and the system's: no pulumi there (the suites do not count npm's launcher).
    const PATH = [path.dirname(process.execPath), "/usr/bin", "/bin"].join(path.delimiter);
    const output = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        [...args, ...files],
        { cwd: REPO_ROOT, env: { ...process.env, PATH }, timeout: 120_000 },
        (_e, _o, stderr) => resolve({ code: child.exitCode, stderr }),
      );
    });
    expect(output.code).toBe(0);
    const lines = output.stderr.split("\n").filter((l) => l.startsWith("Skipped "));
    expect(lines.sort()).toEqual([
      "Skipped tests/harness/automation.test.ts (1 test): the pulumi CLI is not on PATH, so the harness's Automation API test did not run",
      "Skipped tests/providers/automation.test.ts (1 test): the pulumi CLI is not on PATH, so the Automation API suite did not run",
    ]);
    expect(output.stderr).toMatch(/Test Suites: 2 skipped, 0 of 2 total/);
  }, 150_000);
});
