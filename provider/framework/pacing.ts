/**
 * Trying an action again while the API refuses it for now (409: a service busy with
 * another change, a VPC with something still attached).
 */
import { ConflictError } from "../client/errors";
import { pause } from "./cancellation";
import { CloudStateError, ProviderErrorCode } from "./errors";
import type { ProviderSettings } from "./settings";

/**
 * The pause before the `attempt`-th (0-based) retry: starting at the configured poll
 * interval (1 s unless `clouddb:pollInterval` says otherwise), doubling, at most the
 * configured longest interval (10 s unless `clouddb:pollMaxInterval`).
 */
export function retryPause(poll: ProviderSettings["poll"], attempt: number): number {
  const { initialMs = 1000, maxMs = 10_000 } = poll;
  return Math.min(maxMs, initialMs * 2 ** attempt);
}

/**
 * Runs `action`, and while the API refuses it for now (409) tries again after
 * {@link retryPause}, as long as the next try would start before `deadline`. A 409 the
 * client classified as one waiting cannot cure (the blocking resource is paused, unstable,
 * in error: `curableByWaiting === false`) fails at once, with `incurable`'s words for it.
 *
 * @throws CloudStateError when waiting cannot help; the last ConflictError once the
 *   deadline is near; any other error at once
 */
export async function retryWhileConflict<T>(
  deadline: number,
  poll: ProviderSettings["poll"],
  action: () => Promise<T>,
  incurable: (blocker: NonNullable<ConflictError["blockedBy"]>) => string = (b) => `${b.kind} ${b.id} is ${b.status}: waiting cannot help`,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await action();
    } catch (e) {
      if (!ConflictError.isInstance(e)) throw e;
      if (e.curableByWaiting === false && e.blockedBy) throw new CloudStateError(incurable(e.blockedBy), ProviderErrorCode.NotReady);
      if (Date.now() + retryPause(poll, attempt) > deadline) throw e;
      await pause(retryPause(poll, attempt));
    }
  }
}
