/**
 * The bundle's parts on the Node.js route (scripts/plugin/pack.js `PARTS`, provider/native/loader.ts):
 * the provider (our modules it alone needs), zod and undici are scripts of their own beside the
 * bundle, which the loader runs when the plugin first uses them. A start and a Check never run undici's (the API client is loaded at
 * the first request to the API), and the first Create after them, against the emulator over
 * real HTTP, runs it and works; its code cache is written once that Create is answered. A part
 * that cannot be loaded is the error of each request that needs it, naming its file, and
 * leaves the requests that do not need it answered.
 */
import { createHash } from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import type { BundlePart, LoaderBuild } from "../../provider/native/loader";
import { NativePlugin, RpcError, urnOf } from "../native/support";

const { bundle, bundleLoader, BUNDLE } = require("../../scripts/plugin/pack") as {
  bundle: (outfile: string, opts: { parts: true }) => Promise<Record<string, BundlePart>>;
  bundleLoader: (outfile: string, build: LoaderBuild) => Promise<void>;
  BUNDLE: string;
};

let built: string;
let parts: Record<string, BundlePart>;
let emu: RunningEmulator;

/** The code cache file name of the script of SHA-256 `sha256` on this V8 (provider/native/loader.ts `cacheName`). */
const cacheOf = (sha256: string): string =>
  `${sha256.slice(0, 16)}-v8-${process.versions.v8.replace(/[^0-9A-Za-z.-]/g, "_")}-${process.arch}.bin`;

/** The cache files in `dir` (none if it is missing). */
const cacheFiles = (dir: string): string[] => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);

/** Waits up to 10 s for `dir` to hold `count` cache files; their names. */
async function written(dir: string, count: number): Promise<string[]> {
  for (let i = 0; i < 100 && cacheFiles(dir).length < count; i++) await new Promise((r) => setTimeout(r, 100));
  return cacheFiles(dir);
}

/** A plugin folder as the engine unpacks the tarball: the loader, the bundle and its parts. */
function pluginDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-parts-"));
  for (const f of fs.readdirSync(built)) fs.copyFileSync(path.join(built, f), path.join(dir, f));
  return dir;
}

/** Starts the plugin from the loader in `dir`, configured against the emulator. */
async function started(dir: string): Promise<NativePlugin> {
  const plugin = await NativePlugin.start({}, { entry: path.join(dir, "pulumi-resource-clouddb.js") });
  await plugin.configure({ apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId, pollInterval: "20ms" });
  return plugin;
}

beforeAll(async () => {
  built = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-parts-build-"));
  parts = await bundle(path.join(built, BUNDLE), { parts: true });
  const bundleSha256 = createHash("sha256")
    .update(fs.readFileSync(path.join(built, BUNDLE)))
    .digest("hex");
  await bundleLoader(path.join(built, "pulumi-resource-clouddb.js"), {
    minNode: "20.18.1",
    bundle: BUNDLE,
    bundleSha256,
    launcher: "pulumi-resource-clouddb",
    parts,
  });
  emu = await startEmulator({ port: 0, clockScale: 0.05 });
}, 180_000);

afterAll(async () => {
  await emu?.close();
  fs.rmSync(built, { recursive: true, force: true });
});

describe("the bundle's parts on the Node.js route", () => {
  it("are the provider, zod and undici, scripts of their own beside the bundle, which holds neither package", () => {
    expect(Object.keys(parts).sort()).toEqual(["provider", "undici", "zod"]);
    const main = fs.readFileSync(path.join(built, BUNDLE), "utf8");
    const undici = fs.readFileSync(path.join(built, parts.undici.file), "utf8");
    // undici's HTTP parser and zod's error class are in their parts, not in the bundle.
    expect(undici).toContain("llhttp");
    expect(main).not.toContain("llhttp");
    expect(fs.readFileSync(path.join(built, parts.zod.file), "utf8")).toContain("ZodError");
    expect(main).not.toContain("ZodError");
  });

  it("hold one copy of each module of our own: the provider's part takes those it shares with the bundle (the secrets redact knows) from it", () => {
    const main = fs.readFileSync(path.join(built, BUNDLE), "utf8");
    const provider = fs.readFileSync(path.join(built, parts.provider.file), "utf8");
    // provider/client/redact.ts's own names: its module is in the bundle, and handed to the part.
    expect(main).toContain("MIN_BASE64_LENGTH");
    expect(provider).not.toContain("MIN_BASE64_LENGTH");
    expect(provider).toContain('"dist/provider/client/redact.js"');
  });

  it("run undici's at the first Create after a Check that never used it, which works, and keep its code cache once that Create is answered", async () => {
    const dir = pluginDir();
    const cache = path.join(dir, "code-cache");
    try {
      const plugin = await started(dir);
      try {
        const urn = urnOf("Service", "parts");
        const { inputs, failures } = await plugin.check(urn, { name: "parts" });
        expect(failures).toEqual([]);
        // The bundle, the provider's part and zod's (the provider's schemas) ran; undici's did not.
        const bundleSha256 = createHash("sha256")
          .update(fs.readFileSync(path.join(dir, BUNDLE)))
          .digest("hex");
        expect(await written(cache, 3)).toEqual([bundleSha256, parts.provider.sha256, parts.zod.sha256].map(cacheOf).sort());
        await new Promise((r) => setTimeout(r, 300));
        expect(cacheFiles(cache)).not.toContain(cacheOf(parts.undici.sha256));
        const made = await plugin.create(urn, inputs);
        expect(made.id).toMatch(/\S/);
        expect(made.outs.name).toBe("parts");
        expect(await written(cache, 4)).toContain(cacheOf(parts.undici.sha256));
      } finally {
        await plugin.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it("make a part that cannot be loaded the error of each request that needs it, naming its file, and answer the others", async () => {
    const dir = pluginDir();
    try {
      fs.rmSync(path.join(dir, parts.undici.file));
      const plugin = await started(dir);
      try {
        const urn = urnOf("Service", "no-undici");
        const { inputs, failures } = await plugin.check(urn, { name: "no-undici" });
        expect(failures).toEqual([]);
        for (let i = 0; i < 2; i++) {
          const e = await plugin.create(urn, inputs).then(
            () => undefined,
            (err: unknown) => err,
          );
          expect(e).toBeInstanceOf(RpcError);
          expect((e as Error).message).toContain(
            `cannot load ${parts.undici.file} (the module undici), a part of the plugin's bundle beside it`,
          );
          expect((e as Error).message).not.toContain(emu.pat);
        }
        expect(plugin.stderr).not.toContain(emu.pat);
      } finally {
        await plugin.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it("end the start as a failed one, naming the part, when the provider's cannot be loaded", async () => {
    const dir = pluginDir();
    try {
      fs.writeFileSync(path.join(dir, parts.zod.file), "this is not JavaScript (");
      const plugin = await NativePlugin.start({}, { entry: path.join(dir, "pulumi-resource-clouddb.js") });
      const failed = await plugin.configure({ apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId }).then(
        () => undefined,
        (err: unknown) => err,
      );
      await plugin.close();
      expect(failed).toBeInstanceOf(Error);
      expect(plugin.stderr).toContain(`cannot load ${parts.zod.file} (the module zod), a part of the plugin's bundle beside it`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
