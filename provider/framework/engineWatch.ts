/**
 * A provider process whose Pulumi engine is gone (the `pulumi` CLI killed with `kill -9`,
 * crashed, its machine's session ended) ends its waits and exits, instead of waiting for
 * minutes for a resource no one will record: the journal keeps every create in flight as a
 * kill would leave it (journal.ts), and the next `up` takes what it made over.
 *
 * The signal is the provider's standard input. The engine starts every plugin with its
 * standard input a pipe whose writing end the engine alone holds, and never writes to nor
 * closes while the plugin runs (Pulumi's `execPlugin`: `cmd.StdinPipe()`, closed by
 * `cmd.Wait()` once the plugin has exited); the dynamic-provider host inherits it through its
 * launcher script. So the end of that pipe comes when, and only when, the engine process is
 * gone: while the engine lives, it cannot come. Other signals were weighed and are not used:
 * the parent process (the dynamic host's parent is the launcher's shell, which outlives the
 * engine), the engine's gRPC address (another process may take its port), a timer (none is
 * needed: the end of the pipe is an event). Standard input that is not a pipe (a terminal, a
 * file, `/dev/null`: the plugin run by hand, attached for debugging, or by a test harness)
 * tells nothing, and is not watched.
 */
import * as fs from "fs";
import { cancelOperations, operationsSettled } from "./cancellation";

/** The longest a process whose engine is gone waits for its operations to end before it exits. */
const ENGINE_GONE_GRACE_MS = 5_000;

/** True when file descriptor `fd` is a pipe (the engine's), not a terminal, a file or `/dev/null`. */
function isPipe(fd: number): boolean {
  try {
    return fs.fstatSync(fd).isFIFO();
  } catch {
    return false;
  }
}

/**
 * Calls `onGone` once, when the engine's pipe on `input` (standard input) ends. Does nothing
 * when `fd` is not a pipe. Keeps no process alive. Returns true when it watches.
 */
export function watchEngine(onGone: () => void, input: NodeJS.ReadStream = process.stdin, fd = 0): boolean {
  if (!isPipe(fd)) return false;
  let told = false;
  const gone = (): void => {
    if (told) return;
    told = true;
    onGone();
  };
  input.on("end", gone);
  input.on("close", gone);
  input.on("error", () => undefined); // a failed read is no end: the engine may be alive
  input.on("data", () => undefined); // the engine writes nothing; anything read is dropped
  input.resume();
  (input as { unref?: () => void }).unref?.();
  return true;
}

let installed = false;
let gone = false;

/** True once this process saw its engine go (its pipe ended): what a create returns now reaches no one. */
export function engineIsGone(): boolean {
  return gone;
}

/**
 * Once per process: when the engine that started this provider is gone, every wait and
 * pause ends at once (a create waiting for its resource fails, its journal entry kept), and
 * the process exits once its operations have ended, or after {@link ENGINE_GONE_GRACE_MS}
 * (a request still under way is cut as a kill would cut it). Nothing is written to standard
 * output or error then: no one reads them. Returns true when it watches (standard input is
 * the engine's pipe).
 */
export function endWhenEngineGone(): boolean {
  if (installed) return true;
  installed = watchEngine(() => {
    gone = true;
    // Writes to the dead engine's pipes fail (EPIPE): never let that end the process before its journal is written.
    for (const stream of [process.stdout, process.stderr]) stream.on("error", () => undefined);
    cancelOperations("the Pulumi engine that ran this provider is gone (the CLI was killed or crashed)");
    const grace = new Promise<void>((resolve) => setTimeout(resolve, ENGINE_GONE_GRACE_MS).unref());
    void Promise.race([operationsSettled(), grace]).then(() => process.exit(0));
  });
  return installed;
}

/**
 * True when this process is Pulumi's dynamic-provider host (`@pulumi/pulumi/cmd/dynamic-provider`,
 * the script Pulumi's `pulumi-resource-pulumi-nodejs` runs): the only process where the
 * dynamic providers watch for their engine (a program loading the SDK, or a test running
 * the provider in its own process, is not one).
 */
export function inDynamicProviderHost(main: string | undefined = require.main?.filename): boolean {
  return main !== undefined && /[\\/]@pulumi[\\/]pulumi[\\/]cmd[\\/]dynamic-provider[\\/]index\.js$/.test(main);
}
