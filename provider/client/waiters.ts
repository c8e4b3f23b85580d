/**
 * What a wait waits for, and what each observation means for it, by the status rules
 * table (contract/statuses.ts): done, failed (a failure status not awaited, or the resource gone
 * while it must exist), or not yet (an unknown status included). The polling itself is
 * pollHub.ts's, its timing pollSchedule.ts's.
 */
import { NetworkError, RateLimitError, ResponseValidationError, ServerError } from "./errors";
import { classifyStatus, type WatchedKind, waitVerdict } from "../../contract";
import type { WatchedBodies } from "./waitErrors";

export { pollIntervalMs } from "./pollSchedule";

/** What one poll saw: the resource, or that it is absent (404, or missing from its list). */
export type Observation<T> = { present: true; value: T } | { present: false };

/** What a wait waits for: one of the `awaited` statuses, or the resource's deletion. */
export type WaitGoal = { status: readonly string[] } | { deleted: true };

/** What an observation means for a wait. */
export type Verdict = { kind: "done" } | { kind: "fail"; state: string; reason?: string } | { kind: "continue" };

const DONE: Verdict = { kind: "done" };
const CONTINUE: Verdict = { kind: "continue" };

/** The states a goal names, for messages (`["deleted"]` for a deletion). */
export function awaitedOf(goal: WaitGoal): readonly string[] {
  return "deleted" in goal ? ["deleted"] : goal.status;
}

/** Why a resource failed, when its body says (a peering's `error_message`). */
function failureReason(body: WatchedBodies[WatchedKind] | undefined): string | undefined {
  const message = body?.error_message;
  return typeof message === "string" && message !== "" ? message : undefined;
}

/**
 * What `obs` means for a wait on a resource of `kind` with `goal`. A deletion is done when
 * the resource is absent or in a `gone` status; a status goal is done on an awaited
 * status, fails on a `failed` status not awaited (`reason` from the body) or on absence
 * (`NOT_FOUND`), and otherwise goes on. Never throws.
 */
export function judge<K extends WatchedKind>(kind: K, goal: WaitGoal, obs: Observation<WatchedBodies[K]>): Verdict {
  if ("deleted" in goal) {
    return !obs.present || classifyStatus(kind, obs.value.status) === "gone" ? DONE : CONTINUE;
  }
  if (!obs.present) return { kind: "fail", state: "NOT_FOUND" };
  const status = obs.value.status;
  const verdict = waitVerdict(kind, status, goal.status);
  if (verdict === "done") return DONE;
  if (verdict === "continue") return CONTINUE;
  const reason = failureReason(obs.value);
  return reason === undefined ? { kind: "fail", state: status ?? "unknown" } : { kind: "fail", state: status ?? "unknown", reason };
}

/**
 * Failures of one poll that do not end a wait: 429, 5xx, no answer, and an answer the client
 * cannot rely on (an item of a list or a body in an odd shape is "not yet", like an unknown
 * status; the timeout error names it as the last polling error).
 */
export function isTransient(err: unknown): boolean {
  return (
    RateLimitError.isInstance(err) || ServerError.isInstance(err) || NetworkError.isInstance(err) || ResponseValidationError.isInstance(err)
  );
}
