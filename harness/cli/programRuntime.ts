/**
 * The Pulumi runtime of an inline program the harness runs under the real CLI: its state, and
 * its connections to the engine.
 *
 * The Automation API runs an inline program in this process and keeps its runtime state (the
 * engine's address, the stack resource, the calls under way, the gRPC clients of the engine
 * and its resource monitor) in an `AsyncLocalStorage` store of the run (`withLocalStorage` in
 * @pulumi/pulumi runtime/state.ts). A program run by the CLI's Node.js language host has a
 * process to itself; here one process runs hundreds, one after another, and two things of
 * that store need the harness's hand:
 *
 * - **Its clients.** The runtime never closes a run's clients (`disconnectSync` closes only
 *   the process-wide ones), and grpc-js shares one connection per address among all the
 *   channels of a process (its global subchannel pool). A run whose engine stopped while calls
 *   were under way leaves that connection failing, in back-off; a later engine of the CLI that
 *   happens to listen on the same port then gets it, and the first call of the run fails at
 *   once: `14 UNAVAILABLE: No connection established. Last error: null`. That first call is
 *   the stack's registration (`setRootResource`), so the program never runs, and the engine,
 *   told of nothing, deletes everything the stack held. A CI log of the real-CLI tier shows
 *   exactly this beside a failed test, and the tier's earlier failures (about one full run in
 *   two, each in another test) had its shape; grpc-js alone reproduces it
 *   (tests/cli/programRuntime.test.ts). The harness gives each channel of
 *   the runtime subchannels of its own, and closes a run's clients when its command ended.
 * - **Its store.** Code that runs where the run's async context was lost reads the process's
 *   global store, which no run set up: a resource registered there is answered by the runtime
 *   itself, as in a unit test, and never reaches the engine. For the run's length, the global
 *   store is the run's own, as under the language host (tests/cli/programRuntime.test.ts).
 *   The harness runs one inline program at a time in this process (processTurns.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import type { Program } from "../stack";
import type { RunCapture } from "./runs";

/** What this module reads of the runtime's state (@pulumi/pulumi runtime/state.ts declares both globals). */
interface RuntimeGlobals {
  asyncLocalStorage?: { getStore(): unknown };
  globalStore?: unknown;
}

/** The clients a run's store holds (runtime/settings.ts `getMonitor`, `getEngine`). */
interface RunStore {
  settings?: { monitor?: { close(): void }; engine?: { close(): void } };
}

/** The grpc-js channel option that gives a channel subchannels (connections) of its own rather than the process's shared ones. */
export const OWN_SUBCHANNELS = "grpc.use_local_subchannel_pool";

/**
 * Makes every gRPC client the Pulumi runtime creates from now on keep its connections to
 * itself, so that no run inherits a connection an earlier run's dead engine left failing. The
 * runtime passes one options object to each client it makes: `grpcClientOptions` (newer
 * versions, 3.248 among them; not in its typings) or `grpcChannelOptions` (older ones, 3.216
 * among them). Idempotent.
 *
 * @returns Whether this runtime has such an object to set.
 */
export function isolateProgramChannels(): boolean {
  const runtime = pulumi.runtime as unknown as Record<"grpcClientOptions" | "grpcChannelOptions", Record<string, unknown> | undefined>;
  const objects = [runtime.grpcClientOptions, runtime.grpcChannelOptions].filter((o) => o !== undefined);
  for (const options of objects) options[OWN_SUBCHANNELS] = 1;
  return objects.length > 0;
}

/**
 * Makes the running inline program's store the process's global store, as a program run by
 * the CLI's language host has it. Call it from inside the program (where the run's store is
 * current); call what it returns once the Automation API's command has ended (registrations
 * go on after the program function returns). The restorer also closes the run's clients of
 * the engine and its monitor: the engine that served them is gone.
 *
 * @returns The restorer: puts back the global store there was, and closes the run's clients.
 */
function pinProgramStore(): () => void {
  const globals = globalThis as RuntimeGlobals;
  const local = globals.asyncLocalStorage?.getStore();
  if (local === undefined) return () => undefined;
  const saved = globals.globalStore;
  globals.globalStore = local;
  return () => {
    if (globals.globalStore === local) globals.globalStore = saved;
    const settings = (local as RunStore).settings;
    for (const client of [settings?.monitor, settings?.engine]) client?.close();
  };
}

/** Whether this process's runtime already gives its channels subchannels of their own ({@link isolateProgramChannels}). */
let channelsIsolated = false;

/**
 * Runs `command` (the Automation API's `up` or `preview`) of `program` with the program's
 * runtime looked after ({@link isolateProgramChannels}, {@link pinProgramStore}) from the
 * program's start until `command` ended, and records in `run.programStarted` whether the
 * program ran at all (the runtime registers the stack before it: see the module's note).
 */
export async function runProgramRuntime<T>(program: Program, run: RunCapture, command: (pinned: Program) => Promise<T>): Promise<T> {
  // Once a process (a module registry) is enough: the options object lives as long as the runtime module.
  channelsIsolated ||= isolateProgramChannels();
  let release = (): void => undefined;
  run.programStarted = false;
  try {
    return await command(() => {
      run.programStarted = true;
      release = pinProgramStore();
      return program();
    });
  } finally {
    release();
  }
}
