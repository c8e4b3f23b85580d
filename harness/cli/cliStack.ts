/**
 * A stack run by the real Pulumi CLI (the one built from its Go modules: tools.ts), with the
 * surface of the model's {@link TestStack}: the same programs (inline, through the Automation
 * API, run in this process), the same results (events.ts) and the same state (deployment.ts),
 * so that a test, or the parity suite, runs once under each and compares. Isolated: the
 * state (a file backend), `PULUMI_HOME` and the project's folder are temp folders of its own,
 * and the folder links the `node_modules` the plugin's `require` resolves from.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { promisify } from "util";
import * as pulumi from "@pulumi/pulumi";
import type * as Auto from "@pulumi/pulumi/automation";
import type { Checkpoint } from "../checkpoint";
import { inTurn } from "../processTurns";
import type { PluginHandle, Program } from "../stack";
import type {
  ImportFileResource,
  ImportOptions,
  PendingOperation,
  RefreshOptions,
  RefreshResult,
  StackOptions,
  StateResource,
  UpOptions,
  UpResult,
} from "../types";
import { deploymentOf, pendingOf, readsOf, resourcesOf, stackOutputsOf, type Deployment } from "./deployment";
import { capture, ownRejections, report, type RunCapture } from "./runs";
import { pluginProcesses, CliProcesses } from "./processes";
import { runProgramRuntime } from "./programRuntime";
import { cliTools, type CliTools } from "./tools";
import { cliWorkspace } from "./workspace";

const run = promisify(execFile);
/** Options of {@link CliStack.create}: the model's, and the tools to use (default: the built ones). */
export interface CliStackOptions extends StackOptions {
  tools?: CliTools;
}

/** A stack of the real CLI; create with {@link CliStack.create}, always {@link CliStack.close} it. */
export class CliStack {
  /** The plugin process of the operation under way (the CLI's child), as a test may kill it. */
  readonly plugin: PluginHandle;
  private config: Record<string, string>;
  private readonly secretKeys: Set<string>;
  private applied = new Map<string, string>();
  private deployment: Deployment = { version: 3, deployment: {} };
  private printedText = "";
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly opts: CliStackOptions & { project: string; stack: string },
    private readonly dir: string,
    private readonly env: Record<string, string>,
    private readonly stack: Auto.Stack,
    private readonly processes: CliProcesses,
  ) {
    this.config = { ...(opts.config ?? {}) };
    this.secretKeys = new Set(opts.secretKeys ?? []);
    this.plugin = {
      kill: async () => {
        for (const pid of pluginProcesses(this.processes.current())) process.kill(pid, "SIGKILL");
      },
      get pid() {
        return pluginProcesses(processes.current())[0];
      },
    };
  }

  /** An empty stack on the built CLI. */
  static async create(opts: CliStackOptions = {}): Promise<CliStack> {
    const tools = opts.tools ?? cliTools();
    if (tools === undefined) throw new Error("the Pulumi CLI is not built: run `npm run pulumi:build`");
    const { dir, env, stack, processes, project, stackName } = await cliWorkspace(opts, tools);
    return new CliStack({ ...opts, project, stack: stackName }, dir, env, stack, processes);
  }

  /** `pulumi up --yes --skip-preview` of the inline program (the Automation API's form). */
  up(program: Program, options: UpOptions = {}): Promise<UpResult> {
    return this.serial(async () => {
      await this.applyConfig();
      const run = capture();
      let outputs: Record<string, unknown> = {};
      let secretOutputNames: string[] = [];
      const stop = this.dieOn(options.engineDies);
      try {
        const r = await this.runProgram(program, options, run, (o) => this.stack.up(o));
        outputs = Object.fromEntries(Object.entries(r.outputs).map(([k, v]) => [k, v.value]));
        secretOutputNames = Object.entries(r.outputs)
          .filter(([, v]) => v.secret)
          .map(([k]) => k);
      } catch {
        // The errors are in the events, or, when the engine never ran, in the output.
        run.failed = true;
      } finally {
        stop();
      }
      await this.refreshState();
      run.killed = options.engineDies?.aborted === true;
      const interrupted = run.killed ? { interrupted: true } : {};
      return { ...report(run), outputs, secretOutputNames, ...interrupted };
    });
  }

  /** `pulumi preview` of the inline program. */
  preview(program: Program, options: UpOptions = {}): Promise<UpResult> {
    return this.serial(async () => {
      await this.applyConfig();
      const run = capture();
      await this.runProgram(program, options, run, (o) => this.stack.preview(o)).catch(() => void (run.failed = true));
      // The stack's outputs as the preview computed them (values not known yet are the unknown sentinel).
      const stackDone = run.events.filter((e) => e.resOutputsEvent?.metadata.type === "pulumi:pulumi:Stack").pop();
      return { ...report(run), outputs: { ...(stackDone?.resOutputsEvent?.metadata.new?.outputs ?? {}) } };
    });
  }

  /** `pulumi refresh --yes --skip-preview`. */
  refresh(options: RefreshOptions = {}): Promise<RefreshResult> {
    return this.serial(async () => {
      await this.applyConfig();
      const run = capture();
      await this.stack
        .refresh({ ...this.capture(run), ...(options.clearPendingCreates ? { clearPendingCreates: true } : {}) })
        .catch(() => void (run.failed = true));
      await this.refreshState();
      const { steps, errors, diagnostics } = report(run, true);
      return { steps, errors, diagnostics };
    });
  }

  /** `pulumi destroy --yes --skip-preview`. */
  destroy(): Promise<UpResult> {
    return this.serial(async () => {
      await this.applyConfig();
      const run = capture();
      await this.stack.destroy(this.capture(run)).catch(() => void (run.failed = true));
      await this.refreshState();
      return { ...report(run), outputs: {} };
    });
  }

  /** `pulumi import --file <doc> --yes` (each resource with `inputs` and `outputs`). */
  importFile(resources: readonly ImportFileResource[], options: ImportOptions = {}): Promise<RefreshResult> {
    return this.serial(async () => {
      await this.applyConfig();
      const file = path.join(this.dir, "import.json");
      fs.writeFileSync(file, JSON.stringify({ resources }));
      // No program generated: the CLI generates it from the provider's schema, which a dynamic provider has none of
      // (without the flag the import is recorded, then the command fails: "GetSchema is not implemented by the dynamic provider").
      const flags = ["--yes", "--skip-preview", "--generate-code=false", `--protect=${String(options.protect ?? true)}`];
      const run = await this.cliRun(["import", "--file", file, ...flags]);
      await this.refreshState();
      const { steps, errors, diagnostics } = report(run);
      return { steps, errors, diagnostics };
    });
  }

  /** `pulumi state taint <urn>` of the resource named `name`. */
  taint(name: string): void {
    const urn = this.resource(name).urn;
    void this.serial(async () => {
      await this.cli(["state", "taint", urn, "--yes"]);
      await this.refreshState();
    });
  }

  /** Runs `commandLine` in bash in the project's folder, the stack selected, as a user types it there; rejects with its output when it fails. */
  async shell(commandLine: string): Promise<void> {
    await this.serial(() =>
      run("bash", ["-c", commandLine], { cwd: path.join(this.dir, "project"), env: { ...process.env, ...this.env } }),
    );
  }

  /** `pulumi cancel --yes`: removes the lock a killed CLI left on the stack. */
  async cancel(): Promise<void> {
    await this.serial(async () => void (await this.cli(["cancel", "--yes"])));
  }

  /** `pulumi config set [--secret] key value` (applied before the next operation). */
  setConfig(key: string, value: string, options: { secret?: boolean } = {}): void {
    this.config[key] = value;
    if (options.secret) this.secretKeys.add(key);
    else if (options.secret === false) this.secretKeys.delete(key);
  }

  /** The stack's config. */
  getConfig(): Record<string, string> {
    return { ...this.config };
  }

  /** `pulumi stack import` of a harness checkpoint, its config set as the stack's (through `rewrite`). */
  importCheckpoint(checkpoint: Checkpoint, rewrite: (config: Record<string, string>) => Record<string, string> = (c) => c): void {
    void this.serial(async () => {
      this.config = rewrite(checkpoint.config);
      this.secretKeys.clear();
      for (const k of checkpoint.secretKeys) this.secretKeys.add(k);
      await this.applyConfig();
      const base = await this.stack.exportStack();
      const file = path.join(this.dir, "checkpoint.json");
      fs.writeFileSync(file, JSON.stringify(deploymentOf(checkpoint, base, rewrite)));
      await this.cli(["stack", "import", "--file", file]);
      await this.refreshState();
    });
  }

  /** Managed custom resources, as the last export showed them. */
  resources(): StateResource[] {
    return resourcesOf(this.deployment);
  }

  /** The live managed resource with this name; throws naming the known names if absent. */
  resource(name: string): StateResource {
    const found = this.resources().find((r) => r.name === name && r.pendingDelete !== true);
    if (!found)
      throw new Error(
        `no resource named "${name}" in state; known: ${
          this.resources()
            .map((r) => r.name)
            .join(", ") || "(none)"
        }`,
      );
    return found;
  }

  /** Resources read with `Resource.get`. */
  externalResources(): { name: string; id: string; outputs: Record<string, unknown> }[] {
    return readsOf(this.deployment);
  }

  /** The state's pending creates. */
  pendingOperations(): PendingOperation[] {
    return pendingOf(this.deployment);
  }

  /** Stack outputs of the state (secrets unwrapped). */
  outputs(): Record<string, unknown> {
    return stackOutputsOf(this.deployment).outputs;
  }

  /** The stack's file in the file backend, as the CLI stores it (secrets encrypted): scan it for leaks. */
  plaintextState(): string {
    const file = path.join(this.dir, "state", ".pulumi", "stacks", this.opts.project, `${this.opts.stack}.json`);
    return fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
  }

  /** What plugins wrote so far, as the CLI shows it: info lines without a resource (pkg/resource/plugin/plugin.go). */
  pluginStderr(): string {
    return this.printedText;
  }

  /** The same as {@link pluginStderr}: the CLI shows a plugin's standard output and error alike. */
  pluginStdout(): string {
    return this.printedText;
  }

  /** Keeps a plugin's line: an info diagnostic without a resource. */
  private notePluginOutput(e: Auto.EngineEvent): void {
    const d = e.diagnosticEvent;
    if (d !== undefined && (d.severity === "info" || d.severity === "info#err") && !d.urn) this.printedText += d.message;
  }

  /** The CLI's plugins outlive it only when it is killed; nothing to wait for here. */
  async orphansSettled(): Promise<void> {
    await this.processes.orphansGone();
  }

  /** Waits for the operation under way, ends what the stack left running, and removes its folders. */
  async close(): Promise<void> {
    await this.queue.catch(() => undefined);
    this.processes.killAll();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  /** The Automation API's `up` or `preview` (`command`) of the program, its store pinned (programRuntime.ts) till the command ended. */
  private runProgram<T>(program: Program, options: UpOptions, run: RunCapture, command: (o: Auto.UpOptions) => Promise<T>): Promise<T> {
    const flags = this.upFlags(options);
    return runProgramRuntime(program, run, (pinned) =>
      ownRejections(() => command({ ...this.runOptions(pinned, options, run), ...flags }), run),
    );
  }

  /** What the Automation API's up and preview get: the program, the events, and the run's flags. */
  private runOptions(program: Program, options: UpOptions, run: RunCapture): Auto.UpOptions {
    return {
      program: async () => {
        const retries = options.errorHookRetries ?? 0;
        if (retries > 0) {
          // Every resource gets an onError hook asking for a failed create to be tried again, `retries` times.
          const hook = new pulumi.ErrorHook("retry-create", (a) => a.errors.length <= retries);
          pulumi.runtime.registerResourceTransform((a) => ({
            props: a.props,
            opts: { ...a.opts, hooks: { ...a.opts.hooks, onError: [hook] } },
          }));
        }
        return ((await program()) ?? {}) as Record<string, unknown>;
      },
      ...this.capture(run),
      ...(options.parallel !== undefined ? { parallel: options.parallel } : {}),
      ...(options.refresh ? { refresh: true } : {}),
    };
  }

  /** The Automation API's callbacks that keep a run's events and everything the CLI printed. */
  private capture(run: RunCapture): {
    onEvent: (e: Auto.EngineEvent) => void;
    onOutput: (text: string) => void;
    onError: (text: string) => void;
  } {
    return {
      onEvent: (e) => {
        run.events.push(e);
        this.notePluginOutput(e);
      },
      onOutput: (text) => void (run.output += text),
      onError: (text) => void (run.output += text),
    };
  }

  /** `--replace`, `--target` and `--continue-on-error`, names turned into URNs. */
  private upFlags(options: UpOptions): Partial<Auto.UpOptions> {
    const urns = (names: string[] | undefined) => names?.map((n) => (n.startsWith("urn:") ? n : this.urnOf(n)));
    return {
      ...(options.replace ? { replace: urns(options.replace) } : {}),
      ...(options.target ? { target: urns(options.target) } : {}),
      ...(options.continueOnError ? { continueOnError: true } : {}),
    };
  }

  /** The URN of a resource in state by name, else the one a dynamic resource of that name would have. */
  private urnOf(name: string): string {
    return this.resources().find((r) => r.name === name)?.urn ?? name;
  }

  /** Kills the CLI (SIGKILL) when `signal` aborts; returns the hook's remover. */
  private dieOn(signal: AbortSignal | undefined): () => void {
    if (signal === undefined) return () => undefined;
    const die = () => this.processes.killCli();
    signal.addEventListener("abort", die);
    return () => signal.removeEventListener("abort", die);
  }

  /** Sets the stack's config as {@link config} holds it, removing what it no longer holds. */
  private async applyConfig(): Promise<void> {
    const wanted = new Map(Object.entries(this.config).map(([k, v]) => [k, `${this.secretKeys.has(k) ? "secret:" : ""}${v}`]));
    const gone = [...this.applied.keys()].filter((k) => !wanted.has(k));
    if (gone.length > 0) await this.stack.removeAllConfig(gone);
    const changed = Object.fromEntries(
      [...wanted]
        .filter(([k, v]) => this.applied.get(k) !== v)
        .map(([k]) => [k, { value: this.config[k], secret: this.secretKeys.has(k) }]),
    );
    if (Object.keys(changed).length > 0) await this.stack.setAllConfig(changed);
    this.applied = wanted;
  }

  /** Reads the state back (`pulumi stack export --show-secrets`). */
  private async refreshState(): Promise<void> {
    this.deployment = await this.stack.exportStack();
  }

  /** Runs the CLI on the stack; rejects with its output when it fails. */
  private cli(args: string[], extraEnv: Record<string, string> = {}): Promise<{ stdout: string; stderr: string }> {
    return run(this.processes.command, [...args, "--stack", this.opts.stack, "--non-interactive"], {
      cwd: path.join(this.dir, "project"),
      env: { ...process.env, ...this.env, ...extraEnv },
      maxBuffer: 64 * 1024 * 1024,
    });
  }

  /** Runs the CLI with `--event-log`: its events and what it printed (also when it fails). */
  private async cliRun(args: string[]): Promise<RunCapture> {
    const log = path.join(this.dir, `events-${Date.now()}.jsonl`);
    let failed = false;
    // `--event-log` is one of the CLI's debug flags (PULUMI_DEBUG_COMMANDS).
    const result = await this.cli([...args, "--event-log", log], { PULUMI_DEBUG_COMMANDS: "true" }).catch(
      (e: { stdout?: string; stderr?: string }) => ((failed = true), e),
    );
    const lines = fs.existsSync(log) ? fs.readFileSync(log, "utf8").split("\n") : [];
    const run: RunCapture = {
      events: lines.filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as Auto.EngineEvent),
      output: `${result.stdout ?? ""}${result.stderr ?? ""}`,
      failed,
    };
    for (const e of run.events) this.notePluginOutput(e);
    return run;
  }

  private serial<T>(op: () => Promise<T>): Promise<T> {
    const done = inTurn(op);
    this.queue = done;
    return done;
  }
}
