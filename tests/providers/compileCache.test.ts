/**
 * The compile cache the provider turns on is written although the engine ends its plugin
 * processes with a signal (Node writes it only at a normal exit unless told to): a later
 * process then loads the provider compiled. Needs `module.flushCompileCache` (Node 22.10+).
 */
import * as fs from "fs";
import * as nodeModule from "module";
import * as os from "os";
import * as path from "path";
import { PluginHost, REPO_ROOT } from "../../harness";
import { providerText } from "../../sdk/trampoline";

const flushes = typeof (nodeModule as { flushCompileCache?: unknown }).flushCompileCache === "function";
const suite = flushes ? describe : describe.skip;
const title = `the compile cache of a plugin process the engine ends${flushes ? "" : ` (skipped: Node ${process.version} has no module.flushCompileCache; on Node 20 the provider runs without a compile cache)`}`;

/** Every file under `dir`. */
function filesUnder(dir: string): string[] {
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => e.name)
    : [];
}

suite(title, () => {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-compile-cache-"));
  afterAll(() => fs.rmSync(cache, { recursive: true, force: true }));

  it("is on disk after the engine ended the process, holding what the provider loaded", async () => {
    const plugin = new PluginHost({ project: "cache", cwd: REPO_ROOT, env: { NODE_COMPILE_CACHE: cache } });
    await plugin.start();
    try {
      await plugin.configure({ "clouddb:apiUrl": "http://127.0.0.1:9/public/api/v1", "clouddb:apiKey": "k", "clouddb:projectId": "p" }, []);
      await plugin.check(
        "urn:pulumi:s::cache::pulumi-nodejs:dynamic/clouddb:Vpc::net",
        {},
        { __provider: providerText("vpc"), name: "n", cidr: "10.0.0.0/16", regionCode: "us-east-1" },
      );
    } finally {
      await plugin.close();
    }
    expect(filesUnder(cache).length).toBeGreaterThan(50);
  });
});
