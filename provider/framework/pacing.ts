import { ConflictError } from "../client";
import { settings } from "./settings";

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The pause before the `attempt`-th (0-based) retry of an action the cloud refused for
 * now (a 409 while something is still attached): starting at the configured poll
 * interval (1 s unless `clouddb:pollInterval` says otherwise), doubling, at most the
 * configured longest interval (10 s unless `clouddb:pollMaxInterval`).
 */
export function retryPause(attempt: number): number {
  const { initialMs = 1000, maxMs = 10_000 } = settings().poll;
  return Math.min(maxMs, initialMs * 2 ** attempt);
}

/**
 * Runs `action`, and while the API refuses it for now (409: the service is busy with
 * another change, a VPC still has something attached) tries again after
 * {@link retryPause}, as long as the next try would start before `deadline`.
 *
 * @throws the last ConflictError once the deadline is near, or any other error at once
 */
export async function retryWhileConflict<T>(deadline: number, action: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await action();
    } catch (e) {
      if (!ConflictError.isInstance(e) || Date.now() + retryPause(attempt) > deadline) throw e;
      await sleep(retryPause(attempt));
    }
  }
}
