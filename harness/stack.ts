/**
 * {@link TestStack}: a stack whose programs run in this process, following the engine's rules
 * (README.md in this folder), and whose dynamic resources are served by a provider host:
 * in process, or the real dynamic-provider plugin over gRPC (harness/hosts.ts).
 */
import { inTurn } from "./processTurns";
import * as path from "path";
import { DiagnosticSink, lockedMessage } from "./diagnostics";
import { Deployment, destroyAll } from "./deployment";
import { EngineRun } from "./engineRun";
import { defaultHost, newHost } from "./hosts";
import type { ProviderHost } from "./providerHost";
import { importResources } from "./importFile";
import { refreshAll } from "./refresh";
import { upRun } from "./upRun";
import { checkpointOf, loadCheckpoint, type Checkpoint } from "./checkpoint";
import { HarnessState, ProviderConfig } from "./state";
import { defaultParallel } from "./stepExecutor";
import {
  ImportFileResource,
  ImportOptions,
  PendingOperation,
  RefreshOptions,
  RefreshResult,
  StackOptions,
  StateResource,
  UpOptions,
  UpResult,
} from "./types";

/** The repository root (the folder above this one). */
export const REPO_ROOT = path.resolve(__dirname, "..");

/** How many plugin processes a stack keeps started ahead of its operations. */
const SPARES = 1;

/** A Pulumi program: constructs resources, may return stack outputs (or a promise of them). */
export type Program = () => unknown;

/** The plugin process of the operation under way, as tests may kill it. */
export interface PluginHandle {
  /** Kills the running plugin process (SIGKILL), as a crash would; the operation's calls fail. */
  kill(): Promise<void>;
  /** Process id of the running plugin, if any. */
  readonly pid: number | undefined;
}

/**
 * A test stack. Each operation (`up`, `preview`, `refresh`, `destroy`) starts its own provider
 * host, configured as the CLI configures a plugin, and ends it at the end, as the engine does
 * (one plugin per engine run). Operations run one at a time across all stacks of the process
 * (the Pulumi runtime is global); state lives in memory. Create with {@link TestStack.create};
 * always {@link TestStack.close} it.
 */
export class TestStack {
  /** The plugin process of the operation under way. */
  readonly plugin: PluginHandle;
  private state = new HarnessState();
  private config: Record<string, string>;
  private readonly secretKeys: Set<string>;
  private queue: Promise<unknown> = Promise.resolve();
  /** Set when an engine died mid-run: its lock stays on the stack until {@link cancel} (rule PO4). */
  private locked = false;
  private current?: ProviderHost;
  private readonly orphaned: { plugin: ProviderHost; calls: Set<Promise<unknown>> }[] = [];
  private stderrText = "";
  private stdoutText = "";
  private opStderr = "";
  private opStdout = "";
  /**
   * Processes started ahead for the next operations ({@link SPARES} of them). Each is what a
   * fresh process is (started, not configured, nothing loaded but the host), only started
   * earlier, so that tests do not wait for Node to load the SDK once per operation.
   */
  private spares: Promise<ProviderHost>[] = [];

  private constructor(private readonly opts: Required<Omit<StackOptions, "config" | "secretKeys" | "engine">> & StackOptions) {
    this.config = { ...(opts.config ?? {}) };
    this.secretKeys = new Set(opts.secretKeys ?? []);
    const current = (): ProviderHost | undefined => this.current;
    this.plugin = {
      kill: async () => current()?.kill(),
      get pid() {
        return current()?.pid;
      },
    };
  }

  /**
   * An empty stack (no process is started until the first operation). With `engine: "cli"`
   * or `CLOUDDB_ENGINE=cli`, a stack of the real Pulumi CLI instead (cli/cliStack.ts), of the same
   * surface: any test then runs against the engine itself, which is how the model is checked.
   */
  static async create(opts: StackOptions = {}): Promise<TestStack> {
    if ((opts.engine ?? (process.env.CLOUDDB_ENGINE === "cli" ? "cli" : "model")) === "cli") {
      const { CliStack } = await import("./cli/cliStack");
      return (await CliStack.create(opts)) as unknown as TestStack;
    }
    return new TestStack({
      ...opts,
      project: opts.project ?? "test-project",
      stack: opts.stack ?? "test",
      cwd: opts.cwd ?? REPO_ROOT,
      env: opts.env ?? {},
      parallel: opts.parallel ?? defaultParallel(),
      host: opts.host ?? defaultHost(),
    });
  }

  /** `pulumi stack export` with the stack's config: the whole state as JSON, for a later {@link TestStack.importCheckpoint}. */
  exportCheckpoint(): Checkpoint {
    return checkpointOf(this.opts, this.config, this.secretKeys, this.state);
  }

  /**
   * `pulumi stack import` of `checkpoint`, and its config set as the stack's (`rewrite` may
   * change values first, e.g. the API URL of the emulator the test runs). The stack's project
   * and stack name must be the checkpoint's, or the URNs would not match.
   */
  importCheckpoint(checkpoint: Checkpoint, rewrite: (config: Record<string, string>) => Record<string, string> = (c) => c): void {
    this.config = loadCheckpoint(this.state, checkpoint, this.opts, rewrite);
    this.secretKeys.clear();
    for (const k of checkpoint.secretKeys) this.secretKeys.add(k);
  }

  /** `pulumi state taint <urn>` of the resource named `name`: the next `up` replaces it. */
  taint(name: string): void {
    const entry = this.state.resources.find((r) => r.name === name && !r.pendingDelete);
    if (!entry) throw new Error(`no resource named "${name}" in state`);
    entry.taint = true;
  }

  /**
   * `pulumi cancel`: removes the lock an engine that died left on the stack (the file
   * backend's lock file, pkg/backend/diy/lock.go), so that the next command can run.
   */
  async cancel(): Promise<void> {
    await this.serial(async () => void (this.locked = false));
  }

  /** `pulumi config set [--secret] key value`. Refresh and destroy see it only after the next `up` (engine rule P6). */
  setConfig(key: string, value: string, options: { secret?: boolean } = {}): void {
    this.config[key] = value;
    if (options.secret) this.secretKeys.add(key);
    else if (options.secret === false) this.secretKeys.delete(key);
  }

  /** The current stack config. */
  getConfig(): Record<string, string> {
    return { ...this.config };
  }

  /** `pulumi up --yes --skip-preview` (as the Automation API runs it): one engine run, one plugin process. */
  up(program: Program, options: UpOptions = {}): Promise<UpResult> {
    return this.serial(() => this.unlessLocked(() => this.deploy(program, false, options)));
  }

  /** `pulumi preview`: runs the program as a dry run; Check, Diff and Read reach the plugin, Create/Update/Delete do not. */
  preview(program: Program, options: UpOptions = {}): Promise<UpResult> {
    return this.serial(() => this.deploy(program, true, options));
  }

  /** `pulumi refresh --yes --skip-preview`: reads every resource; the provider is configured as the last `up` left it. */
  refresh(options: RefreshOptions = {}): Promise<RefreshResult> {
    return this.serial(() =>
      this.unlessLocked(() =>
        this.withPlugin(this.state.providerConfig ?? this.currentConfig(), async (run) => {
          if (options.clearPendingCreates) this.state.pendingOperations = [];
          await refreshAll(run);
          return { steps: run.steps, errors: run.errors, diagnostics: run.sink.lines };
        }),
      ),
    );
  }

  /** `pulumi import --file <doc> --yes` (CLI 3.254+, with `inputs` and `outputs` per resource): see importFile.ts. */
  importFile(resources: readonly ImportFileResource[], options: ImportOptions = {}): Promise<RefreshResult> {
    return this.serial(() =>
      this.unlessLocked(() =>
        this.withPlugin(this.currentConfig(), async (run) => {
          await importResources(run, resources, options);
          return { steps: run.steps, errors: run.errors, diagnostics: run.sink.lines };
        }),
      ),
    );
  }

  /** `pulumi destroy --yes --skip-preview`: deletes every managed resource in waves, dependents first. */
  destroy(): Promise<UpResult> {
    return this.serial(() =>
      this.unlessLocked(() =>
        this.withPlugin(this.state.providerConfig ?? this.currentConfig(), async (run) => {
          await destroyAll(run);
          if (this.state.resources.length === 0) {
            this.state.components = [];
            this.state.stackOutputs = {};
            this.state.stackSecretOutputs = [];
          }
          return { steps: run.steps, outputs: {}, errors: run.errors, checkFailures: [], diagnostics: run.sink.lines };
        }),
      ),
    );
  }

  /** Resolves once every provider call left running by an engine that died has finished in its plugin. */
  async orphansSettled(): Promise<void> {
    for (const o of this.orphaned) await Promise.all([...o.calls]);
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

  /** Resources read with `Resource.get` (external), as the state keeps them. */
  externalResources(): { name: string; id: string; outputs: Record<string, unknown> }[] {
    return this.state.reads.map((r) => ({ name: r.name, id: r.id, outputs: structuredClone(r.outputs) }));
  }

  /** The state's pending operations (creates the engine was in the middle of when it died). */
  pendingOperations(): PendingOperation[] {
    return structuredClone(this.state.pendingOperations);
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
    return this.stderrText;
  }

  /** What the plugin processes wrote to stdout after their port lines so far. */
  pluginStdout(): string {
    return this.stdoutText;
  }

  /** Waits for the operation under way, then ends every provider host of this stack: closed as the engine closes plugins, orphans killed. */
  async close(): Promise<void> {
    await this.queue.catch(() => undefined);
    await this.current?.close();
    const spares = this.spares;
    this.spares = [];
    const closed = (s: Promise<ProviderHost>): Promise<void> => s.then((p) => p.close()).catch(() => undefined);
    await Promise.all(spares.map(closed));
    await Promise.all(this.orphaned.map((o) => o.plugin.kill()));
  }

  /** A started plugin process for the next operation (the oldest spare), and new spares behind it. */
  private async takeProcess(): Promise<ProviderHost> {
    const next = this.spares.shift() ?? this.startProcess();
    while (this.spares.length < SPARES) {
      const spare = this.startProcess();
      spare.catch(() => undefined);
      this.spares.push(spare);
    }
    return next;
  }

  private async startProcess(): Promise<ProviderHost> {
    const plugin: ProviderHost = newHost(this.opts.host, {
      project: this.opts.project,
      cwd: this.opts.cwd,
      env: this.opts.env,
      onStderr: (t: string) => {
        this.stderrText += t;
        if (this.current === plugin) this.opStderr += t;
      },
      onStdout: (t: string) => {
        this.stdoutText += t;
        if (this.current === plugin) this.opStdout += t;
      },
    });
    await plugin.start();
    return plugin;
  }

  private currentConfig(): ProviderConfig {
    return { values: { ...this.config }, secretKeys: [...this.secretKeys].filter((k) => k in this.config) };
  }

  /**
   * `op`, unless an engine that died left the stack locked: then the command fails at once
   * with the backend's message (an update, refresh, import or destroy takes the lock; a
   * preview does not).
   */
  private async unlessLocked<T extends UpResult | RefreshResult>(op: () => Promise<T>): Promise<T> {
    if (this.locked) {
      const message = lockedMessage();
      return {
        steps: [],
        outputs: {},
        errors: [{ message }],
        checkFailures: [],
        diagnostics: [{ severity: "error", message }],
      } as unknown as T;
    }
    const result = await op();
    if ("interrupted" in result && result.interrupted === true) this.locked = true;
    return result;
  }

  private serial<T>(op: () => Promise<T>): Promise<T> {
    // The Pulumi runtime is global to the process: operations of all stacks run one at a time.
    const run = inTurn(op);
    this.queue = run;
    return run;
  }

  /**
   * Runs one engine run with its own plugin process: started, configured with `config`, and
   * closed at the end as the engine closes it, unless the engine died and left it running.
   */
  private async withPlugin<T>(
    config: ProviderConfig,
    body: (run: EngineRun, plugin: ProviderHost) => Promise<T>,
    make: (o: ConstructorParameters<typeof EngineRun>[0]) => EngineRun = (o) => new EngineRun(o),
    state: HarnessState = this.state,
    preview = false,
    parallel = this.opts.parallel,
  ): Promise<T> {
    this.opStderr = "";
    this.opStdout = "";
    const plugin = await this.takeProcess();
    this.current = plugin;
    const secretValues = config.secretKeys.map((k) => config.values[k] ?? "");
    const run = make({
      plugin,
      state,
      preview,
      project: this.opts.project,
      stack: this.opts.stack,
      parallel,
      sink: new DiagnosticSink(secretValues),
    });
    try {
      await plugin.configure(config.values, config.secretKeys);
      return await body(run, plugin);
    } finally {
      if (run.dead) {
        this.orphaned.push({ plugin, calls: run.orphans });
      } else {
        await plugin.close();
      }
      if (this.current === plugin) this.current = undefined;
      // The engine shows the plugin's output as info lines without a resource (pkg/resource/plugin/plugin.go).
      for (const line of `${this.opStdout}${this.opStderr}`.split("\n").filter((l) => l.trim() !== "")) run.sink.add("info", line);
    }
  }

  private deploy(program: Program, preview: boolean, options: UpOptions): Promise<UpResult> {
    const config = this.currentConfig();
    const state = preview ? this.state.clone() : this.state;
    return this.withPlugin(
      config,
      (run) => {
        if (!preview) state.providerConfig = config;
        return upRun(run as Deployment, state, program, {
          preview,
          options,
          config: this.config,
          project: this.opts.project,
          stack: this.opts.stack,
        });
      },
      (o) =>
        new Deployment({
          ...o,
          continueOnError: options.continueOnError ?? false,
          errorHookRetries: options.errorHookRetries ?? 0,
          replaceTargets: new Set(options.replace ?? []),
          ...(options.target ? { targets: new Set(options.target) } : {}),
        }),
      state,
      preview,
      options.parallel ?? this.opts.parallel,
    );
  }
}
