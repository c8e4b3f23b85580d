/**
 * A stack's whole state as one JSON document, like `pulumi stack export`: what the upgrade
 * tests record under one release and load under the next (`pulumi stack import`).
 */
import type { HarnessState, ProviderConfig, ReadEntry, ComponentEntry, StateEntry } from "./state";
import type { JsonObject } from "./protos";
import type { PendingOperation } from "./types";

/** The version of the {@link Checkpoint} format. */
export const CHECKPOINT_VERSION = 1;

/** A stack exported: its state, and the stack config its program reads. */
export interface Checkpoint {
  readonly version: typeof CHECKPOINT_VERSION;
  readonly project: string;
  readonly stack: string;
  /** The stack config (`pulumi config`), namespaced keys. */
  readonly config: Record<string, string>;
  /** Config keys set with `--secret`. */
  readonly secretKeys: string[];
  readonly resources: StateEntry[];
  readonly reads: ReadEntry[];
  readonly components: ComponentEntry[];
  readonly stackOutputs: JsonObject;
  readonly stackSecretOutputs: string[];
  readonly pendingOperations: PendingOperation[];
  readonly providerConfig?: ProviderConfig;
}

/** The parts of a {@link HarnessState} a checkpoint holds, copied. */
export function stateParts(
  state: HarnessState,
): Pick<Checkpoint, "resources" | "reads" | "components" | "stackOutputs" | "stackSecretOutputs" | "pendingOperations" | "providerConfig"> {
  const s = state.clone();
  return {
    resources: s.resources,
    reads: s.reads,
    components: s.components,
    stackOutputs: s.stackOutputs,
    stackSecretOutputs: s.stackSecretOutputs,
    pendingOperations: s.pendingOperations,
    ...(s.providerConfig ? { providerConfig: s.providerConfig } : {}),
  };
}

/** Writes a checkpoint's state into `state` (replacing what it held). */
export function loadParts(state: HarnessState, c: Checkpoint): void {
  if (c.version !== CHECKPOINT_VERSION) throw new Error(`checkpoint version ${String(c.version)}, expected ${String(CHECKPOINT_VERSION)}`);
  const copy = <T>(v: T): T => structuredClone(v);
  state.resources = copy(c.resources);
  state.reads = copy(c.reads);
  state.components = copy(c.components);
  state.stackOutputs = copy(c.stackOutputs);
  state.stackSecretOutputs = copy(c.stackSecretOutputs);
  state.pendingOperations = copy(c.pendingOperations);
  state.providerConfig = c.providerConfig ? copy(c.providerConfig) : undefined;
}
