/**
 * What one run of the real CLI reported, read from its engine events (the Automation API's
 * `onEvent`, or `--event-log`): the steps of custom resources, the errors and check failures,
 * and every line it printed, in the harness's terms (types.ts) so that a test reads a real
 * run as it reads one of the model's.
 */
import type { EngineEvent } from "@pulumi/pulumi/automation";
import type { CheckFailure, Diagnostic, HarnessError, Step, StepOp } from "../types";

/** The name of a URN (its last part). */
export function nameOf(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/** The type of a URN (its parent types aside). */
export function typeOf(urn: string): string {
  const qualified = urn.split("::")[2] ?? "";
  return qualified.slice(qualified.lastIndexOf("$") + 1);
}

/** Whether the URN is a custom resource of a program (not the stack, not a provider). */
function isProgramResource(urn: string): boolean {
  const type = typeOf(urn);
  return type !== "pulumi:pulumi:Stack" && !type.startsWith("pulumi:providers:");
}

/** A step the engine reports, as the harness names it; undefined for the logical `replace` (its create is `create-replacement`). */
function stepOp(op: string, refresh: boolean): StepOp | undefined {
  if (refresh) {
    if (op === "update") return "refresh-update";
    if (op === "delete") return "refresh-delete";
    if (op === "same") return "same";
  }
  const ops: Record<string, StepOp | undefined> = {
    create: "create",
    update: "update",
    same: "same",
    delete: "delete",
    "create-replacement": "replace",
    "delete-replaced": "delete-replaced",
    read: "read",
    import: "import",
  };
  return ops[op];
}

/** A check failure as the engine prints it (pkg/resource/deploy/step_generator.go issueCheckErrors). */
const CHECK_FAILURE = /^(\S+) resource '([^']*)'(?:: property (\S+) value [\s\S]*? has a problem: | has a problem: )([\s\S]*)$/;

/** What one run reported, in the harness's terms. */
export interface RunReport {
  steps: Step[];
  errors: HarnessError[];
  checkFailures: CheckFailure[];
  diagnostics: Diagnostic[];
}

/** Reads a run's engine events. `refresh` names refresh steps as the harness does (`refresh-update`). */
export function reportOf(events: readonly EngineEvent[], refresh = false): RunReport {
  const report: RunReport = { steps: [], errors: [], checkFailures: [], diagnostics: [] };
  for (const e of events) {
    const done = e.resOutputsEvent?.metadata;
    if (done !== undefined && isProgramResource(done.urn)) {
      // `up --refresh` names its reads `refresh`: what they found is in the diff (and a gone resource has no new state).
      const drifted = (done.diffs ?? []).length > 0 || JSON.stringify(done.old?.outputs ?? {}) !== JSON.stringify(done.new?.outputs ?? {});
      const found = done.new === undefined ? "delete" : drifted ? "update" : "same";
      const op = done.op === "refresh" ? stepOp(found, true) : stepOp(done.op, refresh);
      if (op !== undefined) report.steps.push({ op, urn: done.urn, name: nameOf(done.urn), type: done.type });
    }
    const d = e.diagnosticEvent;
    if (d === undefined || d.ephemeral === true) continue;
    const severity = d.severity === "info#err" ? "info" : d.severity;
    if (severity !== "error" && severity !== "warning" && severity !== "info") continue;
    const message = d.message.replace(/\n+$/, "");
    const urn = d.urn === undefined || d.urn === "" ? undefined : d.urn;
    report.diagnostics.push(urn === undefined ? { severity, message } : { severity, urn, message });
    if (severity !== "error") continue;
    const check = CHECK_FAILURE.exec(message);
    if (check !== null) {
      report.checkFailures.push({ name: check[2], property: check[3] ?? "", reason: check[4] });
    } else if (urn !== undefined && isProgramResource(urn)) {
      report.errors.push({ urn, name: nameOf(urn), message });
    } else if (!/^update failed$|^preview failed$|^refresh failed$|^destroy failed$/.test(message)) {
      report.errors.push({ message });
    }
  }
  return report;
}
