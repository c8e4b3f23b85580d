/**
 * The Pulumi runtime is global to a process: a program run in this process (the harness's
 * engine, or the Automation API's inline programs under the real CLI) must be the only one.
 * Every stack of either kind takes its turn here.
 */
let queue: Promise<unknown> = Promise.resolve();

/** Runs `op` once every operation queued before it has finished (whether or not it failed). */
export function inTurn<T>(op: () => Promise<T>): Promise<T> {
  const run = queue.catch(() => undefined).then(op);
  queue = run;
  return run;
}
