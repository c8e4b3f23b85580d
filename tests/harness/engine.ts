/**
 * The engine's step rules for one operation (up or preview): what a registration of a dynamic
 * resource turns into (check, diff, create, update, replace, same), deletes at the end, reads
 * for `Resource.get`. Talks to the plugin through {@link PluginHost}; keeps results in
 * {@link HarnessState}.
 */
import { PluginHost, ProviderError } from "./pluginHost";
import { JsonObject } from "./protos";
import { unwrapProperties, wrapSecrets } from "./secrets";
import { deletionOrder, HarnessState, StateEntry } from "./state";
import { CheckFailure, DYNAMIC_TYPE_PREFIX, HarnessError, Step, StepOp } from "./types";

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
  additionalSecretOutputs: string[];
  deleteBeforeReplace: boolean;
  /** Undefined when the program did not set the option. */
  protect?: boolean;
  importId: string;
  ignoreChanges: string[];
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

/** Options of a {@link Deployment}. */
export interface DeploymentOptions {
  plugin: PluginHost;
  state: HarnessState;
  preview: boolean;
  project: string;
  stack: string;
}

/** An error that fails a registration; the monitor turns it into an RPC error. */
export class RegistrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RegistrationError";
  }
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => deepEqual((a as JsonObject)[k], (b as JsonObject)[k]));
}

function pick(keys: readonly string[], obj: JsonObject): string[] {
  return [...new Set(keys)].filter((k) => k in obj);
}

/**
 * One `up` or `preview`. Registrations arrive through {@link register}/{@link read};
 * {@link deletePending} runs first, {@link finish} last.
 */
export class Deployment {
  readonly steps: Step[] = [];
  readonly errors: HarnessError[] = [];
  readonly checkFailures: CheckFailure[] = [];
  private readonly seen = new Set<string>();
  private readonly order: string[] = [];

  constructor(private readonly o: DeploymentOptions) {}

  /** URN the engine gives a resource (parents other than the root stack prefix the type). */
  urn(type: string, name: string, parent: string): string {
    let qualified = type;
    if (parent) {
      const parentType = parent.split("::")[2] ?? "";
      if (parentType !== STACK_TYPE) qualified = `${parentType}$${type}`;
    }
    return `urn:pulumi:${this.o.stack}::${this.o.project}::${qualified}::${name}`;
  }

  private step(op: StepOp, urn: string, type: string, name: string): void {
    this.steps.push({ op, urn, type, name });
  }

  private fail(urn: string, name: string, message: string): never {
    this.errors.push({ urn, name, message });
    throw new RegistrationError(message);
  }

  /** Deletes the old halves of replacements left over by earlier runs (the engine does this first). */
  async deletePending(): Promise<void> {
    const pending = this.o.state.resources.filter((r) => r.pendingDelete);
    await this.deleteAll(pending);
  }

  /** Handles a RegisterResource. Rejects with {@link RegistrationError} when the engine would fail it. */
  async register(req: RegisterRequest): Promise<RegisterResponse> {
    const urn = this.urn(req.type, req.name, req.parent);
    if (this.seen.has(urn)) this.fail(urn, req.name, `Duplicate resource URN '${urn}'; try giving it a unique name`);
    this.seen.add(urn);
    this.order.push(urn);
    if (!req.custom) {
      const { props, secretKeys } = unwrapProperties(req.object);
      const existing = this.o.state.components.find((c) => c.urn === urn);
      if (!existing) this.o.state.components.push({ urn, type: req.type, name: req.name, outputs: {}, secretOutputs: [] });
      void props;
      void secretKeys;
      return { urn, id: "", object: {} };
    }
    if (!req.type.startsWith(DYNAMIC_TYPE_PREFIX)) {
      this.fail(urn, req.name, `the harness runs only dynamic resources (${DYNAMIC_TYPE_PREFIX}*), not ${req.type}`);
    }
    if (req.importId) {
      this.fail(urn, req.name, `importing is not supported for dynamic resources (${req.type})`);
    }
    return this.registerDynamic(urn, req);
  }

  private async registerDynamic(urn: string, req: RegisterRequest): Promise<RegisterResponse> {
    const { plugin, state, preview } = this.o;
    const { name, type } = req;
    const { props: news, secretKeys: secretInputs } = unwrapProperties(req.object);
    const old = state.live(urn);
    if (old) {
      for (const k of req.ignoreChanges) {
        if (k in old.inputs) news[k] = old.inputs[k];
        else delete news[k];
      }
    }

    let checked: JsonObject;
    try {
      const res = await plugin.check(urn, old ? old.inputs : {}, news);
      if (res.failures.length > 0) {
        for (const f of res.failures) this.checkFailures.push({ name, property: f.property, reason: f.reason });
        const list = res.failures.map((f) => `${f.property}: ${f.reason}`).join("; ");
        throw new RegistrationError(`${name}: check failed: ${list}`);
      }
      checked = res.inputs;
    } catch (e) {
      if (e instanceof RegistrationError) throw e;
      this.fail(urn, name, `${name}: check: ${message(e)}`);
    }

    const secretOutputsFor = (outs: JsonObject): string[] =>
      pick([...req.additionalSecretOutputs, ...secretInputs.filter((k) => k !== "__provider")], outs);
    const entry = (id: string, outputs: JsonObject): StateEntry => ({
      urn,
      type,
      name,
      id,
      inputs: checked,
      outputs,
      secretOutputs: secretOutputsFor(outputs),
      secretInputs: pick(secretInputs, checked),
      dependencies: [...req.dependencies],
      ...(req.deleteBeforeReplace ? { deleteBeforeReplace: true } : {}),
      ...(req.protect ? { protect: true } : {}),
    });
    const respond = (id: string, outputs: JsonObject): RegisterResponse => ({
      urn,
      id,
      object: wrapSecrets(outputs, secretOutputsFor(outputs)),
    });

    if (!old) {
      if (preview) {
        this.step("create", urn, type, name);
        return respond("", checked);
      }
      const created = await this.create(urn, name, checked, entry);
      this.step("create", urn, type, name);
      return respond(created.id, created.outputs);
    }

    let diff;
    try {
      diff = await plugin.diff(urn, old.id, old.outputs, checked, old.inputs);
    } catch (e) {
      this.fail(urn, name, `${name}: diff: ${message(e)}`);
    }
    const changed = diff.changes === "some" || (diff.changes === "unknown" && !deepEqual(old.inputs, checked));
    const replace = diff.changes !== "none" && diff.replaces.length > 0;

    if (replace) {
      if (req.protect ?? old.protect) this.fail(urn, name, protectedMessage(urn));
      const dbr = diff.deleteBeforeReplace || req.deleteBeforeReplace;
      if (preview) {
        this.step("replace", urn, type, name);
        return respond("", checked);
      }
      if (dbr) {
        try {
          await plugin.delete(urn, old.id, old.outputs, old.inputs);
        } catch (e) {
          this.fail(urn, name, `${name}: deleting before replacement: ${message(e)}`);
        }
        state.remove(old);
      } else {
        old.pendingDelete = true;
      }
      const created = await this.create(urn, name, checked, entry);
      this.step("replace", urn, type, name);
      return respond(created.id, created.outputs);
    }

    if (changed || old.initFailed) {
      if (preview) {
        this.step("update", urn, type, name);
        return respond(old.id, checked);
      }
      let outputs: JsonObject;
      try {
        outputs = await plugin.update(urn, old.id, old.outputs, checked, old.inputs);
      } catch (e) {
        const init = ProviderError.isInstance(e) ? e.initFailure : undefined;
        if (init) {
          const failed = entry(old.id, init.properties);
          failed.initFailed = true;
          state.resources[state.resources.indexOf(old)] = failed;
        }
        this.fail(urn, name, `${name}: update: ${message(e)}`);
      }
      state.resources[state.resources.indexOf(old)] = entry(old.id, outputs);
      this.step("update", urn, type, name);
      return respond(old.id, outputs);
    }

    // same: keep the old outputs, store the new inputs and options
    if (!preview) {
      const same = entry(old.id, old.outputs);
      state.resources[state.resources.indexOf(old)] = same;
    }
    this.step("same", urn, type, name);
    return respond(old.id, old.outputs);
  }

  private async create(
    urn: string,
    name: string,
    checked: JsonObject,
    entry: (id: string, outputs: JsonObject) => StateEntry,
  ): Promise<{ id: string; outputs: JsonObject }> {
    try {
      const res = await this.o.plugin.create(urn, checked);
      this.o.state.resources.push(entry(res.id, res.properties));
      return { id: res.id, outputs: res.properties };
    } catch (e) {
      const init = ProviderError.isInstance(e) ? e.initFailure : undefined;
      if (init && init.id) {
        const failed = entry(init.id, init.properties);
        failed.initFailed = true;
        this.o.state.resources.push(failed);
      }
      this.fail(urn, name, `${name}: create: ${message(e)}`);
    }
  }

  /** Handles a ReadResource (`Resource.get`): Read(id, given props); not managed afterwards. */
  async read(req: ReadRequest): Promise<{ urn: string; properties: JsonObject }> {
    const urn = this.urn(req.type, req.name, req.parent);
    const { props, secretKeys } = unwrapProperties(req.properties);
    let res;
    try {
      res = await this.o.plugin.read(urn, req.id, props);
    } catch (e) {
      this.fail(urn, req.name, `${req.name}: read: ${message(e)}`);
    }
    if (!res.id) this.fail(urn, req.name, `${req.name}: resource '${req.id}' does not exist`);
    const secretOutputs = pick([...req.additionalSecretOutputs, ...secretKeys.filter((k) => k !== "__provider")], res.properties);
    const reads = this.o.state.reads.filter((r) => r.urn !== urn);
    reads.push({ urn, type: req.type, name: req.name, id: res.id, outputs: res.properties, secretOutputs });
    this.o.state.reads = reads;
    this.step("read", urn, req.type, req.name);
    return { urn, properties: wrapSecrets(res.properties, secretOutputs) };
  }

  /** Handles RegisterResourceOutputs (stack outputs, component outputs). */
  registerOutputs(urn: string, outputs: JsonObject): void {
    const { props, secretKeys } = unwrapProperties(outputs);
    if ((urn.split("::")[2] ?? "") === STACK_TYPE) {
      this.o.state.stackOutputs = props;
      this.o.state.stackSecretOutputs = secretKeys;
      return;
    }
    const c = this.o.state.components.find((x) => x.urn === urn);
    if (c) {
      c.outputs = props;
      c.secretOutputs = secretKeys;
    }
  }

  /**
   * Ends the run: unless something failed (the engine stops at the first error), deletes the
   * resources this run did not register and the old halves of replacements, in reverse
   * dependency order; then orders the state by this run's registrations.
   */
  async finish(): Promise<void> {
    const { state } = this.o;
    if (this.errors.length === 0 && this.checkFailures.length === 0) {
      const targets = state.resources.filter((r) => r.pendingDelete || !this.seen.has(r.urn));
      await this.deleteAll(targets);
      state.components = state.components.filter((c) => this.seen.has(c.urn));
    }
    const rank = new Map(this.order.map((u, i) => [u, i]));
    const key = (r: StateEntry): number => (r.pendingDelete ? -1 : rank.get(r.urn) ?? -1);
    const registered = state.resources.filter((r) => key(r) >= 0).sort((a, b) => key(a) - key(b));
    const rest = state.resources.filter((r) => key(r) < 0);
    state.resources = [...registered, ...rest];
  }

  /**
   * Deletes `targets` as the engine does: in parallel, each one once every target that
   * depends on it is gone. After the first failure (the resource stays) no further delete
   * starts; deletes already under way finish.
   */
  async deleteAll(targets: readonly StateEntry[]): Promise<void> {
    const { plugin, state, preview } = this.o;
    let failed = false;
    const started = new Map<StateEntry, Promise<boolean>>();
    const remove = (r: StateEntry, visiting: ReadonlySet<StateEntry>): Promise<boolean> => {
      let done = started.get(r);
      if (done) return done;
      done = (async () => {
        const path = new Set(visiting).add(r);
        const dependents = targets.filter((o) => !path.has(o) && o.dependencies.includes(r.urn));
        const cleared = await Promise.all(dependents.map((d) => remove(d, path)));
        if (failed || cleared.includes(false)) return false;
        if (r.protect) {
          failed = true;
          this.errors.push({ urn: r.urn, name: r.name, message: protectedMessage(r.urn) });
          return false;
        }
        if (!preview) {
          try {
            await plugin.delete(r.urn, r.id, r.outputs, r.inputs);
          } catch (e) {
            failed = true;
            this.errors.push({ urn: r.urn, name: r.name, message: `${r.name}: delete: ${message(e)}` });
            return false;
          }
          state.remove(r);
        }
        this.step("delete", r.urn, r.type, r.name);
        return true;
      })();
      started.set(r, done);
      return done;
    };
    // Started dependents first, so a long chain is walked from its end.
    await Promise.all(deletionOrder(state.resources, targets).map((r) => remove(r, new Set())));
  }
}

function protectedMessage(urn: string): string {
  return (
    `unable to delete resource "${urn}"\nas it is currently marked for protection. To unprotect the resource, ` +
    `either remove the \`protect\` flag from the resource in your Pulumi program and run \`pulumi up\`, ` +
    `or use the command:\n\`pulumi state unprotect '${urn}'\``
  );
}

/** The message of an error-like value. */
export function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
