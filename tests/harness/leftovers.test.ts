/**
 * A failing test leaves nothing behind: jest's global teardown (tests/setup/runScope.js)
 * ends the processes the run started and removes its temp directory. Runs a jest of its own
 * on fixtures/abandonedRun.ts, a test that times out while its `up` waits and whose
 * `afterAll` never closes the stack, beside a passing file (so jest uses worker processes,
 * as in the suite: the abandoned worker is force-exited, orphaning its plugin processes).
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { alive, REPO_ROOT, until } from "../../harness";

describe("a test run with a test that fails half-way", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-leftovers-"));
  });
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("ends the processes the failed test left running and removes the run's temp files", async () => {
    const tmp = path.join(dir, "tmp");
    fs.mkdirSync(tmp);
    const pidFile = path.join(dir, "pids");
    const jest = require.resolve("jest/bin/jest", { paths: [REPO_ROOT] });
    // Jest's own cache, which outlives runs on purpose, goes elsewhere: `tmp` holds only what the run makes.
    const cache = path.join(dir, "jest-cache");
    const args = [
      jest,
      "--config",
      path.join(REPO_ROOT, "jest.config.js"),
      "--cacheDirectory",
      cache,
      "--roots",
      "<rootDir>/tests/harness/fixtures",
    ];
    const output = await new Promise<{ code: number | null; text: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        [...args, "--testMatch", "**/fixtures/*Run.ts", "--maxWorkers", "2", "--ci"],
        { cwd: REPO_ROOT, env: { ...process.env, TMPDIR: tmp, ABANDONED_RUN_PIDS: pidFile }, timeout: 120_000 },
        (_err, stdout, stderr) => resolve({ code: child.exitCode, text: `${stdout}${stderr}` }),
      );
    });
    expect(output.text).toContain("Exceeded timeout");
    expect(output.code).toBe(1);
    const plugin = Number(fs.readFileSync(pidFile, "utf8"));
    expect(plugin).toBeGreaterThan(0);
    // SIGKILL was sent before the run ended; on a loaded machine the process may take a moment to die.
    await until("the abandoned plugin to be ended", async () => (alive(plugin) ? undefined : true), 5_000);
    expect(output.text).toMatch(/Ended \d+ process\(es\) that failed tests left running/);
    expect(fs.readdirSync(tmp)).toEqual([]);
  }, 150_000);
});
