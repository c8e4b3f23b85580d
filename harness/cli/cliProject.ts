/**
 * A Pulumi project on disk run by the real CLI as a user runs it (`pulumi up` in its folder,
 * the program loaded by the Node.js language host, TypeScript through ts-node), for the
 * real-CLI tier: the examples as written, and what only a process can show (a CLI killed, a
 * Ctrl-C). Isolated like {@link CliStack}: its own copy of the project, `PULUMI_HOME` and file
 * backend in a temp folder; the copy links the repository's `node_modules`.
 */
import { spawn, type ChildProcess } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { alive } from "../processes";
import { REPO_ROOT } from "../stack";
import { pluginProcesses, processesUnder } from "./processes";
import type { CliTools } from "./tools";
import { cliEnv } from "./workspace";

/** What one CLI command did. */
export interface CommandResult {
  /** The exit code (null when a signal ended it). */
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A project copied into a temp folder, and a stack of it. */
export class CliProject {
  /** The project's folder (the copy). */
  readonly dir: string;
  private readonly env: NodeJS.ProcessEnv;
  private running?: ChildProcess;
  /** Processes a killed CLI left (its plugins and language host), ended by {@link remove}. */
  private orphans: number[] = [];

  private constructor(
    private readonly root: string,
    private readonly tools: CliTools,
    readonly stack: string,
    env: Record<string, string>,
  ) {
    this.dir = path.join(root, "project");
    this.env = { ...process.env, ...cliEnv(root, tools, env) };
  }

  /**
   * Copies the project in `source` (its files; not its `node_modules`), links the
   * repository's `node_modules` into the copy, and creates stack `stack` of it.
   */
  static async create(source: string, tools: CliTools, opts: { stack?: string; env?: Record<string, string> } = {}): Promise<CliProject> {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-project-"));
    for (const d of ["home", "state"]) fs.mkdirSync(path.join(root, d));
    fs.cpSync(source, path.join(root, "project"), {
      recursive: true,
      filter: (f) => !/(^|\/)(node_modules|bin|Pulumi\.[^/]+\.yaml)$/.test(path.relative(source, f)),
    });
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(root, "project", "node_modules"), "dir");
    const project = new CliProject(root, tools, opts.stack ?? "test", opts.env ?? {});
    await project.expect(["stack", "init", project.stack]);
    return project;
  }

  /** Sets stack config (`--secret` for a secret, given on standard input so no argument holds it). */
  async config(values: Record<string, string>, secrets: Record<string, string> = {}): Promise<void> {
    for (const [k, v] of Object.entries(values)) await this.expect(["config", "set", k, v]);
    for (const [k, v] of Object.entries(secrets)) await this.expect(["config", "set", "--secret", k], v);
  }

  /**
   * Runs `pulumi <args> --non-interactive` in the project, `env` added to the project's
   * environment for this command alone; resolves with what it did.
   */
  run(args: string[], input?: string, env: Record<string, string> = {}): Promise<CommandResult> {
    return new Promise((resolve) => {
      const child = spawn(this.tools.pulumi, [...args, "--non-interactive"], { cwd: this.dir, env: { ...this.env, ...env } });
      this.running = child;
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
      child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
      child.stdin.end(input ?? "");
      child.on("close", (code) => {
        if (this.running === child) this.running = undefined;
        resolve({ code, stdout, stderr });
      });
    });
  }

  /** Runs `pulumi <args>` (`env` as {@link run} takes it) and rejects, with its output, unless it exits 0. */
  async expect(args: string[], input?: string, env: Record<string, string> = {}): Promise<CommandResult> {
    const r = await this.run(args, input, env);
    if (r.code !== 0) throw new Error(`pulumi ${args.join(" ")} exited ${String(r.code)}:\n${r.stdout}\n${r.stderr}`);
    return r;
  }

  /** The plugin processes of the CLI command running now (the dynamic-provider host, resource plugins). */
  plugins(): number[] {
    return pluginProcesses(this.running?.pid);
  }

  /** Sends `signal` to the CLI command running now (SIGINT: a Ctrl-C; SIGKILL: a crash). */
  signal(signal: NodeJS.Signals): void {
    const pid = this.running?.pid;
    if (pid === undefined) return;
    if (signal === "SIGKILL") this.orphans.push(...processesUnder(pid));
    this.running?.kill(signal);
  }

  /** `pulumi stack export` (`--show-secrets` when asked). */
  async exportState(showSecrets = false): Promise<string> {
    return (await this.expect(["stack", "export", ...(showSecrets ? ["--show-secrets"] : [])])).stdout;
  }

  /** Removes the project's temp folder (after any command still running ends). */
  async remove(): Promise<void> {
    if (this.running) {
      const done = new Promise((r) => this.running?.once("close", r));
      this.signal("SIGKILL");
      await done;
    }
    for (const pid of this.orphans.filter(alive)) process.kill(pid, "SIGKILL");
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}
