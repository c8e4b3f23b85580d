/**
 * Public result and state types of the test harness. These mirror what `pulumi up`,
 * `pulumi preview`, `pulumi refresh` and `pulumi destroy` report.
 */

/** Options of {@link TestStack.create}. */
export interface StackOptions {
  /** Stack config, namespaced keys (`clouddb:apiUrl`) to string values. @default {} */
  config?: Record<string, string>;
  /** Project name (PULUMI_NODEJS_PROJECT of the plugin, URN project). @default "test-project" */
  project?: string;
  /** Stack name (PULUMI_NODEJS_STACK of the plugin, URN stack). @default "test" */
  stack?: string;
  /** Working directory of the plugin process: where `require` in provider code resolves. @default the repository root */
  cwd?: string;
  /** Extra environment variables of the plugin process (on top of this process's environment). @default {} */
  env?: Record<string, string>;
}

/** A custom resource as the harness keeps it in its state. */
export interface StateResource {
  urn: string;
  type: string;
  name: string;
  id: string;
  /** Checked inputs (from Check), secrets unwrapped, `__provider` included. */
  inputs: Record<string, unknown>;
  /** Outputs (from Create/Update/Read), secrets unwrapped, `__provider` included. */
  outputs: Record<string, unknown>;
  /** Top-level output keys that are secret (additionalSecretOutputs, or matching a secret input). */
  secretOutputs: string[];
  /** URNs this resource depends on (the registration's dependencies). */
  dependencies: string[];
  /** True when the last Create/Update failed with an id (ErrorResourceInitFailed). */
  initFailed?: boolean;
  deleteBeforeReplace?: boolean;
  protect?: boolean;
  /** True for the old half of a create-before-delete replacement whose Delete has not succeeded yet. */
  pendingDelete?: boolean;
}

/** Kinds of steps, as the engine names them. */
export type StepOp = "create" | "update" | "replace" | "same" | "delete" | "read" | "refresh-update" | "refresh-delete";

/** One step of an operation, in the order the steps completed (or, in preview, were decided). */
export interface Step {
  op: StepOp;
  urn: string;
  name: string;
  type: string;
}

/** An error of an operation: a failed provider call, a failed program, a protected delete. */
export interface HarnessError {
  urn?: string;
  name?: string;
  message: string;
}

/** A check failure reported by a provider's `check`. */
export interface CheckFailure {
  name: string;
  property: string;
  reason: string;
}

/** What `up`, `preview` and `destroy` return. They never throw for resource errors. */
export interface UpResult {
  steps: Step[];
  /** Stack outputs, secrets unwrapped; in preview unknown values are the string {@link UNKNOWN}. */
  outputs: Record<string, unknown>;
  errors: HarnessError[];
  checkFailures: CheckFailure[];
  /** Names of stack outputs that are secret. */
  secretOutputNames?: string[];
}

/** What `refresh` returns. */
export interface RefreshResult {
  steps: Step[];
  errors: HarnessError[];
}

/** The value the engine sends for an unknown (not yet computed) value during preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Prefix of the type token of every dynamic resource. */
export const DYNAMIC_TYPE_PREFIX = "pulumi-nodejs:dynamic/";
