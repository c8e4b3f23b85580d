/**
 * {@link TestStack}: a stack whose programs run in this process and whose dynamic resources
 * are handled by the real dynamic-provider plugin over gRPC, following the engine's rules.
 */
import * as path from "path";
import { Deployment, message } from "./engine";
import { HarnessMonitor } from "./monitor";
import { PluginHost } from "./pluginHost";
import { runProgram } from "./runtime";
import { HarnessState } from "./state";
import { RefreshResult, StackOptions, StateResource, Step, UpResult } from "./types";

/** The repository root (two levels above this file). */
export const REPO_ROOT = path.resolve(__dirname, "..", "..");

let processQueue: Promise<unknown> = Promise.resolve();

/** A Pulumi program: constructs resources, may return stack outputs. */
export type Program = () => unknown | Promise<unknown>;

/**
 * A test stack. Operations run one at a time, across all stacks of the process (the Pulumi
 * runtime is global); state lives in memory.
 * Create with {@link TestStack.create}; always {@link TestStack.close} it (kills the plugin).
 */
export class TestStack {
  /** The plugin process host: `stderr()`, `kill()`, `restart()`. */
  readonly plugin: PluginHost;
  private state = new HarnessState();
  private config: Record<string, string>;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly project: string,
    private readonly stack: string,
    config: Record<string, string>,
    plugin: PluginHost,
  ) {
    this.config = { ...config };
    this.plugin = plugin;
  }

  /** Starts the plugin process and returns an empty stack. */
  static async create(opts: StackOptions = {}): Promise<TestStack> {
    const project = opts.project ?? "test-project";
    const stack = opts.stack ?? "test";
    const plugin = new PluginHost({ project, stack, cwd: opts.cwd ?? REPO_ROOT, env: opts.env ?? {} });
    await plugin.start();
    return new TestStack(project, stack, opts.config ?? {}, plugin);
  }

  /** Sets a config value (`clouddb:apiKey`). A changed config reaches a fresh plugin on the next operation. */
  setConfig(key: string, value: string): void {
    this.config[key] = value;
  }

  /** The current stack config. */
  getConfig(): Record<string, string> {
    return { ...this.config };
  }

  /** `pulumi up`: runs the program, creates/updates/replaces, deletes what it no longer declares. */
  up(program: Program): Promise<UpResult> {
    return this.serial(() => this.deploy(program, false));
  }

  /** `pulumi preview`: runs the program as a dry run; only Check, Diff and Read reach the plugin. */
  preview(program: Program): Promise<UpResult> {
    return this.serial(() => this.deploy(program, true));
  }

  /** `pulumi refresh`: Read for every managed resource; removes the gone, updates the drifted. */
  refresh(): Promise<RefreshResult> {
    return this.serial(async () => {
      const steps: Step[] = [];
      const errors: RefreshResult["errors"] = [];
      await this.plugin.ensure(this.config);
      for (const r of [...this.state.resources]) {
        try {
          const res = await this.plugin.read(r.urn, r.id, r.outputs, r.inputs);
          const base = { urn: r.urn, name: r.name, type: r.type };
          if (!res.id) {
            this.state.remove(r);
            steps.push({ op: "refresh-delete", ...base });
            continue;
          }
          const inputs = res.inputs ?? r.inputs;
          const changed =
            res.id !== r.id ||
            JSON.stringify(res.properties) !== JSON.stringify(r.outputs) ||
            JSON.stringify(inputs) !== JSON.stringify(r.inputs);
          r.id = res.id;
          r.outputs = res.properties;
          r.inputs = inputs;
          r.secretOutputs = r.secretOutputs.filter((k) => k in res.properties);
          steps.push({ op: changed ? "refresh-update" : "same", ...base });
        } catch (e) {
          errors.push({ urn: r.urn, name: r.name, message: `${r.name}: read: ${message(e)}` });
        }
      }
      return { steps, errors };
    });
  }

  /** `pulumi destroy`: deletes every managed resource, dependents first. */
  destroy(): Promise<UpResult> {
    return this.serial(async () => {
      await this.plugin.ensure(this.config);
      const d = this.deployment(false, this.state);
      await d.deleteAll(this.state.resources);
      if (this.state.resources.length === 0) {
        this.state.components = [];
        this.state.stackOutputs = {};
        this.state.stackSecretOutputs = [];
      }
      return { steps: d.steps, outputs: {}, errors: d.errors, checkFailures: [] };
    });
  }

  /** Managed custom resources, in registration order (copies). */
  resources(): StateResource[] {
    return this.state.publicResources();
  }

  /** The live managed resource with this name; throws naming the known names if absent. */
  resource(name: string): StateResource {
    const found = this.resources().find((r) => r.name === name && !r.pendingDelete);
    if (!found) {
      const names = this.resources().map((r) => r.name);
      throw new Error(`no resource named "${name}" in state; known: ${names.length ? names.join(", ") : "(none)"}`);
    }
    return found;
  }

  /** The state as JSON with secret values replaced by "[secret]": scan it for leaks. */
  plaintextState(): string {
    return this.state.plaintext();
  }

  /** Stack outputs of the last `up` (secrets unwrapped). */
  outputs(): Record<string, unknown> {
    return structuredClone(this.state.stackOutputs);
  }

  /** What the plugin processes wrote to stderr so far. */
  pluginStderr(): string {
    return this.plugin.stderr();
  }

  /** Kills the plugin. State is dropped with the object. */
  async close(): Promise<void> {
    await this.queue.catch(() => undefined);
    await this.plugin.close();
  }

  private serial<T>(op: () => Promise<T>): Promise<T> {
    // The Pulumi runtime is global to the process: operations of all stacks run one at a time.
    const run = processQueue.catch(() => undefined).then(op);
    processQueue = run;
    this.queue = run;
    return run;
  }

  private deployment(preview: boolean, state: HarnessState): Deployment {
    return new Deployment({ plugin: this.plugin, state, preview, project: this.project, stack: this.stack });
  }

  private async deploy(program: Program, preview: boolean): Promise<UpResult> {
    await this.plugin.ensure(this.config);
    const state = preview ? this.state.clone() : this.state;
    const d = this.deployment(preview, state);
    await d.deletePending();
    const monitor = new HarnessMonitor(d);
    const programErrors = await runProgram(program, monitor, {
      project: this.project,
      stack: this.stack,
      preview,
      config: this.config,
    });
    for (const m of programErrors) d.errors.push({ message: m });
    await d.finish();
    return {
      steps: d.steps,
      outputs: structuredClone(state.stackOutputs),
      errors: d.errors,
      checkFailures: d.checkFailures,
      secretOutputNames: [...state.stackSecretOutputs],
    };
  }
}
