/**
 * The harness's stack state, shaped like Pulumi's checkpoint: managed custom resources (in
 * registration order), resources read with `Resource.get` (external), components, stack
 * outputs, pending operations, and the config the dynamic provider was last configured with;
 * and the plaintext view a backend would store.
 */
import { JsonObject } from "./protos";
import type { RegisterRequest } from "./registration";
import { redact } from "./secrets";
import { PendingOperation, StateResource } from "./types";

/** A managed resource plus what the harness needs internally (secret input keys). */
export interface StateEntry extends StateResource {
  /** Top-level input keys that were secret. */
  secretInputs: string[];
}

/** A resource read with `Resource.get` (external: never deleted, dropped when no longer read). */
export interface ReadEntry {
  urn: string;
  type: string;
  name: string;
  id: string;
  /** The properties the program gave `get` (`__provider` included): the Read's inputs. */
  inputs: JsonObject;
  outputs: JsonObject;
  secretOutputs: string[];
}

/** A component resource (no provider calls). */
export interface ComponentEntry {
  urn: string;
  type: string;
  name: string;
  outputs: JsonObject;
  secretOutputs: string[];
}

/** The stack config as the default `pulumi-nodejs` provider stored it at the last `up`. */
export interface ProviderConfig {
  values: Record<string, string>;
  secretKeys: string[];
}

/** The whole state of one test stack. */
export class HarnessState {
  /** Managed custom resources, registration order; may hold a pending-delete entry next to a live one with the same URN. */
  resources: StateEntry[] = [];
  reads: ReadEntry[] = [];
  components: ComponentEntry[] = [];
  stackOutputs: JsonObject = {};
  stackSecretOutputs: string[] = [];
  pendingOperations: PendingOperation[] = [];
  /**
   * The default provider's inputs: refresh and destroy (which do not run the program)
   * configure the plugin with these, not with the current stack config (engine rule P6).
   */
  providerConfig?: ProviderConfig;

  /** The live (not pending-delete) entry with this URN. */
  live(urn: string): StateEntry | undefined {
    return this.resources.find((r) => r.urn === urn && !r.pendingDelete);
  }

  /** Removes exactly this entry. */
  remove(entry: StateEntry): void {
    this.resources = this.resources.filter((r) => r !== entry);
  }

  /** Replaces `old` by `next` in place (same position), or appends `next` when `old` is gone. */
  replace(old: StateEntry, next: StateEntry): void {
    const i = this.resources.indexOf(old);
    if (i >= 0) this.resources[i] = next;
    else this.resources.push(next);
  }

  /** A deep copy (used by preview, which must not change the state). */
  clone(): HarnessState {
    const s = new HarnessState();
    const copy = <T>(v: T): T => structuredClone(v);
    s.resources = copy(this.resources);
    s.reads = copy(this.reads);
    s.components = copy(this.components);
    s.stackOutputs = copy(this.stackOutputs);
    s.stackSecretOutputs = copy(this.stackSecretOutputs);
    s.pendingOperations = copy(this.pendingOperations);
    s.providerConfig = copy(this.providerConfig);
    return s;
  }

  /** Public view of the managed resources (copies). */
  publicResources(): StateResource[] {
    return this.resources.map((r) => {
      const { secretInputs: _omit, ...pub } = structuredClone(r);
      void _omit;
      return pub;
    });
  }

  /** The state as JSON with every secret value replaced by "[secret]": what must not leak. */
  plaintext(): string {
    return JSON.stringify(
      {
        resources: this.resources.map((r) => ({
          urn: r.urn,
          type: r.type,
          id: r.id,
          inputs: redact(r.inputs, r.secretInputs),
          outputs: redact(r.outputs, r.secretOutputs),
          dependencies: r.dependencies,
          ...(r.initErrors.length > 0 ? { initErrors: r.initErrors } : {}),
          ...(r.pendingDelete ? { delete: true } : {}),
          ...(r.pendingReplacement ? { pendingReplacement: true } : {}),
          ...(r.protect ? { protect: true } : {}),
          ...(r.retainOnDelete ? { retainOnDelete: true } : {}),
        })),
        reads: this.reads.map((r) => ({ urn: r.urn, id: r.id, outputs: redact(r.outputs, r.secretOutputs), external: true })),
        components: this.components.map((c) => ({ urn: c.urn, outputs: redact(c.outputs, c.secretOutputs) })),
        outputs: redact(this.stackOutputs, this.stackSecretOutputs),
        pendingOperations: this.pendingOperations.map((p) => ({ urn: p.urn, type: p.op })),
        ...(this.providerConfig ? { providerConfig: redact(this.providerConfig.values, this.providerConfig.secretKeys) } : {}),
      },
      null,
      2,
    );
  }
}

/** A state entry's `initErrors`, with `initFailed` kept in step. */
export function withInitErrors<T extends StateResource>(entry: T, reasons: readonly string[]): T {
  entry.initErrors = [...reasons];
  if (reasons.length > 0) entry.initFailed = true;
  else delete entry.initFailed;
  return entry;
}

/**
 * The state entry of a registration (`urn`, the request's type, name, dependencies and
 * options as the program set them) with what its step produced.
 */
export function registeredEntry(
  urn: string,
  req: RegisterRequest,
  made: Pick<StateEntry, "id" | "inputs" | "outputs" | "secretOutputs" | "secretInputs">,
  initErrors: readonly string[] = [],
): StateEntry {
  return withInitErrors(
    {
      urn,
      type: req.type,
      name: req.name,
      ...made,
      dependencies: [...req.dependencies],
      propertyDependencies: structuredClone(req.propertyDependencies),
      initErrors: [],
      ...(req.deleteBeforeReplace !== undefined ? { deleteBeforeReplace: req.deleteBeforeReplace } : {}),
      ...(req.protect ? { protect: true } : {}),
      ...(req.retainOnDelete ? { retainOnDelete: true } : {}),
    },
    initErrors,
  );
}
