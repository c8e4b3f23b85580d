/**
 * Public result and state types of the test harness. These mirror what `pulumi up`,
 * `pulumi preview`, `pulumi refresh` and `pulumi destroy` report.
 */

/** What serves a stack's provider requests: see {@link StackOptions.host}. */
export type ProviderHostKind = "in-process" | "plugin" | "native";

/** Options of {@link TestStack.create}. */
export interface StackOptions {
  /** Stack config, namespaced keys (`clouddb:apiUrl`) to string values. @default {} */
  config?: Record<string, string>;
  /**
   * Config keys set with `pulumi config set --secret`: sent to Configure marked secret, and
   * their values masked as `[secret]` in everything the engine prints. @default []
   */
  secretKeys?: string[];
  /** Project name (PULUMI_NODEJS_PROJECT and PULUMI_PROJECT of the plugin, URN project). @default "test-project" */
  project?: string;
  /** Stack name (URN stack; the plugin is not told it, as with the CLI). @default "test" */
  stack?: string;
  /** Working directory of the plugin process: where `require` in provider code resolves. @default the repository root */
  cwd?: string;
  /** Extra environment variables of the plugin process (on top of this process's environment). @default {} */
  env?: Record<string, string>;
  /**
   * What serves the provider's requests: `"in-process"`, the plugin's code in a worker thread
   * of the test process, fresh for each engine run (harness/inProcessHost.ts); or `"plugin"`,
   * the real dynamic-provider plugin process, as the CLI starts it (harness/pluginHost.ts),
   * which suites whose subject is a process need; or `"native"`, the native plugin's service
   * in the test process, the resources' types made native as the schema's aliases make them
   * (harness/nativeHost.ts). `CLOUDDB_PROVIDER_HOST=plugin` runs every
   * stack on the plugin. @default `CLOUDDB_PROVIDER_HOST` when set, else `"in-process"`
   */
  host?: ProviderHostKind;
  /**
   * What runs the stack's commands: `"model"`, this harness's engine; or `"cli"`, the real
   * Pulumi CLI (harness/cli/cliStack.ts), on which `host` has no say.
   * @default `"cli"` when `CLOUDDB_ENGINE=cli`, else `"model"`
   */
  engine?: "model" | "cli";
  /**
   * `--parallel`: how many steps run at once. @default `PULUMI_PARALLEL` when set, else 4 × the
   * number of CPUs (the CLI's 4 × GOMAXPROCS)
   */
  parallel?: number;
}

/** Options of one `up` or `preview`. */
export interface UpOptions {
  /** `pulumi up --refresh`: refresh every resource first (a failed read stops the run before the program). @default false */
  refresh?: boolean;
  /** `--parallel` for this run. @default the stack's */
  parallel?: number;
  /**
   * The engine process dies when this signal aborts (kill -9 of the CLI): nothing more is
   * recorded, creates in flight stay as pending operations, and the plugin process is left
   * running on its own (see {@link TestStack.orphansSettled}).
   */
  engineDies?: AbortSignal;
  /** `--replace <urn>`: resources (URNs, or names of resources in state) replaced whatever Diff says. @default [] */
  replace?: string[];
  /** `--target <urn>`: the only resources (URNs or names) the run creates, updates or deletes. @default every one */
  target?: string[];
  /** `--continue-on-error`: a failed step stops only what depends on it. @default false */
  continueOnError?: boolean;
  /** Every resource has an `onError` hook that asks this many times for a failed Create to be sent again. @default 0 */
  errorHookRetries?: number;
}

/** One resource of a `pulumi import --file` document (Pulumi CLI 3.254+), values in state encoding (plain JSON here). */
export interface ImportFileResource {
  type: string;
  name: string;
  id: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** Options of one `importFile`. */
export interface ImportOptions {
  /** `--protect`: imported resources are protected. @default true (the CLI's default) */
  protect?: boolean;
}

/** Options of one `refresh`. */
export interface RefreshOptions {
  /** `pulumi refresh --clear-pending-creates`: drops the pending creates first. @default false */
  clearPendingCreates?: boolean;
}

/** A custom resource as the harness keeps it in its state. */
export interface StateResource {
  urn: string;
  type: string;
  name: string;
  id: string;
  /** Checked inputs (from Check, or from Read after a refresh), secrets unwrapped, `__provider` included. */
  inputs: Record<string, unknown>;
  /** Outputs (from Create/Update/Read), secrets unwrapped, `__provider` included. */
  outputs: Record<string, unknown>;
  /** Top-level output keys that are secret (additionalSecretOutputs, or matching a secret input). */
  secretOutputs: string[];
  /** URNs this resource depends on (the registration's dependencies). */
  dependencies: string[];
  /** URNs each input property depends on (the registration's property dependencies). */
  propertyDependencies: Record<string, string[]>;
  /** The reasons of the last partial failure (ErrorResourceInitFailed); empty when none. */
  initErrors: string[];
  /** True while {@link initErrors} is not empty (kept for readability of tests). */
  initFailed?: boolean;
  deleteBeforeReplace?: boolean;
  protect?: boolean;
  retainOnDelete?: boolean;
  /** `delete: true` in Pulumi's state: the old half of a create-before-delete replacement, deleted at the end of a run. */
  pendingDelete?: boolean;
  /** `taint` in Pulumi's state (`pulumi state taint`): the next `up` replaces it. */
  taint?: boolean;
  /** `pendingReplacement` in Pulumi's state: deleted before its replacement was created, which has not happened yet. */
  pendingReplacement?: boolean;
}

/** An operation the engine was in the middle of when it died (Pulumi's `pending_operations`). */
export interface PendingOperation {
  urn: string;
  type: string;
  /** Inputs the create was sent with. */
  inputs: Record<string, unknown>;
  /** Only pending creates outlive the next write of the state. */
  op: "creating";
}

/** Kinds of steps, as the engine names them. */
/**
 * Kinds of steps, as the engine names them: `delete-replaced` is the delete of the old half of
 * a replacement (at the end of the run, or first with delete-before-replace).
 */
export type StepOp =
  "create" | "update" | "replace" | "same" | "delete" | "delete-replaced" | "read" | "import" | "refresh-update" | "refresh-delete";

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

/**
 * A line the engine prints: errors, warnings and infos of the run, each as the CLI would
 * print it (check failures with the value, filtered of secret config values).
 */
export interface Diagnostic {
  severity: "error" | "warning" | "info";
  urn?: string;
  message: string;
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
  /** Everything the engine printed: scan it for secrets. */
  diagnostics: Diagnostic[];
  /** True when the engine died during the run ({@link UpOptions.engineDies}). */
  interrupted?: boolean;
}

/** What `refresh` returns. */
export interface RefreshResult {
  steps: Step[];
  errors: HarnessError[];
  diagnostics: Diagnostic[];
}

/** The value the engine sends for an unknown (not yet computed) value during preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Prefix of the type token of every dynamic resource. */
export const DYNAMIC_TYPE_PREFIX = "pulumi-nodejs:dynamic/";
