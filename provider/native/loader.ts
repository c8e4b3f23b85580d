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
 * - **Parts of the bundle are run when first used**: modules a start does not need before its
 *   port (zod: the provider's schemas, loaded right after the port is printed) or before its
 *   first request to the cloud's API (undici) are scripts of their own beside the bundle
 *   (`LoaderBuild.parts`), so an uncached first start compiles neither before it needs them
 *   (V8 parses every byte of a script it compiles, whichever functions run). Each has its own
 *   code cache, written by the first call about a resource answered after it ran. A part
 *   stands for one package as a whole, which nothing else in the bundle holds a copy of.
 *
 * The cache is a file per bundle (its SHA-256, written in at build time: V8 checks only the
 * source's length) and V8 version, in `code-cache/` beside the bundle (the plugin's folder,
 * which the engine made the user's), else in `CLOUDDB_PLUGIN_CACHE_DIR` (the launcher sets it
 * to the user's cache folder of this version), else in this user's own folder under the
 * system's temporary folder ({@link tempCacheRoot}: where the home is read-only, as in some
 * containers); never in a folder other users may write to: the last is made private and used
 * only while it is this user's alone (V8 checks a cache against the source's length only, so
 * a cache another user could plant would run their code).
 * The linux-amd64 tarball ships in `code-cache/` those its packing made on npm's Node.js 24
 * and 22 (scripts/plugin/warm-cache.js), so a first start there compiles from one too.
 * A cache V8 refuses (another Node.js, other flags) is replaced; one that cannot be read or
 * written only costs speed. It is written through a temporary file and a rename, so two
 * plugins starting at once never read half a file.
 *
 * @packageDocumentation
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
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
  /**
   * The bundle's parts, by the module they stand for (e.g. `undici`): each a script beside the
   * loader, its file name and SHA-256, run when the plugin first uses that module
   * ({@link PART_HOOK}), from a code cache of its own.
   */
  readonly parts?: Readonly<Record<string, BundlePart>>;
}

/** A part of the bundle: a module the bundle loads from a script of its own when first used. */
export interface BundlePart {
  /** Its file name, beside the loader. */
  readonly file: string;
  /** Its SHA-256 (hex): which script a code cache was made from. */
  readonly sha256: string;
}

/**
 * The global symbol under which the loader puts its function that loads a part of the bundle
 * by the module's name (scripts/plugin/pack.js writes the same name into the bundle's stand-in
 * of each such module).
 */
export const PART_HOOK: symbol = Symbol.for("clouddb.plugin.loadPart");

/** Whether Node.js `version` (`v20.18.1` or `20.18.1`) is `min` (`x.y.z`) or later. */
export function nodeAtLeast(version: string, min: string): boolean {
  const parts = (v: string): number[] => v.replace(/^v/, "").split("-")[0].split(".").map(Number);
  const [have, need] = [parts(version), parts(min)];
  for (let i = 0; i < 3; i++) if ((have[i] || 0) !== (need[i] || 0)) return (have[i] || 0) > (need[i] || 0);
  return true;
}

/**
 * A folder a code cache is read from and written to. One with a `root` (a folder under the
 * system's temporary folder, where every user may make folders) is used only while that root
 * is this user's alone ({@link isPrivate}); the loader makes it so (0700) when it first writes
 * there.
 */
export interface CacheDir {
  /** The folder the cache files are in. */
  readonly dir: string;
  /** The folder that must be this user's alone before `dir` is read or written, if any. */
  readonly root?: string;
}

/**
 * This user's own folder under the system's temporary folder (`<tmp>/clouddb-plugin-<uid>`),
 * the last place a code cache is kept; undefined where processes have no user id (Windows).
 */
export function tempCacheRoot(tmp: string = os.tmpdir()): string | undefined {
  const uid = process.getuid?.();
  return uid === undefined ? undefined : path.join(tmp, `clouddb-plugin-${uid}`);
}

/** Whether `root` is this user's alone: a folder (not a link) this user owns, that nobody else may write to. */
export function isPrivate(root: string): boolean {
  try {
    const st = fs.lstatSync(root);
    return st.isDirectory() && st.uid === process.getuid?.() && (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/**
 * The folders a code cache is read from and written to, first first: beside the bundle, then
 * the launcher's cache folder, then this user's own under the temporary folder `tmp`.
 */
export function cacheDirs(dir: string, env: NodeJS.ProcessEnv = process.env, tmp: string = os.tmpdir()): CacheDir[] {
  const dirs: CacheDir[] = [{ dir: path.join(dir, "code-cache") }];
  if (env.CLOUDDB_PLUGIN_CACHE_DIR) dirs.push({ dir: path.join(env.CLOUDDB_PLUGIN_CACHE_DIR, "code-cache") });
  const root = tempCacheRoot(tmp);
  if (root !== undefined) dirs.push({ dir: path.join(root, "code-cache"), root });
  return dirs;
}

/**
 * The code cache's file name, on this V8, for the script of SHA-256 `sha256` (the bundle's by
 * default). It holds `process.versions.v8` whole, Node's `-node.N` suffix included: V8 checks
 * a cache against its own version (the numbers before the suffix), its flags and the source's
 * length, not against the patches Node.js puts on it, which the suffix counts; a cache made by
 * another build of the same V8 is therefore never offered to it (Node's own compile cache is
 * kept per Node.js version likewise). The release ships caches made on npm's newest Node.js 24
 * and 22 (scripts/plugin/warm-cache.js): a start on any other finds none by this name and
 * writes its own.
 */
export function cacheName(build: LoaderBuild, sha256: string = build.bundleSha256): string {
  const v8 = process.versions.v8.replace(/[^0-9A-Za-z.-]/g, "_");
  return `${sha256.slice(0, 16)}-v8-${v8}-${process.arch}.bin`;
}

/** The first cache in `dirs` that can be read, with the folder it is in. */
function readCache(dirs: readonly CacheDir[], name: string): { data: Buffer; dir: string } | undefined {
  for (const { dir, root } of dirs) {
    if (root !== undefined && !isPrivate(root)) continue;
    try {
      return { data: fs.readFileSync(path.join(dir, name)), dir };
    } catch {
      // none there: the next folder
    }
  }
  return undefined;
}

/** Writes `data` as `name` into the first of `dirs` that takes it (a temporary file, then a rename); false if none does. */
export function writeCache(dirs: readonly CacheDir[], name: string, data: Buffer): boolean {
  for (const { dir, root } of dirs) {
    if (root !== undefined) {
      try {
        fs.mkdirSync(root, { mode: 0o700 });
      } catch {
        // there already (checked next), or none can be made
      }
      if (!isPrivate(root)) continue;
    }
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

/** How long after the plugin asks for its code cache the loader writes it (see {@link runBundle}). */
export const CACHE_WRITE_DELAY_MS = 50;

/** A script the loader compiled, and whether its code cache is still to be written. */
interface Compiled {
  readonly script: vm.Script;
  readonly cache: string;
  stale: boolean;
}

/**
 * Compiles the CommonJS script at `file` (SHA-256 `sha256`) from its code cache in `dirs`, if V8
 * takes it, and runs it as a module of its own; notes it in `compiled`. Its module.
 */
function runScript(file: string, sha256: string, build: LoaderBuild, dirs: readonly CacheDir[], compiled: Compiled[]): NodeJS.Module {
  const cache = cacheName(build, sha256);
  const source = fs.readFileSync(file, "utf8");
  const cached = readCache(dirs, cache);
  // The wrapper of a CommonJS module, as Node compiles one (the bundle and its parts are each one).
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;
  const script = new vm.Script(wrapped, { filename: file, ...(cached ? { cachedData: cached.data } : {}) });
  compiled.push({ script, cache, stale: cached === undefined || script.cachedDataRejected === true });
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the Module class, to give the script a module of its own
  const { Module } = require("module") as typeof import("module");
  const mod = new Module(file);
  mod.filename = file;
  const fn = script.runInThisContext() as (e: unknown, r: NodeJS.Require, m: unknown, f: string, d: string) => void;
  fn.call(mod.exports, mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
  return mod;
}

/**
 * Compiles the bundle at `file` from the code cache of an earlier process, if V8 takes it,
 * runs it, and installs {@link CODE_CACHE_HOOK} and {@link PART_HOOK}:
 *
 * - the first time the plugin calls the former after a script was compiled (the bundle, or a
 *   part), each cache that was missing or refused is written, {@link CACHE_WRITE_DELAY_MS}
 *   later (once the current call's answer has been sent), or as the process exits if sooner;
 * - the latter runs a part of the bundle (`build.parts`, beside the bundle) the first time the
 *   plugin uses its module, and returns its exports: what the bundle's stand-in of that module
 *   hands on. A part that cannot be read or run is an error naming its file, at each use.
 */
export function runBundle(file: string, build: LoaderBuild, env: NodeJS.ProcessEnv = process.env): void {
  const dir = path.dirname(file);
  const dirs = cacheDirs(dir, env);
  const compiled: Compiled[] = [];
  const write = (): void => {
    for (const c of compiled.filter((x) => x.stale)) {
      c.stale = false;
      writeCache(dirs, c.cache, c.script.createCachedData());
    }
  };
  let pending: NodeJS.Timeout | undefined;
  (globalThis as Record<symbol, unknown>)[CODE_CACHE_HOOK] = (): void => {
    if (pending !== undefined || !compiled.some((c) => c.stale)) return;
    // Later, not on the next turn: making a cache takes tens of milliseconds, which on the next
    // turn came before gRPC had sent the answer just given (the first Check's answer came 70
    // to 90 ms later, measured under load). A process that exits sooner writes it as it exits.
    pending = setTimeout(() => {
      pending = undefined;
      write();
    }, CACHE_WRITE_DELAY_MS);
    pending.unref();
  };
  process.once("exit", () => {
    if (pending !== undefined) write();
  });
  const parts = new Map<string, unknown>();
  (globalThis as Record<symbol, unknown>)[PART_HOOK] = (name: string): unknown => {
    if (parts.has(name)) return parts.get(name);
    const part = build.parts?.[name];
    if (part === undefined) throw new Error(`pulumi-resource-clouddb: its bundle has no part ${name}`);
    let exports: unknown;
    try {
      exports = runScript(path.join(dir, part.file), part.sha256, build, dirs, compiled).exports;
    } catch (e) {
      throw new Error(
        `pulumi-resource-clouddb: cannot load ${part.file} (the module ${name}), a part of the plugin's bundle beside it: ${e instanceof Error ? e.message : String(e)}`,
        { cause: e },
      );
    }
    parts.set(name, exports);
    return exports;
  };
  runScript(file, build.bundleSha256, build, dirs, compiled);
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
