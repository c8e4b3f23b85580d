/**
 * The Pulumi runtime state of an inline program the harness runs under the real CLI.
 *
 * The Automation API runs an inline program in this process and keeps its runtime state (the
 * engine's address, the stack resource, the calls under way) in an `AsyncLocalStorage` store
 * of the run (`withLocalStorage` in @pulumi/pulumi runtime/state.ts). Code that runs where
 * that async context was lost reads the process's global store instead, which no run set up:
 * there a resource registration is answered by the runtime itself, as in a unit test, and
 * never reaches the engine, which then deletes what the program declared. Seen in the
 * real-CLI tier on Node.js 24 under load (an `up` that reported no check failure, no refused
 * key, and deleted a resource the program declared), never alone.
 *
 * A program run by the CLI's Node.js language host has one process to itself and uses the
 * global store. The harness runs one inline program at a time in this process (processTurns.ts),
 * so it does the same: for the run's length, the global store is the run's own.
 */
import type { Program } from "../stack";

/** What this module reads of the runtime's state (@pulumi/pulumi runtime/state.ts declares both globals). */
interface RuntimeGlobals {
  asyncLocalStorage?: { getStore(): unknown };
  globalStore?: unknown;
}

/**
 * Makes the running inline program's store the process's global store, as a program run by
 * the CLI's language host has it. Call it from inside the program (where the run's store is
 * current); call what it returns once the Automation API's command has ended (registrations
 * go on after the program function returns).
 *
 * @returns The restorer: puts back the global store there was.
 */
export function pinProgramStore(): () => void {
  const globals = globalThis as RuntimeGlobals;
  const local = globals.asyncLocalStorage?.getStore();
  if (local === undefined) return () => undefined;
  const saved = globals.globalStore;
  globals.globalStore = local;
  return () => {
    if (globals.globalStore === local) globals.globalStore = saved;
  };
}

/**
 * Runs `command` (the Automation API's `up` or `preview`) of `program` with the program's store
 * pinned ({@link pinProgramStore}) from the program's start until `command` ended.
 */
export async function runPinned<T>(program: Program, command: (pinned: Program) => Promise<T>): Promise<T> {
  let release = (): void => undefined;
  try {
    return await command(() => {
      release = pinProgramStore();
      return program();
    });
  } finally {
    release();
  }
}
