/**
 * Turns on Node's on-disk compile cache (Node 22.1 and later: `module.enableCompileCache`)
 * for the plugin process, before the provider's modules and zod load. The engine starts a
 * fresh plugin process for every `pulumi` command, and compiling those modules again each
 * time is most of its first call; with the cache, later processes read the compiled code
 * from the temp directory instead (on Node 24 here, loading the Service provider takes
 * about half as long). Node decides where the cache lives, and honours
 * `NODE_DISABLE_COMPILE_CACHE=1`. On Node 20 this does nothing.
 *
 * Imported for its effect, first, by resourceProvider.ts, the first module every provider
 * entry point loads.
 */
import * as nodeModule from "module";

const enable = (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache;
try {
  enable?.();
} catch {
  // A cache that cannot be set up (read-only temp directory) only costs speed.
}
