/**
 * What a fresh provider process loads for its first call: `check` and `diff` need neither
 * undici nor the API client nor zod's 63 locales (loaded when one is used), and on Node 22
 * and later the provider turns on Node's compile cache, so the next process reads compiled
 * code instead of compiling it again.
 */
import { spawnSync } from "child_process";
import * as nodeModule from "module";
import { REPO_ROOT } from "../../harness";

/** Loads the Service provider in a fresh `node` from the repository (as the plugin does) and reports on it. */
interface Probe {
  cacheDir: string | null;
  clientLoaded: boolean;
  /** zod's locale files loaded by the provider (its index and English are expected). */
  locales: string[];
  /** What `z.locales.fr` and `z.locales.frCA` are, after the probe looked. */
  frenchLocales: string;
}

function probe(env: Record<string, string> = {}): Probe {
  const script = [
    'require("pulumi-clouddb/provider/service");',
    'const m = require("module");',
    "const clientLoaded = Object.keys(require.cache).some((f) => /[\\\\/]undici[\\\\/]|provider[\\\\/]client[\\\\/]client\\.js$/.test(f));",
    "const locales = Object.keys(require.cache).filter((f) => /[\\\\/]zod[\\\\/]v4[\\\\/]locales[\\\\/]/.test(f)).map((f) => f.split(/[\\\\/]/).pop());",
    'const z = require("zod");',
    'const frenchLocales = typeof z.locales.fr + " " + typeof z.locales.frCA;',
    "console.log(JSON.stringify({ cacheDir: m.getCompileCacheDir?.() ?? null, clientLoaded, locales, frenchLocales }));",
  ].join("\n");
  const { NODE_COMPILE_CACHE: _dir, NODE_DISABLE_COMPILE_CACHE: _off, ...inherited } = process.env;
  void _dir;
  void _off;
  const r = spawnSync(process.execPath, ["-e", script], { cwd: REPO_ROOT, env: { ...inherited, ...env }, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`probe failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Probe;
}

const node = nodeModule as { enableCompileCache?: unknown; getCompileCacheDir?: unknown };

describe("a fresh provider process", () => {
  it("loads neither undici nor the API client to serve check and diff", () => {
    expect(probe().clientLoaded).toBe(false);
  });

  it("loads zod's locales only when one is used, and each still works", () => {
    const { locales, frenchLocales } = probe();
    expect(locales.sort()).toEqual(["en.cjs", "index.cjs"]);
    expect(frenchLocales).toBe("function function");
  });

  it(`turns on Node's compile cache where Node has one (here: ${typeof node.enableCompileCache === "function" ? "yes" : "no"})`, () => {
    const cacheDir = probe().cacheDir;
    if (typeof node.getCompileCacheDir === "function") expect(cacheDir).toEqual(expect.any(String));
    else expect(cacheDir).toBeNull(); // Node 20 (no cache), or 22.1 to 22.7 (cannot say where it is)
  });

  it("leaves it off when NODE_DISABLE_COMPILE_CACHE=1", () => {
    expect(probe({ NODE_DISABLE_COMPILE_CACHE: "1" }).cacheDir).toBeNull();
  });
});
