/**
 * Waiting until a resource reaches a state. What an observation means comes from the status
 * rules table (statusRules.ts); this module only polls, judges and raises.
 *
 * Polls fast at first, then slower: the first poll comes after `initialMs`, then each
 * interval is `max(initialMs, 4% of the time elapsed)`, capped at `maxMs`. Transient
 * failures of a poll (429, 5xx, network, after the retry layer gave up on them) do not end
 * the wait; only the timeout does.
 */
import { NetworkError, RateLimitError, ResponseValidationError, ServerError } from "./errors";
import { classifyStatus, type WatchedKind, waitVerdict } from "./statusRules";
import { ResourceFailedError, TimeoutError, type WatchedBodies, type WatchedResource } from "./waitErrors";

/** What one poll saw: the resource, or that it is absent (404, or missing from its list). */
export type Observation<T> = { present: true; value: T } | { present: false };

/** What a wait waits for: one of the `awaited` statuses, or the resource's deletion. */
export type WaitGoal = { status: readonly string[] } | { deleted: true };

/** One wait. */
export interface WaitSpec<K extends WatchedKind> {
  /** The watched resource. */
  resource: WatchedResource<K>;
  /** What ends the wait. */
  goal: WaitGoal;
  /** Total time allowed, in ms. */
  timeoutMs: number;
  /** First delay / shortest interval, in ms. */
  initialMs: number;
  /** Longest interval, in ms. */
  maxMs: number;
  /** Reads the resource once; `deadline` bounds the retries of that read. A 404 must come back as `{present: false}`. */
  observe: (deadline: number) => Promise<Observation<WatchedBodies[K]>>;
}

/** Percentage of the time waited so far that the next interval may take. */
export const POLL_GROWTH_PERCENT = 4;

/** Interval after `elapsedMs` of waiting: `min(maxMs, max(initialMs, elapsedMs * POLL_GROWTH_PERCENT / 100))`. Never throws. */
export function pollIntervalMs(elapsedMs: number, initialMs: number, maxMs: number): number {
  return Math.min(maxMs, Math.max(initialMs, (elapsedMs * POLL_GROWTH_PERCENT) / 100));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

/**
 * Failures of one poll that do not end a wait: 429, 5xx, no answer, and an answer the client
 * cannot rely on (an item of a list or a body in an odd shape is "not yet", like an unknown
 * status; the timeout error names it as the last polling error).
 */
function isTransient(err: unknown): boolean {
  return (
    RateLimitError.isInstance(err) ||
    ServerError.isInstance(err) ||
    NetworkError.isInstance(err) ||
    ResponseValidationError.isInstance(err)
  );
}

/** The states a goal names, for messages. */
export function awaitedOf(goal: WaitGoal): readonly string[] {
  return "deleted" in goal ? ["deleted"] : goal.status;
}

/** Why a resource failed, when its body says (a peering's `error_message`). */
function failureReason(body: WatchedBodies[WatchedKind] | undefined): string | undefined {
  const message = body?.error_message;
  return typeof message === "string" && message !== "" ? message : undefined;
}

type Verdict = { kind: "done" } | { kind: "fail"; state: string } | { kind: "continue" };

/** What an observation means for a goal, by the status rules of `kind`. */
function judge<K extends WatchedKind>(kind: K, goal: WaitGoal, obs: Observation<WatchedBodies[K]>): Verdict {
  if ("deleted" in goal) {
    return !obs.present || classifyStatus(kind, obs.value.status) === "gone" ? { kind: "done" } : { kind: "continue" };
  }
  if (!obs.present) return { kind: "fail", state: "NOT_FOUND" };
  const status = obs.value.status;
  const verdict = waitVerdict(kind, status, goal.status);
  if (verdict === "fail") return { kind: "fail", state: status ?? "unknown" };
  return verdict === "done" ? { kind: "done" } : { kind: "continue" };
}

/**
 * Polls until the goal is met.
 *
 * @returns the resource in an awaited state, or undefined for a deletion.
 * @throws ResourceFailedError when the resource reaches a failure status of the rules
 * table that is not awaited, or is absent while it must exist (with the last body seen);
 * TimeoutError when `timeoutMs` passes first (with the last status seen and the last
 * transient error); any non-transient error of a poll (401, 403, validation) at once.
 */
export async function waitFor<K extends WatchedKind>(spec: WaitSpec<K>): Promise<WatchedBodies[K] | undefined> {
  const kind = spec.resource.kind;
  const awaited = awaitedOf(spec.goal);
  const start = Date.now();
  const deadline = start + spec.timeoutMs;
  let lastSeen: WatchedBodies[K] | undefined;
  let lastError: unknown;
  await sleep(Math.min(spec.initialMs, spec.timeoutMs));
  for (;;) {
    let obs: Observation<WatchedBodies[K]> | undefined;
    try {
      obs = await spec.observe(deadline);
      lastError = undefined;
    } catch (err) {
      if (!isTransient(err)) throw err;
      lastError = err;
    }
    if (obs !== undefined) {
      const verdict = judge(kind, spec.goal, obs);
      if (verdict.kind === "done") return obs.present ? obs.value : undefined;
      const seen = obs.present ? obs.value : lastSeen;
      if (verdict.kind === "fail") {
        const reason = failureReason(seen);
        throw new ResourceFailedError<K>({
          resource: spec.resource,
          state: verdict.state,
          awaited,
          lastSeen: seen,
          ...(reason === undefined ? {} : { reason }),
        });
      }
      lastSeen = seen;
    }
    const now = Date.now();
    if (now >= deadline) {
      throw new TimeoutError<K>({
        resource: spec.resource,
        awaited,
        lastStatus: lastSeen?.status,
        lastSeen,
        timeoutMs: spec.timeoutMs,
        lastError,
      });
    }
    await sleep(Math.min(pollIntervalMs(now - start, spec.initialMs, spec.maxMs), deadline - now));
  }
}
