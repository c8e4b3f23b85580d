/**
 * The step generator of `up` and `preview` (pulumi/pulumi v3.248.0, pkg/resource/deploy/step_generator.go,
 * "sg" below): what a registration of a dynamic resource turns into. Check and Diff run one registration at
 * a time (deployment_executor.go `handleSingleEvent` L570-637), and the loop waits until a worker takes the
 * chain it produced (step_executor.go `ExecuteSerial`). The steps run on the {@link StepExecutor};
 * replacements are planned in replacement.ts, reads and imports in reads.ts, the engine's Diff additions in engineDiff.ts.
 */
import { Condemned, dependenciesOf, runDeletes } from "./deletes";
import { checkFailureMessage, ignoreChangesFailedMessage, initErrorMessage } from "./diagnostics";
import { oldStateOf } from "./aliases";
import { applyReplaceOnChanges, diffAsEngineHolds, replaces } from "./engineDiff";
import { EngineDied, EngineRun, EngineRunOptions, message } from "./engineRun";
import { processIgnoreChanges } from "./ignoreChanges";
import { ProviderError } from "./providerHost";
import { JsonObject } from "./protos";
import { importChain, readResource } from "./reads";
import { names, ReadRequest, RegisterRequest, RegisterResponse, RegistrationError, STACK_TYPE, urnOf } from "./registration";
import { withErrorHookRetries } from "./errorHooks";
import { replaceChain, type CreateStepFactory } from "./replacement";
import { keysIn, secretOutputKeys, unwrapProperties, wrapSecrets } from "./secrets";
import { registeredEntry, StateEntry } from "./state";
import { Cancelled, StepFn } from "./stepExecutor";
import { DYNAMIC_TYPE_PREFIX, PendingOperation } from "./types";

export { STACK_TYPE, RegistrationError } from "./registration";
export type { RegisterRequest, RegisterResponse, ReadRequest } from "./registration";

/** What an `up` or `preview` is asked to do besides running the program. */
export interface DeploymentOptions extends EngineRunOptions {
  /** `--replace <urn>`: resources (URNs or names) replaced whatever their Diff says. @default none */
  replaceTargets?: ReadonlySet<string>;
  /** `--target <urn>`: the only resources (URNs or names) the run changes; undefined means every one. */
  targets?: ReadonlySet<string>;
  /** How many times an `onError` hook on every resource asks for a failed Create to be sent again. @default 0 */
  errorHookRetries?: number;
}

/**
 * One `up` or `preview`. Registrations arrive through {@link register} and {@link read};
 * {@link finish} runs the deletes once the program is done.
 */
export class Deployment extends EngineRun {
  /** URNs registered in this run. */
  readonly seen = new Set<string>();
  /** URNs read (`Resource.get`) in this run. */
  readonly readsSeen = new Set<string>();
  /** Dependents deleted before their dependency's replacement; re-created when they register. */
  readonly condemned = new Set<string>();
  /** With `--continue-on-error`: resources whose step failed or was skipped; what depends on them is skipped. */
  private readonly skipped = new Set<string>();
  private readonly order: string[] = [];
  /** Creates in flight, with their inputs: pending operations if the engine dies now. */
  private readonly creating = new Map<string, PendingOperation>();
  private readonly replaceTargets: ReadonlySet<string>;
  private readonly errorHookRetries: number;
  private readonly targets?: ReadonlySet<string>;
  private lock: Promise<void> = Promise.resolve();
  private readonly died: Promise<never>;
  private markDied!: (e: Error) => void;

  constructor(o: DeploymentOptions) {
    super(o);
    this.replaceTargets = o.replaceTargets ?? new Set();
    this.errorHookRetries = o.errorHookRetries ?? 0;
    this.targets = o.targets;
    this.died = new Promise<never>((_, reject) => (this.markDied = reject));
    this.died.catch(() => undefined);
  }

  /** URN the engine gives a resource (parents other than the root stack prefix the type). */
  urn(type: string, name: string, parent: string): string {
    return urnOf(this.stack, this.project, type, name, parent);
  }

  /** The engine dies: creates in flight become pending operations; every waiting registration fails. */
  override die(): void {
    if (this.dead) return;
    this.state.pendingOperations.push(...this.creating.values());
    this.plugin.killEngine();
    super.die();
    this.markDied(new EngineDied());
  }

  /** Runs `f` alone (the event loop handles one registration at a time). */
  async exclusive<T>(f: () => Promise<T>): Promise<T> {
    const prev = this.lock;
    let release!: () => void;
    this.lock = new Promise<void>((r) => (release = r));
    await prev;
    try {
      return await f();
    } finally {
      release();
    }
  }

  /** The error of a registration the engine no longer handles. */
  halted(name: string): RegistrationError {
    return new RegistrationError(`${name}: not registered: the deployment stopped after an earlier error`);
  }

  /** Handles a RegisterResource. Rejects with {@link RegistrationError} when the engine fails it. */
  async register(req: RegisterRequest): Promise<RegisterResponse> {
    return Promise.race([this.registerInner(req), this.died]);
  }

  /** Handles a ReadResource (`Resource.get`, see reads.ts). */
  async read(req: ReadRequest): Promise<{ urn: string; properties: JsonObject }> {
    return Promise.race([readResource(this, this.urn(req.type, req.name, req.parent), req), this.died]);
  }

  private async registerInner(req: RegisterRequest): Promise<RegisterResponse> {
    const urn = this.urn(req.type, req.name, req.parent);
    if (this.seen.has(urn)) {
      const msg = `Duplicate resource URN '${urn}'; try giving it a unique name`;
      this.error(urn, req.name, msg);
      this.bail();
      throw new RegistrationError(msg);
    }
    this.seen.add(urn);
    this.order.push(urn);
    if (!req.custom) {
      if (!this.state.components.some((c) => c.urn === urn)) {
        this.state.components.push({ urn, type: req.type, name: req.name, outputs: {}, secretOutputs: [] });
      }
      return { urn, id: "", object: {} };
    }
    if (!req.type.startsWith(DYNAMIC_TYPE_PREFIX)) {
      const msg = `the harness runs only dynamic resources (${DYNAMIC_TYPE_PREFIX}*), not ${req.type}`;
      this.error(urn, req.name, msg);
      this.bail();
      throw new RegistrationError(msg);
    }
    const done = await this.exclusive(() => this.generate(urn, req));
    return done();
  }

  /**
   * Check, Diff and the decision for one registration (sg `continueStepsFromImport` L1131-1667,
   * `continueStepsFromDiff` L1757-2070). Returns a function that waits for the chain and answers.
   */
  private async generate(urn: string, req: RegisterRequest): Promise<() => Promise<RegisterResponse>> {
    const { name, type } = req;
    if (this.failed) throw this.halted(name);
    if (req.importId) return importChain(this, urn, req);
    const { props: programInputs, secretKeys } = unwrapProperties(req.object);
    const old = oldStateOf(this, urn, req);
    const recreating = this.condemned.has(urn);
    // `--replace` and `pulumi state taint` (sg `isTargetedReplace` L195-202).
    const targetedReplace = old !== undefined && (names(this.replaceTargets, urn) || old.taint === true);
    const targeted = this.targets === undefined || names(this.targets, urn);

    let result: { id: string; outputs: JsonObject } | undefined;
    const secretOutputsFor = (outs: JsonObject): string[] => secretOutputKeys(req.additionalSecretOutputs, secretKeys, outs);
    const respond = (): RegisterResponse => ({
      urn,
      id: result!.id,
      object: wrapSecrets(result!.outputs, secretOutputsFor(result!.outputs)),
    });

    // Not in `--target`: Check stubbed with the old inputs, no Diff; `same` with the old state, and a new
    // one not created, shown `same` too (sg L1196-1205, L1439-1628, L1659-1663; CLI 3.274.1).
    if (!targeted) {
      this.step("same", urn, type, name);
      return async () => (old ? { urn, id: old.id, object: wrapSecrets(old.outputs, old.secretOutputs) } : { urn, id: "", object: {} });
    }

    // ignoreChanges, only against an old state, and not for a targeted replace (sg L1152-1156, L1212).
    let news = programInputs;
    if (old && !recreating && !targetedReplace) {
      const r = processIgnoreChanges(programInputs, old.inputs, req.ignoreChanges);
      news = r.inputs;
      if (r.failed.length > 0) this.sink.add("info", ignoreChangesFailedMessage(r.failed), urn);
    }
    // Check: olds are the old *inputs*; none for a create, a re-create or a targeted replace (sg L1209-1236).
    const checked = await this.check(urn, req, old && !recreating && !targetedReplace ? old.inputs : {}, news, req.object);

    const entry = (id: string, inputs: JsonObject, outputs: JsonObject, initErrors: readonly string[] = []): StateEntry =>
      registeredEntry(
        urn,
        req,
        { id, inputs, outputs, secretOutputs: secretOutputsFor(outputs), secretInputs: keysIn(secretKeys, inputs) },
        initErrors,
      );
    /** A failed step: with `--continue-on-error`, what depends on this resource is skipped. */
    const fail = (): void => void this.skipped.add(urn);

    const createStep: CreateStepFactory = (inputs, op, onMade) => async () => {
      if (this.preview) {
        result = { id: "", outputs: inputs };
        onMade();
        this.step(op, urn, type, name);
        return;
      }
      this.creating.set(urn, { urn, type, inputs, op: "creating" });
      try {
        const res = await withErrorHookRetries(
          this.errorHookRetries,
          () => this.rpc(() => this.plugin.create(urn, inputs)),
          (warning) => this.sink.add("warning", warning, urn),
        );
        this.state.resources.push(entry(res.id, inputs, res.properties));
        result = { id: res.id, outputs: res.properties };
      } catch (e) {
        if (e instanceof EngineDied) throw e;
        fail();
        const init = ProviderError.isInstance(e) ? e.initFailure : undefined;
        if (init?.id) {
          // A partial failure: the resource is in state (sx/eu OnResourceStepPost L1073-1180).
          this.state.resources.push(entry(init.id, inputs, init.properties, init.reasons));
          onMade();
          this.error(urn, name, initErrorMessage(init.reasons));
        } else {
          this.error(urn, name, message(e));
        }
        throw e;
      } finally {
        this.creating.delete(urn);
      }
      onMade();
      this.step(op, urn, type, name);
    };

    let chain: StepFn[];
    if (!old || recreating) {
      chain = [createStep(checked, recreating ? "replace" : "create", () => (recreating && old ? this.state.remove(old) : undefined))];
    } else {
      chain = await this.decide(urn, req, old, checked, targetedReplace, entry, createStep, (r) => (result = r), fail);
    }
    // `--continue-on-error`: steps of a resource that depends on a failed or skipped one are skipped (dx L614-626).
    if (this.continueOnError && [...req.dependencies, ...Object.values(req.propertyDependencies).flat()].some((u) => this.skipped.has(u))) {
      this.skipped.add(urn);
      return async () => ({ urn, id: old?.id ?? "", object: {}, result: "skip" });
    }
    const submitted = this.executor.submit(chain);
    await submitted.taken;
    return async () => {
      try {
        await submitted.done;
      } catch (e) {
        if (e instanceof Cancelled) throw this.halted(name);
        if (this.continueOnError && !(e instanceof EngineDied)) return { urn, id: old?.id ?? "", object: {}, result: "fail" };
        throw new RegistrationError(message(e));
      }
      return respond();
    };
  }

  /** The first (or second) Check; on failures, prints them and ends the run (sg L1234, issueCheckErrors L2809-2836, L1360-1362). */
  async check(urn: string, req: RegisterRequest, olds: JsonObject, news: JsonObject, printed: JsonObject): Promise<JsonObject> {
    let res;
    try {
      res = await this.rpc(() => this.plugin.check(urn, olds, news));
    } catch (e) {
      this.error(urn, req.name, `${req.name}: check: ${message(e)}`);
      this.bail();
      throw new RegistrationError(message(e));
    }
    if (res.failures.length > 0) {
      for (const f of res.failures) {
        this.checkFailures.push({ name: req.name, property: f.property, reason: f.reason });
        this.sink.add("error", checkFailureMessage(req.type, req.name, f.property, f.reason, printed), urn);
      }
      this.bail();
      const list = res.failures.map((f) => `${f.property}: ${f.reason}`).join("; ");
      throw new RegistrationError(`${req.name}: check failed: ${list}`);
    }
    return res.inputs;
  }

  /** Diff and the step it decides (sg `generateStepsFromDiff` L1670-1727, `continueStepsFromDiff` L1757-2070). */
  private async decide(
    urn: string,
    req: RegisterRequest,
    old: StateEntry,
    checked: JsonObject,
    targetedReplace: boolean,
    entry: (id: string, inputs: JsonObject, outputs: JsonObject, initErrors?: readonly string[]) => StateEntry,
    createStep: CreateStepFactory,
    setResult: (r: { id: string; outputs: JsonObject }) => void,
    fail: () => void,
  ): Promise<StepFn[]> {
    const { name, type } = req;
    // `replaceOnChanges` and init errors (`applyReplaceOnChanges` L2911-3002, called at L1822).
    const diff = applyReplaceOnChanges(
      await diffAsEngineHolds(this, urn, req, old, checked, targetedReplace),
      req.replaceOnChanges,
      old.initErrors.length > 0,
    );
    if (diff.some || old.pendingReplacement) {
      if (replaces(diff) || old.pendingReplacement) {
        return replaceChain(this, urn, req, old, checked, { providerDbr: diff.deleteBeforeReplace, targeted: targetedReplace }, createStep);
      }
    } else if (old.initErrors.length === 0) {
      // Same: new inputs and options, old outputs (SameStep).
      return [
        async () => {
          if (!this.preview) this.state.replace(old, entry(old.id, checked, old.outputs));
          setResult({ id: old.id, outputs: old.outputs });
          this.step("same", urn, type, name);
        },
      ];
    }
    // Update, also when Diff said none but the state has init errors (L2053-2068).
    return [
      async () => {
        if (this.preview) {
          setResult({ id: old.id, outputs: checked });
          this.step("update", urn, type, name);
          return;
        }
        let outputs: JsonObject;
        try {
          outputs = await this.rpc(() => this.plugin.update(urn, old.id, old.outputs, checked, old.inputs));
        } catch (e) {
          if (e instanceof EngineDied) throw e;
          fail();
          const init = ProviderError.isInstance(e) ? e.initFailure : undefined;
          if (init) {
            // A partial failure of an Update keeps the *old* inputs (eu OnResourceStepPost L1161-1173).
            this.state.replace(old, entry(old.id, old.inputs, init.properties, init.reasons));
            this.error(urn, name, initErrorMessage(init.reasons));
          } else {
            this.error(urn, name, message(e));
          }
          throw e;
        }
        this.state.replace(old, entry(old.id, checked, outputs));
        setResult({ id: old.id, outputs });
        this.step("update", urn, type, name);
      },
    ];
  }

  /** Handles RegisterResourceOutputs (stack outputs, component outputs). */
  registerOutputs(urn: string, outputs: JsonObject): void {
    if (this.dead) return;
    const { props, secretKeys } = unwrapProperties(outputs);
    if ((urn.split("::")[2] ?? "") === STACK_TYPE) {
      this.state.stackOutputs = props;
      this.state.stackSecretOutputs = secretKeys;
      return;
    }
    const c = this.state.components.find((x) => x.urn === urn);
    if (c) {
      c.outputs = props;
      c.secretOutputs = secretKeys;
    }
  }

  /**
   * Ends the run once the program is done (deployment_executor.go `performPostSteps`
   * L444-555): unless something failed, deletes the replaced old halves and every resource this
   * run did not register (with `--target`, only targeted ones: sg `GenerateDeletes` L2176-2199),
   * in waves; drops pending replacements no longer declared and external resources no longer
   * read; then orders the state by this run's registrations.
   */
  async finish(): Promise<void> {
    if (this.dead) return;
    const { state } = this;
    if (!this.failed) {
      const condemned: Condemned[] = [];
      for (const r of [...state.resources]) {
        const untargeted = this.targets !== undefined && !names(this.targets, r.urn); // kept, and shown same (CLI 3.274.1)
        if (untargeted && !this.seen.has(r.urn) && !r.pendingDelete) this.step("same", r.urn, r.type, r.name);
        if (untargeted) continue;
        if (r.pendingDelete) condemned.push({ entry: r, replacing: true });
        else if (!this.seen.has(r.urn)) {
          if (r.pendingReplacement)
            state.remove(r); // RemovePendingReplaceStep
          else condemned.push({ entry: r, replacing: false });
        }
      }
      // `--continue-on-error`: nothing that depends on a failed resource is deleted.
      await runDeletes(
        this,
        this.continueOnError ? condemned.filter((c) => ![...dependenciesOf(c.entry)].some((u) => this.skipped.has(u))) : condemned,
      );
      if (!this.preview) {
        state.reads = state.reads.filter((r) => this.readsSeen.has(r.urn)); // read-discard
        state.components = state.components.filter((c) => this.seen.has(c.urn) || this.targets !== undefined);
      }
    }
    const rank = new Map(this.order.map((u, i) => [u, i]));
    const key = (r: StateEntry): number => (r.pendingDelete ? -1 : (rank.get(r.urn) ?? -1));
    const registered = state.resources.filter((r) => key(r) >= 0).sort((a, b) => key(a) - key(b));
    const rest = state.resources.filter((r) => key(r) < 0);
    state.resources = [...registered, ...rest];
  }
}

/** A destroy: every resource deleted in waves (protected ones refused), external ones dropped. */
export async function destroyAll(run: EngineRun): Promise<void> {
  await runDeletes(
    run,
    run.state.resources.map((entry) => ({ entry, replacing: false })),
  );
  if (!run.dead && !run.preview) run.state.reads = [];
}
