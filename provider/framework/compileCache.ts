/**
 * Turns on Node's on-disk compile cache (Node 22.1 and later: `module.enableCompileCache`)
 * for the plugin process, before the provider's modules and zod load. The engine starts a
 * fresh plugin process for every `pulumi` command, and compiling those modules again each
 * time is most of its first call; with the cache, later processes read the compiled code
 * from the temp directory instead. Node decides where the cache lives, and honours
 * `NODE_DISABLE_COMPILE_CACHE=1`. On Node 20 this does nothing.
 *
 * Node writes the cache only at a normal exit, and the engine ends its plugins with a signal
 * (SIGINT, then SIGKILL), so {@link saveCompileCache} writes it as soon as new modules have
 * loaded (`module.flushCompileCache`, Node 22.10 and later).
 *
 * Imported for its effect, first, by resourceProvider.ts, the first module every provider
 * entry point loads. Not under the release's loader (provider/native/loader.ts), which
 * keeps V8's code cache of the whole bundle itself (codeCacheHook.ts): Node's cache would
 * only make a folder in the temp directory there.
 */
import * as nodeModule from "module";
import { underLoader } from "./codeCacheHook";

const node = nodeModule as { enableCompileCache?: () => unknown; flushCompileCache?: () => void };
try {
  if (!underLoader()) node.enableCompileCache?.();
} catch {
  // A cache that cannot be set up (read-only temp directory) only costs speed.
}

/** Writes what the compile cache holds to disk now: called once modules that the next process will load again have loaded. */
export function saveCompileCache(): void {
  try {
    node.flushCompileCache?.();
  } catch {
    // Only speed is lost.
  }
}
