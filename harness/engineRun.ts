/**
 * One engine run (one CLI command): the plugin process it started, the state it writes, the
 * step executor, what it prints, and the steps and errors it reports. Shared by `up`/`preview`
 * ({@link Deployment}), `refresh` and `destroy`.
 */
import { DiagnosticSink } from "./diagnostics";
import { ProviderHost } from "./providerHost";
import { HarnessState } from "./state";
import { StepExecutor } from "./stepExecutor";
import { CheckFailure, HarnessError, Step, StepOp } from "./types";

/** Options of an {@link EngineRun}. */
export interface EngineRunOptions {
  plugin: ProviderHost;
  state: HarnessState;
  preview: boolean;
  project: string;
  stack: string;
  parallel: number;
  sink: DiagnosticSink;
  /** `--continue-on-error`: a failed step does not stop the others (step_executor.go `cancelDueToError` L432-458). @default false */
  continueOnError?: boolean;
}

/** The message of an error-like value. */
export function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Thrown into the program's registrations once the engine has died. */
export class EngineDied extends Error {
  constructor() {
    super("the engine process died");
    this.name = "EngineDied";
  }
}

/** What one CLI command shares across its parts. */
export class EngineRun {
  readonly steps: Step[] = [];
  readonly errors: HarnessError[] = [];
  readonly checkFailures: CheckFailure[] = [];
  readonly executor: StepExecutor;
  readonly plugin: ProviderHost;
  readonly state: HarnessState;
  readonly preview: boolean;
  readonly project: string;
  readonly stack: string;
  readonly sink: DiagnosticSink;
  /** `--continue-on-error`. */
  readonly continueOnError: boolean;
  /** Set when the engine process died: nothing more is recorded. */
  dead = false;
  /** Provider calls whose answers nobody will read once the engine died. */
  readonly orphans = new Set<Promise<unknown>>();
  private bailed = false;

  constructor(o: EngineRunOptions) {
    this.plugin = o.plugin;
    this.state = o.state;
    this.preview = o.preview;
    this.project = o.project;
    this.stack = o.stack;
    this.sink = o.sink;
    this.continueOnError = o.continueOnError ?? false;
    this.executor = new StepExecutor(o.parallel, this.continueOnError);
  }

  /** True once a step failed or the step generator bailed: the engine starts nothing new. */
  get failed(): boolean {
    return this.bailed || this.executor.cancelled || this.dead;
  }

  /** Records a step, unless the engine died. */
  step(op: StepOp, urn: string, type: string, name: string): void {
    if (!this.dead) this.steps.push({ op, urn, type, name });
  }

  /**
   * Records an error the engine prints on a resource: its lines, without the blank lines a
   * multierror ends with (as the CLI's events are read: cli/events.ts).
   */
  error(urn: string | undefined, name: string | undefined, msg: string): void {
    if (this.dead) return;
    const lines = msg.replace(/\n+$/, "");
    this.errors.push({ ...(urn ? { urn } : {}), ...(name ? { name } : {}), message: lines });
    this.sink.add("error", lines, urn);
  }

  /** The step generator gives up (a check failure, a protect refusal, an RPC error in Check or Diff): the run ends. */
  bail(): void {
    this.bailed = true;
    this.executor.cancel();
  }

  /** Runs a provider call; once the engine died, its promise is kept as an orphan and never recorded. */
  async rpc<T>(call: () => Promise<T>): Promise<T> {
    const p = call();
    const tracked = p.then(
      () => undefined,
      () => undefined,
    );
    this.orphans.add(tracked);
    try {
      const result = await p;
      if (this.dead) throw new EngineDied();
      return result;
    } finally {
      if (!this.dead) this.orphans.delete(tracked);
    }
  }

  /** The engine process dies: no further step starts, nothing further is recorded. */
  die(): void {
    this.dead = true;
    this.executor.cancel();
  }
}
