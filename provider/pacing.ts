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
