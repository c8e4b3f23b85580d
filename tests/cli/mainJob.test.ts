/**
 * The README's main job as a newcomer runs it, with the real Pulumi CLI: `npm run up` (the
 * quickstart deployed to an emulator it starts), a command through `npm run pulumi`, a
 * preview without changes, `npm run destroy`, `npm run emulator:stop`. No `pulumi` is on
 * PATH: the scripts find the CLI `npm run pulumi:build` built. Its own work dir and
 * PULUMI_HOME: nothing of the user's `.clouddb` or `~/.pulumi` is touched. The work dir is
 * private (0700), as a home directory often is: run as root (CI), the emulator's PostgreSQL
 * cannot reach it, and the job goes on without it, saying why.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { findPostgresBinaries } from "../../emulator/postgres/binaries";
import { REPO_ROOT } from "../../harness";
import { describeWithCli } from "../../harness/cli/tools";
import { alive, gone, stopProcess } from "../scripts/support/sandbox";

/** What an npm script printed and how it ended. */
interface NpmRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

describeWithCli("the main job under the real CLI", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-main-job-"));
  const work = path.join(dir, "work");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // Node's own folder (node, npm) and the system's: no pulumi there.
    PATH: [path.dirname(process.execPath), "/usr/bin", "/bin"].join(path.delimiter),
    CLOUDDB_WORK_DIR: work,
    PULUMI_HOME: path.join(dir, "pulumi-home"),
    CLOUDDB_CLOCK_SCALE: "0.02",
  };
  delete env.PULUMI_CONFIG_PASSPHRASE;
  delete env.PULUMI_BACKEND_URL;
  const npm = (args: string[]): Promise<NpmRun> =>
    new Promise((resolve, reject) => {
      const child = spawn("npm", ["run", "--silent", ...args], { cwd: REPO_ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
  const emulatorPid = (): number | undefined => {
    const file = path.join(work, "emulator.json");
    return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as { pid: number }).pid : undefined;
  };
  afterAll(async () => {
    const pid = emulatorPid();
    if (pid !== undefined) await stopProcess(pid);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("deploys the quickstart to an emulator it starts, previews no change, destroys it and stops the emulator", async () => {
    const up = await npm(["up"]);
    expect({ code: up.code, stderr: up.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
    expect(up.stderr).toMatch(/Started the emulator at http:\/\/127\.0\.0\.1:\d+/);
    if (process.getuid?.() === 0 && findPostgresBinaries() !== undefined) {
      expect(up.stderr).toMatch(/could not run PostgreSQL .*who cannot reach .*: .* is not searchable for it/);
      expect(up.stderr).toMatch(/It runs without it/);
    }
    expect(up.stdout).toMatch(/Resources:\n\s+\+ 4 created/);
    const key = (JSON.parse(fs.readFileSync(path.join(work, "emulator.json"), "utf8")) as { CLOUDDB_API_KEY: string }).CLOUDDB_API_KEY;
    expect(up.stdout + up.stderr).not.toContain(key);

    const password = await npm(["pulumi", "--", "stack", "output", "password", "--show-secrets"]);
    expect(password.code).toBe(0);
    expect(password.stdout.trim()).toMatch(/^\S{8,}$/);

    const preview = await npm(["preview", "--", "--expect-no-changes"]);
    expect({ code: preview.code, stdout: preview.stdout }).toEqual({ code: 0, stdout: expect.any(String) });

    const down = await npm(["destroy"]);
    expect(down.code).toBe(0);
    expect(down.stdout).toMatch(/Resources:\n\s+- 4 deleted/);

    const pid = emulatorPid()!;
    expect(alive(pid)).toBe(true);
    expect((await npm(["emulator:stop"])).code).toBe(0);
    expect(await gone(pid, 10_000)).toBe(true);
  }, 400_000);
});
