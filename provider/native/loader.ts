/**
 * The release's loader of the bundled plugin: what the launcher runs on the machine's Node.js
 * (`node pulumi-resource-clouddb.js`, scripts/plugin/pack.js bundles this file with the values
 * of one build). It needs nothing but Node's own modules, and loads nothing of the plugin
 * before it has checked the Node.js it runs on:
 *
 * - **An older Node.js than the bundle needs** (package.json's `engines.node`): it hands the
 *   start to the single-file build, by starting the launcher beside it again with
 *   `CLOUDDB_PLUGIN_OLD_NODE` set to its version (the launcher then fetches and runs the
 *   single-file build, and says why); standard streams are shared, signals passed on, its exit
 *   code returned.
 * - **Else it runs the bundle from V8's code cache**: the bundle is compiled with the code
 *   cache that an earlier process of the same bundle on the same V8 left (`vm.Script`'s
 *   `cachedData`, Node.js 20 and later alike), so a later start neither parses the bundle
 *   nor compiles the functions that earlier process ran. That process wrote the cache once
 *   its first call about a resource was answered ({@link CODE_CACHE_HOOK}), when the functions
 *   a start, a Configure and a Check run are compiled: V8's code cache holds every function
 *   compiled so far, where Node's own compile cache (`NODE_COMPILE_CACHE`) holds the bundle's
 *   top level only, as the single-file build's does.
 *
 * The cache is a file per bundle (its SHA-256, written in at build time: V8 checks only the
 * source's length) and V8 version, in `code-cache/` beside the bundle (the plugin's folder,
 * which the engine made the user's), else in `CLOUDDB_PLUGIN_CACHE_DIR` (the launcher sets it
 * to the user's cache folder of this version); never in a folder other users may write to.
 * A cache V8 refuses (another Node.js, other flags) is replaced; one that cannot be read or
 * written only costs speed. It is written through a temporary file and a rename, so two
 * plugins starting at once never read half a file.
 *
 * @packageDocumentation
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";
import * as vm from "vm";
import { CODE_CACHE_HOOK } from "../framework/codeCacheHook";

/** What one build of the plugin writes into its loader. */
export interface LoaderBuild {
  /** The oldest Node.js that runs the bundle (`x.y.z`). */
  readonly minNode: string;
  /** The bundle's file name, beside the loader. */
  readonly bundle: string;
  /** The bundle's SHA-256 (hex): which bundle a code cache was made from. */
  readonly bundleSha256: string;
  /** The launcher's file name, beside the loader (for an older Node.js). */
  readonly launcher: string;
}

/** Whether Node.js `version` (`v20.18.1` or `20.18.1`) is `min` (`x.y.z`) or later. */
export function nodeAtLeast(version: string, min: string): boolean {
  const parts = (v: string): number[] => v.replace(/^v/, "").split("-")[0].split(".").map(Number);
  const [have, need] = [parts(version), parts(min)];
  for (let i = 0; i < 3; i++) if ((have[i] || 0) !== (need[i] || 0)) return (have[i] || 0) > (need[i] || 0);
  return true;
}

/** The folders a code cache is read from and written to, first first: beside the bundle, then the launcher's cache folder. */
export function cacheDirs(dir: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const dirs = [path.join(dir, "code-cache")];
  if (env.CLOUDDB_PLUGIN_CACHE_DIR) dirs.push(path.join(env.CLOUDDB_PLUGIN_CACHE_DIR, "code-cache"));
  return dirs;
}

/** The code cache's file name for `build` on this V8. */
export function cacheName(build: LoaderBuild): string {
  const v8 = process.versions.v8.replace(/[^0-9A-Za-z.-]/g, "_");
  return `${build.bundleSha256.slice(0, 16)}-v8-${v8}-${process.arch}.bin`;
}

/** The first cache in `dirs` that can be read, with the folder it is in. */
function readCache(dirs: readonly string[], name: string): { data: Buffer; dir: string } | undefined {
  for (const dir of dirs) {
    try {
      return { data: fs.readFileSync(path.join(dir, name)), dir };
    } catch {
      // none there: the next folder
    }
  }
  return undefined;
}

/** Writes `data` as `name` into the first of `dirs` that takes it (a temporary file, then a rename); false if none does. */
export function writeCache(dirs: readonly string[], name: string, data: Buffer): boolean {
  for (const dir of dirs) {
    const tmp = path.join(dir, `.${name}.${process.pid}.tmp`);
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      fs.writeFileSync(tmp, data, { mode: 0o600 });
      fs.renameSync(tmp, path.join(dir, name));
      return true;
    } catch {
      try {
        fs.rmSync(tmp, { force: true });
      } catch {
        // no temporary file could be made there either (`dir` is no folder)
      }
    }
  }
  return false;
}

/**
 * Compiles the bundle at `file` from the code cache of an earlier process, if V8 takes it,
 * runs it, and installs {@link CODE_CACHE_HOOK}: the first time the plugin calls it, a cache
 * that was missing or refused is written (once the current call's answer is on its way).
 */
export function runBundle(file: string, build: LoaderBuild, env: NodeJS.ProcessEnv = process.env): void {
  const dirs = cacheDirs(path.dirname(file), env);
  const name = cacheName(build);
  const source = fs.readFileSync(file, "utf8");
  const cached = readCache(dirs, name);
  // The wrapper of a CommonJS module, as Node compiles one (the bundle is one).
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;
  const script = new vm.Script(wrapped, { filename: file, ...(cached ? { cachedData: cached.data } : {}) });
  let stale = cached === undefined || script.cachedDataRejected === true;
  (globalThis as Record<symbol, unknown>)[CODE_CACHE_HOOK] = (): void => {
    if (!stale) return;
    stale = false;
    setImmediate(() => writeCache(dirs, name, script.createCachedData()));
  };
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the Module class, to give the bundle a module of its own
  const { Module } = require("module") as typeof import("module");
  const mod = new Module(file);
  mod.filename = file;
  const fn = script.runInThisContext() as (e: unknown, r: NodeJS.Require, m: unknown, f: string, d: string) => void;
  fn.call(mod.exports, mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
}

/**
 * Hands the start to the launcher at `launcher` with `CLOUDDB_PLUGIN_OLD_NODE` set (it runs
 * the single-file build): shares the standard streams, passes SIGINT and SIGTERM on, and
 * ends as it ends.
 */
export function handOver(launcher: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): void {
  const child = spawn(launcher, args, { stdio: "inherit", env: { ...env, CLOUDDB_PLUGIN_OLD_NODE: process.version } });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
  child.on("error", (e) => {
    process.stderr.write(`pulumi-resource-clouddb: cannot run ${launcher}: ${e.message}\n`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    }
    process.exit(code ?? 1);
  });
}

/** Starts the plugin of `build`, the loader being in folder `dir`: see the module's description. */
export function start(build: LoaderBuild, dir: string = __dirname): void {
  if (!nodeAtLeast(process.version, build.minNode)) return handOver(path.join(dir, build.launcher), process.argv.slice(2));
  runBundle(path.join(dir, build.bundle), build);
}
