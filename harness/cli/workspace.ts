/**
 * Where a stack of the real CLI lives (cliStack.ts, cliProject.ts): a temp folder of its own
 * with the file backend's state, `PULUMI_HOME`, and the project folder, which links the
 * `node_modules` the provider plugin's \`require\` resolves from; and the environment the CLI
 * runs in (its tools first on PATH, a passphrase, no update check).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type * as Auto from "@pulumi/pulumi/automation";
import { REPO_ROOT } from "../stack";
import type { StackOptions } from "../types";
import { CliProcesses } from "./processes";
import type { CliTools } from "./tools";

/** The passphrase of every test stack's secrets. */
export const PASSPHRASE = "clouddb-test";

/** The nearest `node_modules` at or above `dir` (the repository's when there is none). */
export function nodeModulesFor(dir: string): string {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const candidate = path.join(d, "node_modules");
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(d) === d) return path.join(REPO_ROOT, "node_modules");
  }
}

/** The environment of the CLI for a stack whose folders are under `root`: its state, home and tools. */
export function cliEnv(root: string, tools: CliTools, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...extra,
    PATH: `${tools.bin}${path.delimiter}${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ""}`,
    PULUMI_BACKEND_URL: `file://${path.join(root, "state")}`,
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_HOME: path.join(root, "home"),
  };
}

/** A new stack's workspace: its folders, the CLI's environment, the Automation API's stack, and its processes. */
export async function cliWorkspace(
  opts: StackOptions,
  tools: CliTools,
): Promise<{ dir: string; env: Record<string, string>; stack: Auto.Stack; processes: CliProcesses; project: string; stackName: string }> {
  const auto = await import("@pulumi/pulumi/automation");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-cli-"));
  const work = path.join(dir, "project");
  for (const d of [work, path.join(dir, "home"), path.join(dir, "state")]) fs.mkdirSync(d);
  fs.symlinkSync(nodeModulesFor(opts.cwd ?? REPO_ROOT), path.join(work, "node_modules"), "dir");
  const processes = new CliProcesses(path.join(dir, "cli"), tools.pulumi);
  const env = cliEnv(dir, tools, opts.env ?? {});
  if (opts.parallel !== undefined) env.PULUMI_PARALLEL = String(opts.parallel);
  const project = opts.project ?? "test-project";
  const stackName = opts.stack ?? "test";
  const command = await auto.PulumiCommand.get({ root: processes.root, skipVersionCheck: true });
  const ws = await auto.LocalWorkspace.create({
    workDir: work,
    pulumiHome: path.join(dir, "home"),
    pulumiCommand: command,
    envVars: env,
    projectSettings: { name: project, runtime: "nodejs" },
  });
  return { dir, env, stack: await auto.Stack.create(stackName, ws), processes, project, stackName };
}
