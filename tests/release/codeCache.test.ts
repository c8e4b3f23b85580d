/**
 * The release's plugin on the machine's Node.js: the loader (provider/native/loader.ts, bundled
 * by scripts/plugin/pack.js with the values of one build) runs the bundle, and keeps V8's code
 * cache of it once the first call about a resource is answered (not before: a Configure alone
 * writes nothing), in `code-cache/` of the plugin's folder, else in CLOUDDB_PLUGIN_CACHE_DIR,
 * else in this user's own folder under the temporary folder, never in one another user could
 * write to.
 * A later process starts from that cache and leaves it as it is (V8 took it: a cache V8
 * refuses is replaced, as a damaged one here is). The bundle and the loader are the ones
 * `npm run plugin:pack` puts in the engine's tarball; the plugin runs on this Node.js (20 or
 * later).
 */
import { createHash } from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { BundlePart, LoaderBuild } from "../../provider/native/loader";
import { NativePlugin, urnOf } from "../native/support";
import { cacheFiles, written } from "./cacheFiles";

const { bundle, bundleLoader, BUNDLE } = require("../../scripts/plugin/pack") as {
  bundle: (outfile: string, opts: { parts: true }) => Promise<Record<string, BundlePart>>;
  bundleLoader: (outfile: string, build: LoaderBuild) => Promise<void>;
  BUNDLE: string;
};

const API = { apiUrl: "http://127.0.0.1:9/public/api/v1", apiKey: "key", projectId: "p1" };
let built: string;
/** The bundle's parts, by module (zod, undici). */
let parts: Record<string, BundlePart>;
/** The cache file name of the script of SHA-256 `sha256` on this V8. */
const cacheOf = (sha256: string): string =>
  `${sha256.slice(0, 16)}-v8-${process.versions.v8.replace(/[^0-9A-Za-z.-]/g, "_")}-${process.arch}.bin`;
let bundleSha256: string;

/** A plugin folder as the engine unpacks the tarball: the loader and the bundle (no launcher: the Node.js here is recent enough). */
function pluginDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-code-cache-"));
  for (const f of fs.readdirSync(built)) fs.copyFileSync(path.join(built, f), path.join(dir, f));
  return dir;
}

/** Starts the plugin from the loader in `dir`, configures it and checks a Service, as the engine's first calls do. */
async function configureAndCheck(dir: string, env: Record<string, string> = {}): Promise<NativePlugin> {
  const plugin = await NativePlugin.start(env, { entry: path.join(dir, "pulumi-resource-clouddb.js") });
  await plugin.configure(API);
  const checked = await plugin.check(urnOf("Service", "db"), { name: "orders" });
  expect(checked.failures).toEqual([]);
  expect(checked.inputs.name).toBe("orders");
  return plugin;
}

beforeAll(async () => {
  built = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-loader-build-"));
  parts = await bundle(path.join(built, BUNDLE), { parts: true });
  bundleSha256 = createHash("sha256")
    .update(fs.readFileSync(path.join(built, BUNDLE)))
    .digest("hex");
  await bundleLoader(path.join(built, "pulumi-resource-clouddb.js"), {
    minNode: "20.18.1",
    bundle: BUNDLE,
    bundleSha256,
    launcher: "pulumi-resource-clouddb",
    parts,
  });
}, 180_000);

afterAll(() => fs.rmSync(built, { recursive: true, force: true }));

describe("the release's loader keeps V8's code cache of the plugin", () => {
  it("writes it once the first Check is answered, and a later process starts from it without writing it again", async () => {
    const dir = pluginDir();
    const cache = path.join(dir, "code-cache");
    try {
      const first = await NativePlugin.start({}, { entry: path.join(dir, "pulumi-resource-clouddb.js") });
      try {
        await first.configure(API);
        await new Promise((r) => setTimeout(r, 300));
        expect(cacheFiles(cache)).toEqual({}); // a Configure alone writes nothing
        expect((await first.check(urnOf("Service", "db"), { name: "orders" })).failures).toEqual([]);
        const files = await written(cache);
        // The bundle's, the provider's part's and zod's part's (the provider's schemas, which a Check ran); undici's part never ran.
        expect(Object.keys(files).sort()).toEqual(
          [cacheOf(bundleSha256), cacheOf(parts.provider.sha256), cacheOf(parts.zod.sha256)].sort(),
        );
      } finally {
        await first.close();
      }
      const before = cacheFiles(cache);
      const second = await configureAndCheck(dir);
      await new Promise((r) => setTimeout(r, 500));
      await second.close();
      expect(cacheFiles(cache)).toEqual(before);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it("replaces a cache V8 refuses (here a damaged one), and the plugin starts all the same", async () => {
    const dir = pluginDir();
    const cache = path.join(dir, "code-cache");
    try {
      const first = await configureAndCheck(dir);
      await written(cache);
      await first.close();
      const name = cacheOf(bundleSha256);
      fs.writeFileSync(path.join(cache, name), Buffer.alloc(4096, 7));
      const damaged = cacheFiles(cache);
      const plugin = await configureAndCheck(dir);
      try {
        const files = await (async () => {
          for (let i = 0; i < 100 && cacheFiles(cache)[name] === damaged[name]; i++) await new Promise((r) => setTimeout(r, 100));
          return cacheFiles(cache);
        })();
        expect(Object.keys(files).sort()).toEqual(Object.keys(damaged).sort());
        expect(files[name]).not.toBe(damaged[name]);
        expect(fs.statSync(path.join(cache, name)).size).toBeGreaterThan(100_000);
      } finally {
        await plugin.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it("keeps it in CLOUDDB_PLUGIN_CACHE_DIR when the plugin's folder cannot take it", async () => {
    const dir = pluginDir();
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-user-cache-"));
    try {
      fs.writeFileSync(path.join(dir, "code-cache"), "a file where the folder would be");
      const first = await configureAndCheck(dir, { CLOUDDB_PLUGIN_CACHE_DIR: elsewhere });
      expect(Object.keys(await written(path.join(elsewhere, "code-cache")))).toHaveLength(3);
      await first.close();
      const before = cacheFiles(path.join(elsewhere, "code-cache"));
      const plugin = await configureAndCheck(dir, { CLOUDDB_PLUGIN_CACHE_DIR: elsewhere });
      await new Promise((r) => setTimeout(r, 500));
      await plugin.close();
      expect(cacheFiles(path.join(elsewhere, "code-cache"))).toEqual(before);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  }, 180_000);

  /** A plugin folder whose `code-cache` cannot be made, and a CLOUDDB_PLUGIN_CACHE_DIR that cannot either (a read-only home): the environment of such a start, with TMPDIR a fresh folder. */
  function nowhereWritable(): { dir: string; tmp: string; env: Record<string, string>; root: string } {
    const dir = pluginDir();
    fs.writeFileSync(path.join(dir, "code-cache"), "a file where the folder would be");
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-tmpdir-"));
    const env = { CLOUDDB_PLUGIN_CACHE_DIR: path.join(dir, "code-cache", "home-cache"), TMPDIR: tmp };
    return { dir, tmp, env, root: path.join(tmp, `clouddb-plugin-${process.getuid?.()}`) };
  }

  it("keeps it in this user's own folder under the temporary folder when neither the plugin's folder nor CLOUDDB_PLUGIN_CACHE_DIR can take it", async () => {
    const { dir, tmp, env, root } = nowhereWritable();
    try {
      const first = await configureAndCheck(dir, env);
      expect(Object.keys(await written(path.join(root, "code-cache")))).toHaveLength(3);
      await first.close();
      expect(fs.statSync(root).mode & 0o777).toBe(0o700);
      const before = cacheFiles(path.join(root, "code-cache"));
      const plugin = await configureAndCheck(dir, env);
      await new Promise((r) => setTimeout(r, 500));
      await plugin.close();
      expect(cacheFiles(path.join(root, "code-cache"))).toEqual(before); // read, as V8 took it: not written again
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }, 180_000);

  it.each([
    ["other users may write to it", (root: string) => (fs.mkdirSync(root), fs.chmodSync(root, 0o777))],
    ["it is a link", (root: string) => fs.symlinkSync(fs.mkdtempSync(`${root}-target-`), root)],
  ])(
    "never reads or writes a cache in that folder where %s, and the plugin starts all the same",
    async (_, make) => {
      const { dir, tmp, env, root } = nowhereWritable();
      try {
        make(root);
        // A cache planted where the plugin would look: it must not be read (V8 checks only the source's length).
        fs.mkdirSync(path.join(root, "code-cache"), { recursive: true });
        fs.writeFileSync(path.join(root, "code-cache", cacheOf(bundleSha256)), Buffer.alloc(4096, 7));
        const planted = cacheFiles(path.join(root, "code-cache"));
        const plugin = await configureAndCheck(dir, env);
        await new Promise((r) => setTimeout(r, 1000));
        await plugin.close();
        expect(cacheFiles(path.join(root, "code-cache"))).toEqual(planted); // neither replaced (as a refused cache would be) nor joined by others
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
        fs.rmSync(tmp, { recursive: true, force: true });
      }
    },
    180_000,
  );
});
