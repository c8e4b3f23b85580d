/**
 * Trying an action again while the API refuses it for now (409: a service busy with
 * another change, a VPC with something still attached).
 */
import { ConflictError } from "../client/errors";
import { CloudStateError, ProviderErrorCode } from "./errors";
import type { ProviderSettings } from "./settings";

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

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
 * {@link retryPause}, as long as the next try would start before `deadline`. After a
 * 409, `incurable` (when given) may say why waiting cannot help (a paused service, an
 * unstable one): then it fails at once with that.
 *
 * @throws CloudStateError with `incurable`'s reason; the last ConflictError once the
 *   deadline is near; any other error at once
 */
export async function retryWhileConflict<T>(
  deadline: number,
  poll: ProviderSettings["poll"],
  action: () => Promise<T>,
  incurable?: () => Promise<string | undefined>,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await action();
    } catch (e) {
      if (!ConflictError.isInstance(e)) throw e;
      const why = await incurable?.();
      if (why !== undefined) throw new CloudStateError(why, ProviderErrorCode.NotReady);
      if (Date.now() + retryPause(poll, attempt) > deadline) throw e;
      await sleep(retryPause(poll, attempt));
    }
  }
}
