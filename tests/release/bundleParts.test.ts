/**
 * The bundle's parts on the Node.js route (scripts/plugin/pack.js `PARTS`, provider/native/loader.ts):
 * the provider (our modules it alone needs), zod, undici and gRPC's client side
 * (scripts/plugin/grpc-server-only.js) are scripts of their own beside the bundle, which the loader runs when the plugin first uses them. A start and a Check never run undici's (the API client is loaded at
 * the first request to the API), and the first Create after them, against the emulator over
 * real HTTP, runs it and works; its code cache is written once that Create is answered. A part
 * that cannot be loaded is the error of each request that needs it, naming its file, and
 * leaves the requests that do not need it answered. gRPC's client side runs at the first message
 * to the engine's log, which reaches the engine; a start, a Configure and a Check never run it.
 */
import { createHash } from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ClouddbClient } from "../../provider/client";
import type { BundlePart, LoaderBuild } from "../../provider/native/loader";
import { NativePlugin, RpcError, urnOf } from "../native/support";
import { cacheNames, written } from "./cacheFiles";

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

/** Runs `run` in a plugin folder of its own ({@link pluginDir}), removed after. */
async function inPluginDir(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = pluginDir();
  try {
    await run(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs `run` on the plugin started from a folder of its own, which `prepare` alters first; ends the plugin and removes the folder after. */
async function withPlugin(prepare: (dir: string) => void, run: (plugin: NativePlugin, dir: string) => Promise<void>): Promise<void> {
  await inPluginDir(async (dir) => {
    prepare(dir);
    const plugin = await started(dir);
    try {
      await run(plugin, dir);
    } finally {
      await plugin.close();
    }
  });
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
  it("are the provider, zod, undici and gRPC's client side, scripts of their own beside the bundle, which holds none of them", () => {
    expect(Object.keys(parts).sort()).toEqual(["grpc-client", "provider", "undici", "zod"]);
    const main = fs.readFileSync(path.join(built, BUNDLE), "utf8");
    const undici = fs.readFileSync(path.join(built, parts.undici.file), "utf8");
    // undici's HTTP parser and zod's error class are in their parts, not in the bundle.
    expect(undici).toContain("llhttp");
    expect(main).not.toContain("llhttp");
    expect(fs.readFileSync(path.join(built, parts.zod.file), "utf8")).toContain("ZodError");
    expect(main).not.toContain("ZodError");
    // gRPC's retries and load balancers (its client side) are in their part; its server in the bundle.
    const client = fs.readFileSync(path.join(built, parts["grpc-client"].file), "utf8");
    for (const clientSide of ["grpc-previous-rpc-attempts", "pick_first"]) {
      expect(client).toContain(clientSide);
      expect(main).not.toContain(clientSide);
    }
    expect(main).toContain("node_modules/@grpc/grpc-js/build/src/server.js");
    // The part takes gRPC's server modules (one instance: one registry of resolvers) from the bundle.
    expect(client).toContain('.sharedModule")]("node_modules/@grpc/grpc-js/build/src/server.js")');
  });

  it("serve a start, a Configure and a Check without gRPC's client side, and load it at the first message to the engine's log, which reaches the engine", async () => {
    await withPlugin(
      (dir) => fs.renameSync(path.join(dir, parts["grpc-client"].file), path.join(dir, "aside.js")),
      async (plugin, dir) => {
        const cache = path.join(dir, "code-cache");
        const urn = urnOf("Service", "told");
        expect((await plugin.check(urnOf("Service", "plain"), { name: "plain" })).failures).toEqual([]);
        // Its file back: the adoption's message to the engine's log (at its Check) is the first use of gRPC's client.
        fs.renameSync(path.join(dir, "aside.js"), path.join(dir, parts["grpc-client"].file));
        const api = new ClouddbClient({ apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId });
        const legacy = await api.perform("createService", { body: { name: "told", cpu_millis: "500", memory_gbs: "2" } });
        const { inputs, failures } = await plugin.check(urn, { adoptId: legacy.service_id });
        expect(failures).toEqual([]);
        const made = await plugin.create(urn, inputs);
        expect(made.outs.__adopted).toBe(true);
        expect(plugin.logged.filter((l) => l.urn === urn).map((l) => l.message)).toEqual(
          expect.arrayContaining([expect.stringMatching(new RegExp(`adopts Service ${legacy.service_id} \\(adoptId\\)`))]),
        );
        expect(plugin.stderr).not.toMatch(/adopts Service/);
        expect(Object.keys(await written(cache, 5))).toContain(cacheOf(parts["grpc-client"].sha256));
      },
    );
  }, 180_000);

  it("make gRPC's client side, when its part cannot be loaded, an error naming its file on standard error, the message kept there and the Create answered", async () => {
    await withPlugin(
      (dir) => fs.rmSync(path.join(dir, parts["grpc-client"].file)),
      async (plugin) => {
        const urn = urnOf("Service", "untold");
        const api = new ClouddbClient({ apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId });
        const legacy = await api.perform("createService", { body: { name: "untold", cpu_millis: "500", memory_gbs: "2" } });
        const { inputs } = await plugin.check(urn, { adoptId: legacy.service_id });
        const made = await plugin.create(urn, inputs);
        expect(made.outs.__adopted).toBe(true);
        expect(plugin.stderr).toContain(
          `cannot reach the engine's log: pulumi-resource-clouddb: cannot load ${parts["grpc-client"].file} (the module grpc-client), a part of the plugin's bundle beside it`,
        );
        expect(plugin.stderr).toMatch(new RegExp(`adopts Service ${legacy.service_id} \\(adoptId\\)`));
      },
    );
  }, 180_000);

  it("hold one copy of each module of our own: the provider's part takes those it shares with the bundle (the secrets redact knows) from it", () => {
    const main = fs.readFileSync(path.join(built, BUNDLE), "utf8");
    const provider = fs.readFileSync(path.join(built, parts.provider.file), "utf8");
    // provider/client/redact.ts's own names: its module is in the bundle, and handed to the part.
    expect(main).toContain("MIN_BASE64_LENGTH");
    expect(provider).not.toContain("MIN_BASE64_LENGTH");
    expect(provider).toContain('"dist/provider/client/redact.js"');
  });

  it("run undici's at the first Create after a Check that never used it, which works, and keep its code cache once that Create is answered", async () => {
    await withPlugin(
      () => undefined,
      async (plugin, dir) => {
        const cache = path.join(dir, "code-cache");
        const urn = urnOf("Service", "parts");
        const { inputs, failures } = await plugin.check(urn, { name: "parts" });
        expect(failures).toEqual([]);
        // The bundle, the provider's part and zod's (the provider's schemas) ran; undici's did not.
        const bundleSha256 = createHash("sha256")
          .update(fs.readFileSync(path.join(dir, BUNDLE)))
          .digest("hex");
        expect(Object.keys(await written(cache, 3))).toEqual([bundleSha256, parts.provider.sha256, parts.zod.sha256].map(cacheOf).sort());
        await new Promise((r) => setTimeout(r, 300));
        expect(cacheNames(cache)).not.toContain(cacheOf(parts.undici.sha256));
        const made = await plugin.create(urn, inputs);
        expect(made.id).toMatch(/\S/);
        expect(made.outs.name).toBe("parts");
        expect(Object.keys(await written(cache, 4))).toContain(cacheOf(parts.undici.sha256));
      },
    );
  }, 180_000);

  it("make a part that cannot be loaded the error of each request that needs it, naming its file, and answer the others", async () => {
    await withPlugin(
      (dir) => fs.rmSync(path.join(dir, parts.undici.file)),
      async (plugin) => {
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
      },
    );
  }, 180_000);

  it("end the start as a failed one, naming the part, when the provider's cannot be loaded", async () => {
    await inPluginDir(async (dir) => {
      fs.writeFileSync(path.join(dir, parts.zod.file), "this is not JavaScript (");
      const plugin = await NativePlugin.start({}, { entry: path.join(dir, "pulumi-resource-clouddb.js") });
      const failed = await plugin.configure({ apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId }).then(
        () => undefined,
        (err: unknown) => err,
      );
      await plugin.close();
      expect(failed).toBeInstanceOf(Error);
      expect(plugin.stderr).toContain(`cannot load ${parts.zod.file} (the module zod), a part of the plugin's bundle beside it`);
    });
  }, 180_000);
});
