/**
 * examples/automation-tenants as a user runs it, under the real Pulumi CLI: its command line
 * (`index.ts up --tenants 4 --parallel 4`, then `destroy`) through the Automation API against
 * an emulator that limits the key to 10 requests a second, 429s carrying `Retry-After`: every
 * tenant's database is made, the progress names each tenant's steps and how many are done,
 * and `destroy` removes them all.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { promisify } from "util";
import { startEmulator } from "../../emulator";
import { EmulatorControl } from "../../emulator/control-client";
import { REPO_ROOT } from "../../harness";
import { describeWithCli } from "../../harness/cli/tools";
import { ClouddbClient } from "../../provider/client";

const run = promisify(execFile);
const EXAMPLE = path.join(REPO_ROOT, "examples", "automation-tenants");

describeWithCli("examples/automation-tenants under the real CLI", (tools) => {
  it("provisions a database per tenant, showing each tenant's progress, then destroys them", async () => {
    const emulator = await startEmulator({ port: 0, clockScale: 0.05 });
    await new EmulatorControl(emulator.url, emulator.pat).rateLimit(10, { retryAfter: true });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-tenants-"));
    // The stacks' work folders resolve pulumi-clouddb (and the provider's modules) from here.
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
    const env = {
      ...process.env,
      PATH: `${tools.bin}${path.delimiter}${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ""}`,
      PULUMI_HOME: path.join(dir, "home"),
      CLOUDDB_TENANTS_DIR: path.join(dir, "tenants"),
      CLOUDDB_API_URL: emulator.baseUrl,
      CLOUDDB_API_KEY: emulator.pat,
      CLOUDDB_PROJECT_ID: emulator.projectId,
    };
    const example = (...args: string[]) =>
      run(process.execPath, [require.resolve("ts-node/dist/bin"), "--transpile-only", path.join(EXAMPLE, "index.ts"), ...args], {
        cwd: REPO_ROOT,
        env,
        maxBuffer: 16 * 1024 * 1024,
      });
    const api = new ClouddbClient({ apiUrl: emulator.baseUrl, apiKey: emulator.pat, projectId: emulator.projectId });
    try {
      const up = await example("up", "--tenants", "4", "--parallel", "4");
      const tenants = ["tenant-01", "tenant-02", "tenant-03", "tenant-04"];
      for (const tenant of tenants) {
        expect(up.stdout).toMatch(new RegExp(`${tenant} +\\+ db \\(clouddb:Service\\) creating\\.\\.\\.`));
        expect(up.stdout).toMatch(new RegExp(`${tenant} +\\+ db \\(clouddb:Service\\) created in \\d+\\.\\ds`));
        expect(up.stdout).toMatch(new RegExp(`${tenant} +done \\(pulumi up in \\d+\\.\\ds\\)`));
      }
      expect(up.stdout).toContain("[4/4 done]");
      expect(up.stdout).toContain("4 of 4 tenant(s) done");
      const services = (await api.perform("listServices", {})).items;
      expect(services.map((s) => s.name).sort()).toEqual(tenants.map((t) => `${t}-db`));

      const down = await example("destroy", "--tenants", "4", "--parallel", "4");
      expect(down.stdout).toContain("4 of 4 tenant(s) done");
      for (const tenant of tenants) expect(down.stdout).toMatch(new RegExp(`${tenant} +- db \\(clouddb:Service\\) deleted`));
      expect((await api.perform("listServices", {})).items).toEqual([]);
    } finally {
      await api.close();
      await emulator.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
