/**
 * The provider process's one cancellation signal. Every API client the providers make takes
 * it (settings.ts: `ClouddbClientOptions.signal`), and so does every pause of the framework
 * ({@link pause}: a 409 waited out, a look again at a list, a turn at a journal entry's
 * lock); it aborts when Pulumi cancels (the engine's Cancel, on Ctrl-C, native plugin) or
 * when the engine that runs the provider is gone (engineWatch.ts). From then on every wait
 * and pause ends at once, those under way and those started later, whichever client they
 * are in, however late it was made: a create waiting for its resource fails as a partial
 * failure (Pulumi keeps it in state, the next `up` resumes it), unsent requests fail as
 * unsent (a create not sent made nothing), and a request already sent gets its answer (a
 * create's id is recorded: in the journal, and in the partial failure). Cancellation is for
 * the process's life: the engine starts a new provider process for its next run.
 */
import { CancelledError } from "../client/clientErrors";
import { sleep } from "../client/timers";

const controller = new AbortController();

/** The operations under way (create, read, update, delete), until each has settled. */
const running = new Set<Promise<unknown>>();

/** The process's cancellation signal: every client and pause of the providers takes it. */
export function cancellationSignal(): AbortSignal {
  return controller.signal;
}

/**
 * Cancels every wait and pause of this process, now and from now on, for `why` (a clause:
 * `Pulumi cancelled the operation (Ctrl-C)`), which the errors they end with name. The first
 * reason stays; later calls change nothing.
 */
export function cancelOperations(why: string): void {
  if (!controller.signal.aborted) controller.abort(new CancelledError(why));
}

/** Waits `ms` milliseconds, unless the process is cancelled first. @throws CancelledError once it is (at once if it is already) */
export function pause(ms: number): Promise<void> {
  return sleep(ms, controller.signal);
}

/** Runs `operation`, counted among those under way until it settles (see {@link operationsSettled}). */
export function tracked<T>(operation: () => Promise<T>): Promise<T> {
  const run = operation();
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  running.add(settled);
  void settled.then(() => running.delete(settled));
  return run;
}

/** The operations a process whose engine is gone waits for. */
const TRACKED = ["create", "read", "update", "delete"] as const;

/** `provider` with its create, read, update and delete each {@link tracked} while under way. */
export function trackedOperations<P extends Record<(typeof TRACKED)[number], (...args: never[]) => Promise<unknown>>>(provider: P): P {
  const wrapped = { ...provider };
  for (const name of TRACKED) {
    const run = provider[name];
    wrapped[name] = (...args: never[]) => tracked(() => run.apply(provider, args));
  }
  return wrapped;
}

/** Resolves once every operation under way now has settled (at once when none is). Never rejects. */
export async function operationsSettled(): Promise<void> {
  while (running.size > 0) await Promise.all([...running]);
}
