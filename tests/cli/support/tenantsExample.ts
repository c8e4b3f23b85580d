/**
 * examples/automation-tenants run as a user runs it, for the CLI-tier tests of it: an emulator
 * that limits the key to 10 requests a second (429s carrying `Retry-After`), a temporary folder
 * whose `node_modules` is the repository's (the stacks' work folders resolve pulumi-clouddb from
 * there), the example's command line under ts-node with the real CLI first on PATH, and a client
 * of the emulator to see what was made.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { promisify } from "util";
import { startEmulator } from "../../../emulator";
import { EmulatorControl } from "../../../emulator/control-client";
import { REPO_ROOT } from "../../../harness";
import type { CliTools } from "../../../harness/cli/tools";
import { ClouddbClient } from "../../../provider/client";

const run = promisify(execFile);
const EXAMPLE = path.join(REPO_ROOT, "examples", "automation-tenants");

/** One set-up of the example: its folder, its command line, the emulator's client; `close` removes them all. */
export interface TenantsExample {
  /** The temporary folder: `tenants/` under it holds the example's stacks (`CLOUDDB_TENANTS_DIR`). */
  readonly dir: string;
  /** A client of the emulator the example runs against. */
  readonly api: ClouddbClient;
  /** Runs `index.ts <args>`; rejects when it exits non-zero. */
  example(...args: string[]): Promise<{ stdout: string; stderr: string }>;
  /** Closes the client and the emulator, and removes the folder. */
  close(): Promise<void>;
}

/**
 * The example, set up in a new temporary folder named by `prefix`, against a new emulator;
 * `env(dir)` adds to the environment the example runs with.
 */
export async function tenantsExample(
  tools: CliTools,
  prefix: string,
  env: (dir: string) => Record<string, string> = () => ({}),
): Promise<TenantsExample> {
  const emulator = await startEmulator({ port: 0, clockScale: 0.05 });
  await new EmulatorControl(emulator.url, emulator.pat).rateLimit(10, { retryAfter: true });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  const environment = {
    ...process.env,
    PATH: `${tools.bin}${path.delimiter}${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ""}`,
    PULUMI_HOME: path.join(dir, "home"),
    CLOUDDB_TENANTS_DIR: path.join(dir, "tenants"),
    CLOUDDB_API_URL: emulator.baseUrl,
    CLOUDDB_API_KEY: emulator.pat,
    CLOUDDB_PROJECT_ID: emulator.projectId,
    ...env(dir),
  };
  const api = new ClouddbClient({ apiUrl: emulator.baseUrl, apiKey: emulator.pat, projectId: emulator.projectId });
  return {
    dir,
    api,
    example: (...args) =>
      run(process.execPath, [require.resolve("ts-node/dist/bin"), "--transpile-only", path.join(EXAMPLE, "index.ts"), ...args], {
        cwd: REPO_ROOT,
        env: environment,
        maxBuffer: 16 * 1024 * 1024,
      }),
    close: async () => {
      await api.close();
      await emulator.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
