/**
 * Timers that may wait longer than Node's own: `setTimeout` takes at most 2^31-1 ms (about
 * 24.8 days) and fires a longer one at once, with a `TimeoutOverflowWarning` each time (a
 * loop that re-arms such a timer floods stderr). Every wait of the client and the providers
 * goes through here, so a huge `Retry-After`, timeout or deadline waits as long as it says.
 */

/** The longest delay one Node timer takes. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A timer of {@link setLongTimeout}. */
export interface LongTimer {
  /** Stops it; the callback never runs. Idempotent. */
  cancel(): void;
}

/**
 * Calls `fn` once `ms` milliseconds have passed (at once for 0, a negative or a non-finite
 * `ms` other than Infinity; never for Infinity), chaining Node timers of at most
 * {@link MAX_TIMER_MS}. Never throws.
 */
export function setLongTimeout(fn: () => void, ms: number): LongTimer {
  if (ms === Infinity) return { cancel: () => undefined };
  const due = Date.now() + (Number.isFinite(ms) ? Math.max(0, ms) : 0);
  let timer: NodeJS.Timeout | undefined;
  let cancelled = false;
  const arm = (): void => {
    const left = due - Date.now();
    timer = setTimeout(
      () => {
        if (cancelled) return;
        if (due - Date.now() > 0) arm();
        else fn();
      },
      Math.min(Math.max(0, left), MAX_TIMER_MS),
    );
  };
  arm();
  return {
    cancel() {
      cancelled = true;
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}

/**
 * Resolves after `ms` milliseconds, however long that is (see {@link setLongTimeout}); with a
 * `signal`, rejects with its `reason` (an Error; another value wrapped in one) as soon as it
 * aborts (at once when it already has).
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal === undefined) return new Promise((resolve) => setLongTimeout(resolve, ms));
  const reason = (): Error => (signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(reason());
    const stop = (): void => {
      timer.cancel();
      reject(reason());
    };
    const timer = setLongTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve();
    }, ms);
    signal.addEventListener("abort", stop, { once: true });
  });
}
