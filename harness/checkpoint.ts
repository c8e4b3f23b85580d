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

/** The checkpoint of the stack `names` (its project and stack name) with this config and state (copied). */
export function checkpointOf(
  names: { project: string; stack: string },
  config: Record<string, string>,
  secretKeys: Iterable<string>,
  state: HarnessState,
): Checkpoint {
  const s = state.clone();
  return {
    version: CHECKPOINT_VERSION,
    project: names.project,
    stack: names.stack,
    config: { ...config },
    secretKeys: [...secretKeys],
    resources: s.resources,
    reads: s.reads,
    components: s.components,
    stackOutputs: s.stackOutputs,
    stackSecretOutputs: s.stackSecretOutputs,
    pendingOperations: s.pendingOperations,
    ...(s.providerConfig ? { providerConfig: s.providerConfig } : {}),
  };
}

/**
 * Writes a checkpoint's state into `state` (replacing what it held), its provider config
 * passed through `rewrite`, and returns its stack config, also through `rewrite`.
 *
 * @throws Error when the checkpoint is of another project or stack than `names` (its URNs would not match)
 */
export function loadCheckpoint(
  state: HarnessState,
  c: Checkpoint,
  names: { project: string; stack: string },
  rewrite: (config: Record<string, string>) => Record<string, string>,
): Record<string, string> {
  if (c.project !== names.project || c.stack !== names.stack) {
    throw new Error(
      `checkpoint of ${c.project}/${c.stack} imported into ${names.project}/${names.stack}: create the stack with the same project and stack name`,
    );
  }
  const version: unknown = c.version;
  if (version !== CHECKPOINT_VERSION) throw new Error(`checkpoint version ${String(version)}, expected ${CHECKPOINT_VERSION}`);
  const copy = <T>(v: T): T => structuredClone(v);
  state.resources = copy(c.resources);
  state.reads = copy(c.reads);
  state.components = copy(c.components);
  state.stackOutputs = copy(c.stackOutputs);
  state.stackSecretOutputs = copy(c.stackSecretOutputs);
  state.pendingOperations = copy(c.pendingOperations);
  state.providerConfig = c.providerConfig ? { ...copy(c.providerConfig), values: rewrite({ ...c.providerConfig.values }) } : undefined;
  return rewrite({ ...c.config });
}
