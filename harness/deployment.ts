/**
 * The step generator of `up` and `preview` (pulumi/pulumi v3.248.0,
 * pkg/resource/deploy/step_generator.go, "sg" below): what a registration of a dynamic resource
 * turns into. Check and Diff run one registration at a time (the deployment executor's event
 * loop, deployment_executor.go `handleSingleEvent` L570-637), and the loop waits until a worker
 * takes the chain it produced (step_executor.go `ExecuteSerial`, an unbuffered channel). The
 * steps themselves run on the {@link StepExecutor}.
 */
import { Condemned, runDeletes } from "./deletes";
import { checkFailureMessage, initErrorMessage, protectedDependentMessage, protectedReplaceMessage } from "./diagnostics";
import { EngineDied, EngineRun, EngineRunOptions, message } from "./engineRun";
import { processIgnoreChanges } from "./ignoreChanges";
import { ProviderError } from "./pluginHost";
import { JsonObject } from "./protos";
import { unwrapProperties, wrapSecrets } from "./secrets";
import { StateEntry, withInitErrors } from "./state";
import { Cancelled, StepFn } from "./stepExecutor";
import { DYNAMIC_TYPE_PREFIX, PendingOperation, UNKNOWN } from "./types";

/** Root stack type token. */
export const STACK_TYPE = "pulumi:pulumi:Stack";

/** A RegisterResourceRequest, decoded. `object` still holds secret markers. */
export interface RegisterRequest {
  type: string;
  name: string;
  parent: string;
  custom: boolean;
  object: JsonObject;
  dependencies: string[];
  propertyDependencies: Record<string, string[]>;
  additionalSecretOutputs: string[];
  /** Undefined when the program did not set the option (`deleteBeforeReplaceDefined` false). */
  deleteBeforeReplace?: boolean;
  /** Undefined when the program did not set the option. */
  protect?: boolean;
  /** Undefined when the program did not set the option. */
  retainOnDelete?: boolean;
  importId: string;
  ignoreChanges: string[];
  replaceOnChanges: string[];
}

/** What the monitor answers to a registration: outputs with secret markers. */
export interface RegisterResponse {
  urn: string;
  id: string;
  object: JsonObject;
}

/** A ReadResourceRequest (`Resource.get`), decoded. */
export interface ReadRequest {
  type: string;
  name: string;
  parent: string;
  id: string;
  properties: JsonObject;
  dependencies: string[];
  additionalSecretOutputs: string[];
}

/** An error that fails a registration; the monitor turns it into an RPC error. */
export class RegistrationError extends Error {
  constructor(msg: string) {
    super(msg);
    this.name = "RegistrationError";
  }
}

function pick(keys: readonly string[], obj: JsonObject): string[] {
  return [...new Set(keys)].filter((k) => k in obj);
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v !== null && typeof v === "object") {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys((v as JsonObject)[k])]),
    );
  }
  return v;
}

/** The engine's own diff of inputs (sg L2794-2805), for a Diff that answered DIFF_UNKNOWN: the top-level keys that differ, `__provider` included. */
function changedInputKeys(olds: JsonObject, news: JsonObject): string[] {
  const keys = new Set([...Object.keys(olds), ...Object.keys(news)]);
  return [...keys].filter((k) => !deepEqual(olds[k], news[k]));
}

/** Whether a `replaceOnChanges` path covers a changed key (sg `applyReplaceOnChanges` L2911-3002). */
function replaceOnChangesHit(paths: readonly string[], changed: readonly string[]): boolean {
  return paths.some((p) => p === "*" || changed.some((k) => p === k || p.startsWith(`${k}.`) || p.startsWith(`${k}[`)));
}

/**
 * One `up` or `preview`. Registrations arrive through {@link register} and {@link read};
 * {@link finish} runs the deletes once the program is done.
 */
export class Deployment extends EngineRun {
  private readonly seen = new Set<string>();
  private readonly readsSeen = new Set<string>();
  private readonly order: string[] = [];
  /** Dependents deleted before their dependency's replacement; re-created when they register. */
  private readonly condemned = new Set<string>();
  /** Creates in flight, with their inputs: pending operations if the engine dies now. */
  private readonly creating = new Map<string, PendingOperation>();
  private lock: Promise<void> = Promise.resolve();
  private readonly died: Promise<never>;
  private markDied!: (e: Error) => void;

  constructor(o: EngineRunOptions) {
    super(o);
    this.died = new Promise<never>((_, reject) => (this.markDied = reject));
    this.died.catch(() => undefined);
  }

  /** URN the engine gives a resource (parents other than the root stack prefix the type). */
  urn(type: string, name: string, parent: string): string {
    let qualified = type;
    if (parent) {
      const parentType = parent.split("::")[2] ?? "";
      if (parentType !== STACK_TYPE) qualified = `${parentType}$${type}`;
    }
    return `urn:pulumi:${this.stack}::${this.project}::${qualified}::${name}`;
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
  private async exclusive<T>(f: () => Promise<T>): Promise<T> {
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

  private halted(urn: string, name: string): RegistrationError {
    void urn;
    return new RegistrationError(`${name}: not registered: the deployment stopped after an earlier error`);
  }

  /** Handles a RegisterResource. Rejects with {@link RegistrationError} when the engine fails it. */
  async register(req: RegisterRequest): Promise<RegisterResponse> {
    return Promise.race([this.registerInner(req), this.died]);
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
    if (this.failed) throw this.halted(urn, name);
    const { props: programInputs, secretKeys } = unwrapProperties(req.object);
    const old = this.state.live(urn);
    const recreating = this.condemned.has(urn);

    if (req.importId) return this.importChain(urn, req);

    // ignoreChanges, only against an old state (sg L1152-1156, processIgnoreChanges L2838-2858).
    let news = programInputs;
    if (old && !recreating) {
      const r = processIgnoreChanges(programInputs, old.inputs, req.ignoreChanges);
      news = r.inputs;
      if (r.failed.length > 0) {
        this.sink.add(
          "info",
          `cannot ignore changes in added or removed elements of the path: ${JSON.stringify(r.failed.join(", "))}`,
          urn,
        );
      }
    }
    // Check: olds are the old *inputs*; none for a create or a re-create (sg L1209-1236).
    const checked = await this.check(urn, req, old && !recreating ? old.inputs : {}, news, req.object);

    const secretOutputsFor = (outs: JsonObject): string[] =>
      pick([...req.additionalSecretOutputs, ...secretKeys.filter((k) => k !== "__provider")], outs);
    const entry = (id: string, inputs: JsonObject, outputs: JsonObject, initErrors: readonly string[] = []): StateEntry =>
      withInitErrors(
        {
          urn,
          type,
          name,
          id,
          inputs,
          outputs,
          secretOutputs: secretOutputsFor(outputs),
          secretInputs: pick(secretKeys, inputs),
          dependencies: [...req.dependencies],
          propertyDependencies: structuredClone(req.propertyDependencies),
          initErrors: [],
          ...(req.deleteBeforeReplace !== undefined ? { deleteBeforeReplace: req.deleteBeforeReplace } : {}),
          ...(req.protect ? { protect: true } : {}),
          ...(req.retainOnDelete ? { retainOnDelete: true } : {}),
        },
        initErrors,
      );
    let result: { id: string; outputs: JsonObject } | undefined;
    const respond = (): RegisterResponse => ({
      urn,
      id: result!.id,
      object: wrapSecrets(result!.outputs, secretOutputsFor(result!.outputs)),
    });

    const createStep =
      (inputs: JsonObject, op: "create" | "replace", onMade: () => void): StepFn =>
      async () => {
        if (this.preview) {
          result = { id: "", outputs: inputs };
          onMade();
          this.step(op, urn, type, name);
          return;
        }
        this.creating.set(urn, { urn, type, inputs, op: "creating" });
        try {
          const res = await this.rpc(() => this.plugin.create(urn, inputs));
          this.state.resources.push(entry(res.id, inputs, res.properties));
          result = { id: res.id, outputs: res.properties };
        } catch (e) {
          if (e instanceof EngineDied) throw e;
          const init = ProviderError.isInstance(e) ? e.initFailure : undefined;
          if (init?.id) {
            // A partial failure: the resource is in state (sx/eu OnResourceStepPost L1073-1180).
            this.state.resources.push(entry(init.id, inputs, init.properties, init.reasons));
            onMade();
            this.error(urn, name, `${name}: ${op === "replace" ? "replace" : "create"}: ${initErrorMessage(init.reasons)}`);
          } else {
            this.error(urn, name, `${name}: create: ${message(e)}`);
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
      chain = [
        createStep(checked, recreating ? "replace" : "create", () => {
          if (recreating && old) this.state.remove(old);
        }),
      ];
    } else {
      chain = await this.decide(urn, req, old, checked, entry, createStep, (r) => (result = r));
    }
    const submitted = this.executor.submit(chain);
    await submitted.taken;
    return async () => {
      try {
        await submitted.done;
      } catch (e) {
        if (e instanceof Cancelled) throw this.halted(urn, name);
        throw new RegistrationError(message(e));
      }
      return respond();
    };
  }

  /** The first (or second) Check; on failures, prints them and ends the run (sg L1234, issueCheckErrors L2809-2836, L1360-1362). */
  private async check(urn: string, req: RegisterRequest, olds: JsonObject, news: JsonObject, printed: JsonObject): Promise<JsonObject> {
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
    entry: (id: string, inputs: JsonObject, outputs: JsonObject, initErrors?: readonly string[]) => StateEntry,
    createStep: (inputs: JsonObject, op: "create" | "replace", onMade: () => void) => StepFn,
    setResult: (r: { id: string; outputs: JsonObject }) => void,
  ): Promise<StepFn[]> {
    const { name, type } = req;
    let diff;
    try {
      diff = await this.rpc(() => this.plugin.diff(urn, old.id, old.outputs, checked, old.inputs));
    } catch (e) {
      this.error(urn, name, `${name}: diff: ${message(e)}`);
      this.bail();
      throw new RegistrationError(message(e));
    }
    let some = diff.changes === "some";
    let replaceByOption = false;
    if (diff.changes === "unknown") {
      const changed = changedInputKeys(old.inputs, processIgnoreChanges(checked, old.inputs, req.ignoreChanges).inputs);
      some = changed.length > 0;
      replaceByOption = replaceOnChangesHit(req.replaceOnChanges, changed);
    }
    // `replaceOnChanges: ["*"]` turns init errors into a replacement (L2974-2990).
    if (!some && old.initErrors.length > 0 && req.replaceOnChanges.includes("*")) {
      some = true;
      replaceByOption = true;
    }

    if (some || old.pendingReplacement) {
      if (diff.replaces.length > 0 || replaceByOption || old.pendingReplacement) {
        return this.replaceChain(urn, req, old, checked, diff.deleteBeforeReplace, createStep);
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
          const init = ProviderError.isInstance(e) ? e.initFailure : undefined;
          if (init) {
            // A partial failure of an Update keeps the *old* inputs (eu OnResourceStepPost L1161-1173).
            this.state.replace(old, entry(old.id, old.inputs, init.properties, init.reasons));
            this.error(urn, name, `${name}: update: ${initErrorMessage(init.reasons)}`);
          } else {
            this.error(urn, name, `${name}: update: ${message(e)}`);
          }
          throw e;
        }
        this.state.replace(old, entry(old.id, checked, outputs));
        setResult({ id: old.id, outputs });
        this.step("update", urn, type, name);
      },
    ];
  }

  /**
   * A replacement (sg L1834-2037): refused when both the program and the state protect the
   * resource; a second Check with no olds and the raw program inputs; then create-before-delete
   * (the old half marked for deletion once the new one exists, deleted with the other deletes),
   * or delete-before-replace (the program's option, when set, overrides the provider's) with the
   * dependents whose Diff would replace them deleted first.
   */
  private async replaceChain(
    urn: string,
    req: RegisterRequest,
    old: StateEntry,
    checked: JsonObject,
    providerDbr: boolean,
    createStep: (inputs: JsonObject, op: "create" | "replace", onMade: () => void) => StepFn,
  ): Promise<StepFn[]> {
    const { name } = req;
    if (req.protect && old.protect) {
      this.error(urn, name, protectedReplaceMessage(urn));
      this.bail();
      throw new RegistrationError(protectedReplaceMessage(urn));
    }
    // The second Check "recomputes the default values" from the raw program inputs; its failures
    // print the first Check's values (L1882-1901).
    const { props: raw } = unwrapProperties(req.object);
    const inputs = await this.check(urn, req, {}, raw, checked);
    const dbr = req.deleteBeforeReplace ?? providerDbr;
    if (!dbr) {
      return [
        createStep(inputs, "replace", () => {
          old.pendingDelete = true;
        }),
      ];
    }
    const dependents = await this.dependentReplacements(old);
    const blocked = dependents.find((d) => d.protect);
    if (blocked) {
      const msg = protectedDependentMessage(blocked.urn, urn);
      this.error(blocked.urn, blocked.name, msg);
      this.bail();
      throw new RegistrationError(msg);
    }
    const deleteReplaced =
      (r: StateEntry): StepFn =>
      async () => {
        if (!this.preview) {
          try {
            await this.rpc(() => this.plugin.delete(r.urn, r.id, r.outputs, r.inputs));
          } catch (e) {
            if (!(e instanceof EngineDied)) this.error(r.urn, r.name, `${r.name}: deleting before replacement: ${message(e)}`);
            throw e;
          }
          // Kept in state as pendingReplacement until its replacement exists (st L749-753).
          r.pendingReplacement = true;
        }
        this.step("delete-replaced", r.urn, r.type, r.name);
      };
    for (const d of dependents) this.condemned.add(d.urn);
    return [
      ...[...dependents].reverse().map(deleteReplaced),
      ...(old.pendingReplacement ? [] : [deleteReplaced(old)]),
      createStep(inputs, "replace", () => this.state.remove(old)),
    ];
  }

  /**
   * The dependents a delete-before-replace must delete first (sg `calculateDependentReplacements`
   * L3009-3152): resources of the old state not registered yet in this run whose inputs have a
   * property dependency on a condemned resource, and whose Diff, with those inputs unknown, says
   * replace. `dependsOn` alone never condemns.
   */
  private async dependentReplacements(root: StateEntry): Promise<StateEntry[]> {
    const condemned = new Set([root.urn]);
    const out: StateEntry[] = [];
    for (const r of this.state.resources) {
      if (r === root || r.pendingDelete || this.seen.has(r.urn)) continue;
      const keys = Object.entries(r.propertyDependencies)
        .filter(([, urns]) => urns.some((u) => condemned.has(u)))
        .map(([k]) => k);
      if (keys.length === 0) continue;
      const news = { ...r.inputs, ...Object.fromEntries(keys.map((k) => [k, UNKNOWN])) };
      const d = await this.rpc(() => this.plugin.diff(r.urn, r.id, r.outputs, news, r.inputs));
      if (d.changes !== "none" && d.replaces.length > 0) {
        condemned.add(r.urn);
        out.push(r);
      }
    }
    return out;
  }

  /** The `import` option: a Read with no properties, which the dynamic host cannot serve (st ImportStep.Apply L1805-2042). */
  private async importChain(urn: string, req: RegisterRequest): Promise<() => Promise<RegisterResponse>> {
    try {
      await this.rpc(() => this.plugin.read(urn, req.importId, {}, {}));
      throw new Error("provider does not support importing resources; please try updating the provider plugin");
    } catch (e) {
      const msg = `${req.name}: import: ${message(e)}`;
      this.error(urn, req.name, msg);
      this.bail();
      throw new RegistrationError(msg);
    }
  }

  /**
   * Handles a ReadResource (`Resource.get`; sg `GenerateReadSteps` L271-369, st `ReadStep.Apply`
   * L1270-1365): Read with properties = inputs = the given props; an unknown id in preview
   * sends nothing; a found-or-not answer is taken as found (the host always returns
   * `__provider`), keeping the requested id. Read resources are external: never deleted.
   */
  async read(req: ReadRequest): Promise<{ urn: string; properties: JsonObject }> {
    return Promise.race([this.readInner(req), this.died]);
  }

  private async readInner(req: ReadRequest): Promise<{ urn: string; properties: JsonObject }> {
    const urn = this.urn(req.type, req.name, req.parent);
    if (this.failed) throw this.halted(urn, req.name);
    this.readsSeen.add(urn);
    if (!req.id) {
      const msg = `Expected an ID for ${urn}`;
      this.error(urn, req.name, msg);
      this.bail();
      throw new RegistrationError(msg);
    }
    if (req.id === UNKNOWN) return { urn, properties: {} };
    const { props, secretKeys } = unwrapProperties(req.properties);
    let properties: JsonObject = {};
    const submitted = await this.exclusive(async () => {
      const s = this.executor.submit([
        async () => {
          let res;
          try {
            res = await this.rpc(() => this.plugin.read(urn, req.id, props, props));
          } catch (e) {
            if (!(e instanceof EngineDied)) this.error(urn, req.name, `${req.name}: read: ${message(e)}`);
            throw e;
          }
          properties = res.properties;
          const secretOutputs = pick([...req.additionalSecretOutputs, ...secretKeys.filter((k) => k !== "__provider")], properties);
          this.state.reads = this.state.reads.filter((r) => r.urn !== urn);
          this.state.reads.push({
            urn,
            type: req.type,
            name: req.name,
            id: res.id || req.id,
            inputs: props,
            outputs: properties,
            secretOutputs,
          });
          this.step("read", urn, req.type, req.name);
        },
      ]);
      await s.taken;
      return s;
    });
    try {
      await submitted.done;
    } catch (e) {
      throw e instanceof Cancelled ? this.halted(urn, req.name) : new RegistrationError(message(e));
    }
    const entry = this.state.reads.find((r) => r.urn === urn)!;
    return { urn, properties: wrapSecrets(properties, entry.secretOutputs) };
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
   * run did not register, in waves; drops pending replacements no longer declared and
   * external resources no longer read; then orders the state by this run's registrations.
   */
  async finish(): Promise<void> {
    if (this.dead) return;
    const { state } = this;
    if (!this.failed) {
      const condemned: Condemned[] = [];
      for (const r of [...state.resources]) {
        if (r.pendingDelete) condemned.push({ entry: r, replacing: true });
        else if (!this.seen.has(r.urn)) {
          if (r.pendingReplacement)
            state.remove(r); // RemovePendingReplaceStep
          else condemned.push({ entry: r, replacing: false });
        }
      }
      await runDeletes(this, condemned);
      if (!this.preview) {
        state.reads = state.reads.filter((r) => this.readsSeen.has(r.urn)); // read-discard
        state.components = state.components.filter((c) => this.seen.has(c.urn));
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
