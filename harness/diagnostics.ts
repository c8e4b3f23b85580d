/**
 * What the engine prints, word for word where it matters to us: check failures (with the
 * value of the property, in Go's `%v` format, secrets included), protect errors, the pending
 * operations warning; and the one filter the CLI applies to everything it prints (secret
 * config values become `[secret]`). Sources are pulumi/pulumi v3.248.0.
 */
import { isSecretWrapper } from "./secrets";
import { Diagnostic } from "./types";

/**
 * A property value as `PropertyValue.String` prints it (sdk/go/common/resource/properties.go
 * L648-661: `fmt.Sprintf("{%v}", v.V)`): `{x}` for a string, `{42}`, `{true}`, `{<nil>}`,
 * `{[{a} {b}]}`, `{map[k:{v}]}` (keys sorted, as Go prints maps), and a secret as
 * `{&{{plain text}}}`: the secret's value is printed, not hidden.
 */
export function goValue(v: unknown): string {
  return `{${goInner(v)}}`;
}

function goInner(v: unknown): string {
  if (v === undefined || v === null) return "<nil>";
  if (isSecretWrapper(v)) return `&{${goValue(v.value)}}`;
  if (Array.isArray(v)) return `[${v.map(goValue).join(" ")}]`;
  if (typeof v === "object") {
    const keys = Object.keys(v).sort();
    return `map[${keys.map((k) => `${k}:${goValue((v as Record<string, unknown>)[k])}`).join(" ")}]`;
  }
  return typeof v === "string" ? v : JSON.stringify(v);
}

/**
 * A check failure as the engine prints it (sg `issueCheckFailures` L2817-2836, format from
 * sdk/go/common/diag/errors.go L36-42). The value is the raw program input of the top-level
 * key named by the failure (a nested name such as `a.b` finds nothing: `{<nil>}`).
 */
export function checkFailureMessage(
  type: string,
  name: string,
  property: string,
  reason: string,
  programInputs: Record<string, unknown>,
): string {
  if (property === "") return `${type} resource '${name}' has a problem: ${reason}`;
  return `${type} resource '${name}': property ${property} value ${goValue(programInputs[property])} has a problem: ${reason}`;
}

/** The error for replacing a resource protected in both the program and the state (sg L1837-1842). */
export function protectedReplaceMessage(urn: string): string {
  return (
    `unable to replace resource "${urn}"\nas it is currently marked for protection. To unprotect the resource, ` +
    "remove the `protect` flag from the resource in your Pulumi program and run `pulumi up`"
  );
}

/** The error for a delete-before-replace dependent that is protected (sg L1990-2000). */
export function protectedDependentMessage(dependent: string, urn: string): string {
  return (
    `unable to replace resource "${dependent}" as part of replacing "${urn}" as it is currently marked for protection. ` +
    "To unprotect the resource, remove the `protect` flag from the resource in your Pulumi program and run `pulumi up`, " +
    `or use the command:\n\`pulumi state unprotect '${dependent}'\``
  );
}

/** The error for deleting a protected resource (st `deleteProtectedError` L584-594). */
export function protectedDeleteMessage(urn: string): string {
  return (
    `resource "${urn}" cannot be deleted\nbecause it is protected. To unprotect the resource, either remove the ` +
    "`protect` flag from the resource in your Pulumi program and run `pulumi up`, or use the command:\n" +
    `\`pulumi state unprotect '${urn}'\``
  );
}

/** The warning before an update that finds pending operations (dx `printPendingOperationsWarning` L88-113). */
export function pendingOperationsWarning(urns: readonly string[]): string {
  return (
    `Attempting to deploy or update resources with ${urns.length} pending operations from previous deployment.\n` +
    urns.map((u) => `  * ${u}, interrupted while creating\n`).join("") +
    "These resources are in an unknown state because the Pulumi CLI was interrupted while waiting for changes to these " +
    "resources to complete. You should confirm whether or not the operations listed completed successfully by checking " +
    "the state of the appropriate provider. For example, if you are using AWS, you can confirm using the AWS Console.\n\n" +
    "Once you have confirmed the status of the interrupted operations, you can repair your stack using `pulumi refresh` " +
    "which will refresh the state from the provider you are using and clear the pending operations if there are any.\n\n" +
    "Note that `pulumi refresh` will need to be run interactively to clear pending CREATE operations."
  );
}

/**
 * The message of a partial failure as the engine shows it (`InitError.Error`,
 * sdk/go/common/resource/plugin/provider_plugin.go L2520-2529): the reasons, joined as Go's
 * multierror does; the thrown message itself is not shown when the error carried an id.
 */
export function initErrorMessage(reasons: readonly string[]): string {
  if (reasons.length === 0) return "resource init failed";
  const n = reasons.length;
  return `${n} error${n === 1 ? "" : "s"} occurred:\n${reasons.map((r) => `\t* ${r}`).join("\n")}\n\n`;
}

/**
 * Collects what the engine prints during one operation. Every message passes the CLI's
 * filter first (pkg/engine/events.go L416-436, `logging.FilterString`): the plain text of
 * each secret config value is replaced with `[secret]`; nothing else is hidden.
 */
export class DiagnosticSink {
  readonly lines: Diagnostic[] = [];

  /** @param secretConfigValues the values of config keys set with `--secret` */
  constructor(private readonly secretConfigValues: readonly string[]) {}

  /** Records one printed line. */
  add(severity: Diagnostic["severity"], message: string, urn?: string): void {
    let text = message;
    for (const s of this.secretConfigValues) if (s.length > 0) text = text.split(s).join("[secret]");
    this.lines.push({ severity, message: text, ...(urn ? { urn } : {}) });
  }
}

/** The info line for `ignoreChanges` paths the engine could not apply (sg `processIgnoreChanges` L2852-2856). */
export function ignoreChangesFailedMessage(paths: readonly string[]): string {
  return `cannot ignore changes in added or removed elements of the path: ${JSON.stringify(paths.join(", "))}`;
}

/**
 * The error of a command on a stack an engine that died left locked (pkg/backend/diy/lock.go
 * `checkForLock`; the lock file's path and who took it follow on the CLI's next line).
 */
export function lockedMessage(): string {
  return "the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end or delete the lock file with `pulumi cancel`.";
}
