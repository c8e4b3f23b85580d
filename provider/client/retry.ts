/**
 * The retry policy, in one place. p-retry runs the loop; this module decides what is
 * retried and how long to wait:
 * - 429: always (the server did not act), no sooner than `Retry-After`: the client's pacer
 *   holds every request until then (pacer.ts), so a call does not wait on its own; a 429
 *   without one is retried after a backoff that grows with each refusal of the request, with
 *   jitter (the API did not say how long: 5 bare 429s in a row take at least 3.75 s, not 0.8),
 *   and then waits for its turn at the pacer like any request (its rate still governs);
 * - every failure after which the request may have been carried out ("maybe": any 5xx but
 *   501, 505 and 511, which say it was not understood or never got past a portal; no whole
 *   answer from a request that may have been sent), for reads, idempotent actions and
 *   deletes, with exponential backoff and jitter, and no sooner than a 503's `Retry-After`;
 * - creates: a "maybe", a 2xx whose body cannot be read or is not the API's, and a redirect
 *   a server may send after it acted (301, 302, 303) are ambiguous outcomes: `recover`
 *   settles them by what it can prove, and never by sending the create again (see
 *   createRecovery.ts); a request that never reached the API (connection refused) is simply
 *   sent again;
 * - everything else (4xx, a redirect, validation of a read): never.
 * All of it bounded by a deadline: a retry that could not start before the deadline is
 * not made, and the last error is raised (at once when a `Retry-After` reaches past it). A
 * 429's deadline may be later (`limitDeadline`: the operation's own, within a provider's):
 * a limit other clients of the key hold is waited out as long as the operation may wait.
 */
import pRetry = require("p-retry");
import type { CallKind } from "../../contract";
import { NetworkError, NotFoundError, NotTheApiError, RateLimitError, RedirectError, ResponseValidationError, ServerError } from "./errors";
import { retryDelayMs } from "./shaping/backoff";
import { sleep } from "./timers";

/** One call to run under the policy. */
export interface RetryCall<T> {
  /** Client method name. */
  operation: string;
  /** Retry class of the call (the API description's `retry`). */
  kind: CallKind;
  /** Absolute time (epoch ms) after which no retry starts. */
  deadline: number;
  /**
   * Absolute time (epoch ms) after which no retry of a 429 starts: the API's rate limit is
   * waited for as long as the operation under way may wait (its timeouts). @default `deadline`
   */
  limitDeadline?: number;
  /**
   * Absolute time (epoch ms) after which no retry starts of a request that could not reach
   * the API at all (connection refused, name not resolved). @default `deadline`
   */
  unreachableDeadline?: number;
  /** Makes one attempt. */
  attempt: () => Promise<T>;
  /**
   * For creates: settles an ambiguous outcome. Given the failure and whether the retries
   * have run out, it returns what the attempt made, or undefined when it made nothing (then
   * the create may be sent again), or throws (an `AmbiguousCreateError` ends the call).
   * Called before the attempt that follows an ambiguous failure, and once more, with
   * `final` true, when the retries run out while one is unsettled.
   */
  recover?: (failure: unknown, final: boolean) => Promise<T | undefined>;
  /** For deletes: the value to resolve with when a retry finds the resource gone. */
  goneValue?: T;
  /** Ends a pause between attempts when it aborts (the client stopped): the call fails with its reason. */
  signal?: AbortSignal;
}

/**
 * The most attempts of one call: a bound that the deadlines reach first in practice. Counted
 * here rather than given to p-retry as `retries`: node-retry builds, sorts and copies an array
 * of that many timeouts for every call (35 µs of CPU a call, warm), where `forever` keeps one
 * (1 to 1.5 µs a call).
 */
export const MAX_ATTEMPTS = 1_001;

/** 5xx statuses that say the request was not carried out: not implemented, HTTP version not supported, network authentication required (a captive portal). */
const NOT_CARRIED_OUT_5XX = new Set([501, 505, 511]);

/**
 * True for an error status that may follow a request the API carried out (a gateway's
 * 502 or 504 after passing it on, a 500 after acting): every 5xx but 501, 505 and 511.
 */
export function mayHaveBeenCarriedOut(status: number): boolean {
  return status >= 500 && status <= 599 && !NOT_CARRIED_OUT_5XX.has(status);
}

/**
 * True for a redirect that may follow a request the server carried out: 301, 302 and 303
 * (Post/Redirect/Get: "it is done, the result is there"), unlike 307 and 308, which ask for
 * the same request elsewhere and so say it was not carried out here.
 */
export function redirectMayFollowCarriedOut(status: number): boolean {
  return status === 301 || status === 302 || status === 303;
}

/**
 * True for failures after which the request may or may not have been carried out: a 5xx
 * that may follow it ({@link mayHaveBeenCarriedOut}), no whole answer from a request that
 * may have reached the API, a 2xx whose body could not be read, a 2xx page that is not the
 * API's, and a redirect a server may send after it acted ({@link redirectMayFollowCarriedOut}).
 */
export function isAmbiguousFailure(err: unknown): boolean {
  if (ServerError.isInstance(err)) return mayHaveBeenCarriedOut(err.status);
  if (NetworkError.isInstance(err)) return err.retryable && err.requestSent;
  if (RedirectError.isInstance(err)) return redirectMayFollowCarriedOut(err.status);
  return ResponseValidationError.isInstance(err) || NotTheApiError.isInstance(err);
}

/** True for failures the policy retries (429, a 5xx that may follow a request carried out, retryable network failures). */
export function isRetryableFailure(err: unknown): boolean {
  if (RateLimitError.isInstance(err)) return true;
  if (ServerError.isInstance(err)) return mayHaveBeenCarriedOut(err.status);
  return NetworkError.isInstance(err) && err.retryable;
}

/**
 * Runs `call.attempt` under the retry policy.
 *
 * @returns the attempt's result; for a create, possibly the resource `recover` found; for a
 * delete, `goneValue` when a retry after an ambiguous failure answers 404.
 * @throws the last error when it is not retryable, or when the next retry could not start
 * before `call.deadline` (a 429 whose `Retry-After` reaches past the deadline fails at once);
 * whatever `recover` throws. For a create whose retries ran out while an ambiguous outcome
 * is unsettled, `recover` is asked one last time before the error is raised.
 */
export async function withRetry<T>(call: RetryCall<T>): Promise<T> {
  let unsettled: unknown = undefined;
  let hadAmbiguous = false;
  const recover = call.kind === "create" ? call.recover : undefined;
  try {
    return await pRetry(
      async () => {
        try {
          if (unsettled !== undefined && recover !== undefined) {
            let found: T | undefined;
            try {
              found = await recover(unsettled, false);
            } catch (recoveryError) {
              // A failure recovery can retry (its list met a 503) keeps the outcome unsettled.
              if (!isRetryableFailure(recoveryError)) unsettled = undefined;
              throw recoveryError;
            }
            if (found !== undefined) return found;
            unsettled = undefined;
          }
          return await call.attempt();
        } catch (err) {
          if (hadAmbiguous && call.kind === "delete" && NotFoundError.isInstance(err) && "goneValue" in call) {
            return call.goneValue as T;
          }
          const ambiguous = isAmbiguousFailure(err);
          if (ambiguous) hadAmbiguous = true;
          if (call.kind === "create" && ambiguous && unsettled === undefined) {
            if (recover === undefined) throw new pRetry.AbortError(err as Error);
            unsettled = err;
            // A page that is not the API's: settle it by looking, but never send the create again through that gateway.
            if (!isRetryableFailure(err) && !ResponseValidationError.isInstance(err)) throw new pRetry.AbortError(err as Error);
            throw err;
          }
          if (!isRetryableFailure(err)) throw new pRetry.AbortError(err as Error);
          throw err;
        }
      },
      {
        forever: true,
        retries: 0,
        factor: 1,
        minTimeout: 0,
        maxTimeout: 0,
        randomize: false,
        onFailedAttempt: async (failure) => {
          const delay = retryDelayMs(failure, failure.attemptNumber);
          const unreachable = NetworkError.isInstance(failure) && !failure.requestSent;
          const deadline = RateLimitError.isInstance(failure)
            ? (call.limitDeadline ?? call.deadline)
            : unreachable
              ? Math.min(call.deadline, call.unreachableDeadline ?? call.deadline)
              : call.deadline;
          if (Date.now() + delay > deadline || failure.attemptNumber >= MAX_ATTEMPTS) throw failure;
          // A 429's Retry-After holds this request always (the pacer holds the others too when it is the
          // limit's own: ownRefusals.ts limitsOwn); after a bare one, the request backs off on its own.
          await sleep(delay, call.signal);
        },
      },
    );
  } catch (err) {
    if (unsettled !== undefined && recover !== undefined) {
      const found = await recover(unsettled, true);
      if (found !== undefined) return found;
    }
    throw err;
  }
}
