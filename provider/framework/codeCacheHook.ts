/**
 * How the plugin asks the release's loader (provider/native/loader.ts) to keep V8's code
 * cache: the loader puts a function under {@link CODE_CACHE_HOOK} on `globalThis` before it
 * runs the bundle; {@link saveCodeCache} calls it. Where nothing put one (the npm package's
 * entry points, the single-file build, tests), it does nothing. A module of its own, free of
 * effects, so that the loader takes nothing else with it.
 */

/** The global symbol under which the loader puts its function. */
export const CODE_CACHE_HOOK: symbol = Symbol.for("clouddb.plugin.saveCodeCache");

/** Whether this process runs under the release's loader (which keeps V8's code cache itself). */
export function underLoader(): boolean {
  return typeof (globalThis as Record<symbol, unknown>)[CODE_CACHE_HOOK] === "function";
}

/**
 * Asks the loader to write V8's code cache of this process, once the current call's answer
 * is on its way: called when the first call about a resource has been answered, when the
 * code a start, a Configure and a Check run is compiled. The loader writes it only where the
 * cache it started with was missing or refused.
 */
export function saveCodeCache(): void {
  const hook = (globalThis as Record<symbol, unknown>)[CODE_CACHE_HOOK];
  if (typeof hook === "function") (hook as () => void)();
}
