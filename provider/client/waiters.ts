/**
 * Polling until a resource reaches a state. Polls fast at first, then slower: the first
 * poll comes after `initialMs`, then each interval is `max(initialMs, 4% of the time
 * elapsed)`, capped at `maxMs`, so the overshoot past the moment a state is reached stays
 * under that interval: at most max(initialMs, 4% of the wait) until the cap, which leaves
 * room for the request itself within a 5% budget (README, "Performance"). Transient
 * failures of a poll (429, 5xx, network, after the retry layer gave up on them) do not end
 * the wait; only the timeout does.
 */
import {
  NetworkError,
  RateLimitError,
  ResourceFailedError,
  ServerError,
  TimeoutError,
  type WatchedResource,
} from "./errors";

/** What one poll saw. */
export type Observation<T> = { present: true; value: T } | { present: false };

/** What a poll means for the wait. */
export type Verdict<R> =
  | { kind: "done"; result: R }
  | { kind: "fail"; state: string; reason?: string }
  | { kind: "continue" };

/** One wait. */
export interface WaitSpec<T, R> {
  /** The watched resource, for errors. */
  resource: WatchedResource;
  /** Awaited states, for errors. */
  awaited: readonly string[];
  /** Total time allowed, in ms. */
  timeoutMs: number;
  /** First delay / shortest interval, in ms. */
  initialMs: number;
  /** Longest interval, in ms. */
  maxMs: number;
  /** Reads the resource once; `deadline` bounds the retries of that read. A 404 must come back as `{present: false}`. */
  observe: (deadline: number) => Promise<Observation<T>>;
  /** Decides what an observation means. */
  judge: (obs: Observation<T>) => Verdict<R>;
  /** Status of a seen resource, for errors. */
  statusOf: (value: T) => string | undefined;
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

function isTransient(err: unknown): boolean {
  return RateLimitError.isInstance(err) || ServerError.isInstance(err) || NetworkError.isInstance(err);
}

/**
 * Polls until `judge` says done or fail.
 *
 * @returns the result of the `done` verdict.
 * @throws ResourceFailedError on a `fail` verdict (with the last resource seen);
 * TimeoutError when `timeoutMs` passes first (with the last status seen and the last
 * transient error); any non-transient error of a poll (401, 403, validation) at once.
 */
export async function waitUntil<T, R>(spec: WaitSpec<T, R>): Promise<R> {
  const start = Date.now();
  const deadline = start + spec.timeoutMs;
  let lastSeen: T | undefined;
  let lastError: unknown;
  await sleep(Math.min(spec.initialMs, spec.timeoutMs));
  for (;;) {
    let obs: Observation<T> | undefined;
    try {
      obs = await spec.observe(deadline);
      lastError = undefined;
    } catch (err) {
      if (!isTransient(err)) throw err;
      lastError = err;
    }
    if (obs !== undefined) {
      const verdict = spec.judge(obs);
      if (verdict.kind === "done") return verdict.result;
      if (verdict.kind === "fail") {
        const init: ConstructorParameters<typeof ResourceFailedError>[0] = {
          resource: spec.resource,
          state: verdict.state,
          awaited: spec.awaited,
          lastSeen: obs.present ? obs.value : lastSeen,
        };
        if (verdict.reason !== undefined) init.reason = verdict.reason;
        throw new ResourceFailedError(init);
      }
      if (obs.present) lastSeen = obs.value;
    }
    const now = Date.now();
    if (now >= deadline) {
      throw new TimeoutError({
        resource: spec.resource,
        awaited: spec.awaited,
        lastStatus: lastSeen === undefined ? undefined : spec.statusOf(lastSeen),
        lastSeen,
        timeoutMs: spec.timeoutMs,
        lastError,
      });
    }
    await sleep(Math.min(pollIntervalMs(now - start, spec.initialMs, spec.maxMs), deadline - now));
  }
}
