/**
 * Runs a program with the real Pulumi CLI through the Automation API (inline program, local
 * file backend in a temp dir). Only usable where `pulumi` is on PATH: see {@link hasPulumiCli}.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { REPO_ROOT } from "./stack";

/**
 * True when a real `pulumi` CLI is on PATH. npm's launchers (`node_modules/.bin/pulumi`, the
 * `pulumi` npm package that downloads the CLI on first use) do not count: a test run must not
 * download anything.
 */
export function hasPulumiCli(): boolean {
  const dirs = (process.env.PATH ?? "").split(path.delimiter).filter((d) => d !== "" && !d.includes(`node_modules${path.sep}.bin`));
  const cli = dirs.map((d) => path.join(d, "pulumi")).find((f) => fs.existsSync(f));
  if (!cli) return false;
  try {
    execFileSync(cli, ["version"], { stdio: "ignore", env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" } });
    return true;
  } catch {
    return false;
  }
}

/** Options of {@link runWithAutomation}. */
export interface AutomationOptions {
  /** @default "automation-test" */
  project?: string;
  /** @default "test" */
  stack?: string;
  /** Config keys to mark secret. @default [] */
  secretKeys?: string[];
  /** Run `destroy` after `up` (and remove the stack). @default true */
  destroy?: boolean;
}

/** What {@link runWithAutomation} returns. */
export interface AutomationResult {
  /** Stack outputs of the `up`, secrets unwrapped. */
  outputs: Record<string, unknown>;
  /** Names of secret stack outputs. */
  secretOutputNames: string[];
  /** Resource change counts of the `up` (`create`, `same`, ...). */
  resourceChanges: Record<string, number>;
  /** The CLI's stdout of the `up`. */
  stdout: string;
  /** The CLI's stdout of the `destroy`, when one ran. */
  destroyStdout?: string;
}

/**
 * `pulumi up` (and by default `pulumi destroy`) of an inline program with the Automation API.
 * Isolated: PULUMI_HOME and the file backend live in a fresh temp dir (removed afterwards);
 * the work dir links the repo's node_modules so provider code resolves as it would in a project.
 * Throws what the CLI throws.
 */
export async function runWithAutomation(
  program: () => unknown,
  config: Record<string, string> = {},
  opts: AutomationOptions = {},
): Promise<AutomationResult> {
  const auto = await import("@pulumi/pulumi/automation");
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-auto-"));
  const backend = path.join(tmp, "backend");
  const home = path.join(tmp, "home");
  const workDir = path.join(tmp, "work");
  for (const d of [backend, home, workDir]) fs.mkdirSync(d);
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(workDir, "node_modules"), "dir");
  const projectName = opts.project ?? "automation-test";
  try {
    const stack = await auto.LocalWorkspace.createOrSelectStack(
      { stackName: opts.stack ?? "test", projectName, program: async () => (await program()) as Record<string, unknown> },
      {
        workDir,
        pulumiHome: home,
        envVars: {
          PULUMI_BACKEND_URL: `file://${backend}`,
          PULUMI_CONFIG_PASSPHRASE: "harness",
          PULUMI_SKIP_UPDATE_CHECK: "true",
          PULUMI_HOME: home,
        },
        projectSettings: { name: projectName, runtime: "nodejs", backend: { url: `file://${backend}` } },
      },
    );
    const secret = new Set(opts.secretKeys ?? []);
    await stack.setAllConfig(Object.fromEntries(Object.entries(config).map(([k, value]) => [k, { value, secret: secret.has(k) }])));
    const up = await stack.up();
    const result: AutomationResult = {
      outputs: Object.fromEntries(Object.entries(up.outputs).map(([k, o]) => [k, o.value])),
      secretOutputNames: Object.entries(up.outputs)
        .filter(([, o]) => o.secret)
        .map(([k]) => k),
      resourceChanges: { ...(up.summary.resourceChanges ?? {}) },
      stdout: up.stdout,
    };
    if (opts.destroy ?? true) {
      const d = await stack.destroy();
      result.destroyStdout = d.stdout;
      await stack.workspace.removeStack(stack.name);
    }
    return result;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
