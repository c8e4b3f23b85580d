/**
 * The deadline of the operation under way: a caller (the providers, bound by a resource's
 * `timeouts`) runs its work within {@link withinDeadline}, and every request, retry, pause,
 * recovery and wait of every client that this work starts ends by then, whatever the
 * client's own `retryDeadlineMs`, `requestTimeoutMs` or a wait's `timeoutMs` would allow.
 * Carried through the work's asynchronous calls (`AsyncLocalStorage`), so no call needs to
 * pass it on.
 */
import { AsyncLocalStorage } from "async_hooks";

const scope = new AsyncLocalStorage<number>();

/**
 * Runs `work` with `deadline` (epoch ms) as the end of every wait of every client it starts;
 * within an outer deadline, the earlier of the two.
 */
export function withinDeadline<T>(deadline: number, work: () => Promise<T>): Promise<T> {
  const outer = scope.getStore();
  return scope.run(outer === undefined ? deadline : Math.min(outer, deadline), work);
}

/** The deadline of the work under way (epoch ms), or undefined outside {@link withinDeadline}. */
export function scopeDeadline(): number | undefined {
  return scope.getStore();
}

/** `time` (epoch ms), or the deadline of the work under way when that comes first. */
export function boundedByScope(time: number): number {
  const end = scope.getStore();
  return end === undefined ? time : Math.min(time, end);
}

/**
 * Runs `work` outside any operation's deadline: for work that serves several operations at
 * once (a poll shared by waits of several resources), which no one of them may cut short.
 */
export function outsideDeadline<T>(work: () => T): T {
  return scope.exit(work);
}
