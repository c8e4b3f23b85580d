/**
 * The deadline of the operation under way: a caller (the providers, bound by a resource's
 * `timeouts`) runs its work within {@link withinDeadline}, and no retry, pause after a 429,
 * recovery look or wait of any client that this work starts begins or lasts past it,
 * whatever the client's own `retryDeadlineMs` or a wait's `timeoutMs` would allow. A request
 * already under way ends within its own `requestTimeoutMs` (cut at the operation's end, a
 * create would become an unknown outcome). Carried through the work's asynchronous calls
 * (`AsyncLocalStorage`), so no call needs to pass it on.
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

/** The deadline (epoch ms) of the work under way, or undefined outside any. */
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
