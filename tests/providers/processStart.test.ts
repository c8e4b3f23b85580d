/**
 * What a fresh provider process loads for its first call: `check` and `diff` need neither
 * undici nor the API client, and on Node 22 and later the provider turns on Node's compile
 * cache, so the next process reads compiled code instead of compiling it again.
 */
import { spawnSync } from "child_process";
import * as nodeModule from "module";
import { REPO_ROOT } from "../../harness";

/** Loads the Service provider in a fresh `node` from the repository (as the plugin does) and reports on it. */
function probe(env: Record<string, string> = {}): { cacheDir: string | null; clientLoaded: boolean } {
  const script = [
    'require("pulumi-clouddb/provider/service");',
    'const m = require("module");',
    "const clientLoaded = Object.keys(require.cache).some((f) => /[\\\\/]undici[\\\\/]|provider[\\\\/]client[\\\\/]client\\.js$/.test(f));",
    "console.log(JSON.stringify({ cacheDir: m.getCompileCacheDir?.() ?? null, clientLoaded }));",
  ].join("\n");
  const { NODE_COMPILE_CACHE: _dir, NODE_DISABLE_COMPILE_CACHE: _off, ...inherited } = process.env;
  void _dir;
  void _off;
  const r = spawnSync(process.execPath, ["-e", script], { cwd: REPO_ROOT, env: { ...inherited, ...env }, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`probe failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as { cacheDir: string | null; clientLoaded: boolean };
}

const node = nodeModule as { enableCompileCache?: unknown; getCompileCacheDir?: unknown };

describe("a fresh provider process", () => {
  it("loads neither undici nor the API client to serve check and diff", () => {
    expect(probe().clientLoaded).toBe(false);
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
