#!/usr/bin/env node
// @ts-check
/**
 * `npm run plugin:pack [-- --target <os>-<arch>,...|all --out <dir>]`: the native plugin as
 * users download it, two tarballs per target:
 *
 * - `pulumi-resource-clouddb-v<version>-<target>.tar.gz`, the one the engine downloads
 *   (`pluginDownloadURL`) or `pulumi plugin install --file` takes: the launcher
 *   `pulumi-resource-clouddb` (`.exe` on Windows; launcher.js), the loader
 *   `pulumi-resource-clouddb.js` (provider/native/loader.ts: checks the Node.js, runs the
 *   bundle from V8's code cache), the bundled plugin `pulumi-resource-clouddb.bundle.js` (the
 *   compiled plugin and every module it loads, by esbuild, a dev dependency for this), its
 *   parts `pulumi-resource-clouddb.<module>.js` (zod, undici, gRPC's client side: scripts the loader runs when
 *   the plugin first uses them, {@link PARTS}), the LICENSE; for `linux-amd64`, `code-cache/`:
 *   the loader's V8 code caches on npm's Node.js 24 and 22, made by running the plugin once on
 *   each (scripts/plugin/warm-cache.js), which a first start on that Node.js compiles from. The launcher runs the loader on the machine's Node.js and, where there is none
 *   (or the loader finds it older than 20.18.1), the single-file build below, which it
 *   downloads once from the same release, checked against the SHA-256 written into it.
 * - `pulumi-resource-clouddb-standalone-v<version>-<target>.tar.gz`: the single-file build, a
 *   Node.js 24 single-executable application needing nothing installed (standalone.js), for
 *   every target the registry has Node.js 24 for (all but `darwin-arm64`).
 *
 * Targets: `linux-amd64` (the default, built and started here), `linux-arm64`, `darwin-amd64`,
 * `darwin-arm64`, `windows-amd64`; `all` is every one. Needs `go` (the launcher) and
 * `npm run build` first. A macOS binary must be signed again (`codesign --sign - <binary>`)
 * on a Mac before it runs.
 */
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const { proxyStandIn } = require("./standIn");
const { buildLauncher } = require("./launcher");
const { TARGETS, nodeBinary } = require("./node-binaries");
const { commandLine, say, tarball } = require("./run");
const { packStandalone } = require("./standalone");
const { sha256File } = require("../release/sums");
const { eagerFactories } = require("./eager-factories");
const { grpcServerOnly, grpcClientSource, GRPC_CLIENT } = require("./grpc-server-only");
const { warmCodeCaches, CODE_CACHE, SHIPPED_NODE_MAJORS } = require("./warm-cache");

const root = path.resolve(__dirname, "..", "..");
/** @typedef {import("./node-binaries").Target} Target */

/** The bundle's file name in the engine's tarball, beside the loader `pulumi-resource-clouddb.js`. */
const BUNDLE = "pulumi-resource-clouddb.bundle.js";

/**
 * esbuild's plugin leaving out `@grpc/proto-loader` and protobufjs, which `@grpc/grpc-js` loads
 * only for channelz and ORCA load reports, from `.proto` files beside its own install (there
 * are none beside a bundle, so those never worked in it): a module that says so if required.
 * @type {import("esbuild").Plugin}
 */
const withoutProtoLoader = {
  name: "without-proto-loader",
  setup(build) {
    build.onResolve({ filter: /^(@grpc\/proto-loader|protobufjs)(\/|$)/ }, (args) => ({ path: args.path, namespace: "left-out" }));
    build.onLoad({ filter: /.*/, namespace: "left-out" }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`${args.path} is not in the plugin's bundle (gRPC's channelz and ORCA are not served)`)});`,
      loader: "js",
    }));
  },
};

/**
 * esbuild's plugin keeping zod's English locale alone in the bundle: the provider uses no other
 * (zod's schemas load English themselves, from its own file). zod's locale index requires all
 * 64 at once, and ends by calling each export's getter to freeze it (its "seal"), which in a
 * bundle loaded every locale even where the requires were made lazy: 0.3 MB of the bundle,
 * compiled and run at every start. In the bundle the index is replaced: `en` a getter of
 * English's file, every other name a getter that throws, saying the locale is not in the
 * plugin's bundle (an installed package keeps them all, loaded on use:
 * `provider/framework/lazyZodLocales.ts`). An index not laid out as expected is bundled as it is.
 * @type {import("esbuild").Plugin}
 */
const englishZodLocaleOnly = {
  name: "english-zod-locale-only",
  setup(build) {
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.cjs$/ }, (args) => {
      const text = fs.readFileSync(args.path, "utf8");
      /** @type {Map<string, string>} */
      const files = new Map([...text.matchAll(/var (\w+) = require\("(\.\/[\w-]+\.cjs)"\);/g)].map(([, v, f]) => [v, f]));
      const names = [
        ...text.matchAll(
          /Object\.defineProperty\(exports, "(\w+)", \{ enumerable: true, get: function \(\) \{ return __importDefault\((\w+)\)/g,
        ),
      ].map(([, name, variable]) => ({ name, file: files.get(variable) }));
      const en = names.find((n) => n.name === "en");
      if (files.size === 0 || names.length !== files.size || en?.file !== "./en.cjs") return undefined;
      const getters = names.map(({ name }) =>
        name === "en"
          ? `Object.defineProperty(exports, "en", { enumerable: true, get: () => { const m = require("./en.cjs"); return m && m.__esModule ? m.default : m; } });`
          : `Object.defineProperty(exports, ${JSON.stringify(name)}, { enumerable: true, get: () => { throw new Error(${JSON.stringify(
              `zod's locale ${name} is not in the plugin's bundle (it uses English alone)`,
            )}); } });`,
      );
      return {
        contents: ['"use strict";', 'Object.defineProperty(exports, "__esModule", { value: true });', ...getters].join("\n"),
        loader: "js",
      };
    });
  },
};

/**
 * The bundle's parts on the Node.js route, each a script of its own beside the bundle, which
 * the loader runs when the plugin first uses it (provider/native/loader.ts, `PART_HOOK`), so an
 * uncached first start compiles none before it needs it: the packages of PARTS, each whole
 * (nothing else holds a copy of it, so its state, zod's registry and settings, undici's pools,
 * stays one): zod (the provider's schemas, loaded right after the port), undici (at the first
 * request to the API); and {@link PROVIDER}, the modules of our own that the provider alone
 * needs (loaded right after the port), which takes the modules it shares with the bundle from
 * the bundle ({@link sharedModules}).
 */
const PARTS = ["zod", "undici"];

/** The part of our own modules the bundle loads after its port: the provider and what it alone needs. */
const PROVIDER = "provider";

/** The global symbol's name under which the bundle hands a part the modules they share. */
const SHARED_HOOK = "clouddb.plugin.sharedModule";

/**
 * esbuild's plugin making each module of `shared` (absolute paths: the bundle's own) a stand-in
 * handing on the bundle's instance of it, so a part holds no second copy of a module the bundle
 * has (one instance, one state: the secrets `redact` knows, the error brands); the keys it
 * used are added to `used`.
 * @param {Set<string>} shared
 * @param {Map<string, string>} used key (path relative to the repository) to absolute path
 * @returns {import("esbuild").Plugin}
 */
const sharedModules = (shared, used) => ({
  name: "shared-modules",
  setup(build) {
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData?.shared || args.namespace !== "file" || new RegExp(`^(${PARTS.join("|")})$`).test(args.path)) return undefined;
      const r = await build.resolve(args.path, {
        resolveDir: args.resolveDir,
        kind: args.kind,
        importer: args.importer,
        pluginData: { shared: true },
      });
      if (r.errors.length > 0 || r.external || r.namespace !== "file" || !shared.has(r.path)) return undefined;
      const key = path.relative(root, r.path).split(path.sep).join("/");
      used.set(key, r.path);
      return { path: key, namespace: "shared" };
    });
    build.onLoad({ filter: /.*/, namespace: "shared" }, (args) => ({
      contents: `module.exports = globalThis[Symbol.for(${JSON.stringify(SHARED_HOOK)})](${JSON.stringify(args.path)});`,
      loader: "js",
    }));
  },
});

/** A part's file name, beside the bundle. @param {string} name */
const partFile = (name) => BUNDLE.replace(/\.bundle\.js$/, `.${name}.js`);

/**
 * esbuild's plugin putting, for each module of {@link PARTS}, a stand-in into the bundle: an
 * object whose properties are those of the part's exports, which the loader runs at their
 * first use (each use of a part that cannot be loaded fails with the loader's error naming it).
 * @type {import("esbuild").Plugin}
 */
const partsStandIns = {
  name: "parts-stand-ins",
  setup(build) {
    const filter = new RegExp(`^(${PARTS.join("|")})$`);
    build.onResolve({ filter }, (args) => ({ path: args.path, namespace: "part" }));
    // The provider (provider/native/main.ts loads it after the port): a part of our own modules.
    build.onResolve({ filter: /^\.\/provider$/ }, (args) =>
      /[\\/]provider[\\/]native[\\/]main\.js$/.test(args.importer) ? { path: PROVIDER, namespace: "part" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "part" }, (args) => ({
      contents: `"use strict";
const load = () => {
  const hook = globalThis[Symbol.for("clouddb.plugin.loadPart")];
  if (typeof hook !== "function") throw new Error(${JSON.stringify(`${args.path} is a part of the plugin's bundle, which its loader alone runs`)});
  return hook(${JSON.stringify(args.path)});
};
${proxyStandIn("load()")}`,
      loader: "js",
    }));
  },
};

/**
 * esbuild's plugin leaving out the SDK's runtime: sdk/lookups.ts loads it (`@pulumi/pulumi`
 * itself) only for a program's own configuration, which the plugin never reads (it passes its
 * provider's): left out, with the 10 MB it would bring (TypeScript, npm's libraries). The
 * protocol's stubs are subpaths, kept.
 * @type {import("esbuild").Plugin}
 */
const noSdkRuntime = {
  name: "no-sdk-runtime",
  setup(build) {
    build.onResolve({ filter: /^@pulumi\/pulumi$/ }, (args) => ({ path: args.path, external: true }));
  },
};

/**
 * esbuild's options shared by the bundle and its parts, for Node.js 20 and later.
 * @param {string} contents the script's source (requires resolved from the repository)
 * @param {string} outfile
 * @param {import("esbuild").Plugin[]} plugins
 * @returns {import("esbuild").BuildOptions}
 */
const bundleOptions = (contents, outfile, plugins) => ({
  stdin: { contents, resolveDir: root, loader: "js" },
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  minify: true,
  legalComments: "eof",
  outfile,
  logLevel: "error",
  plugins,
});

/**
 * Bundles the compiled plugin and what it loads into one script, for Node.js 20 and later.
 * @param {string} outfile
 * @param {{ lean?: boolean, parts?: boolean }} [opts] `lean: false` bundles as the plugin was
 *   bundled before its launcher (with gRPC's proto loader and all of zod's locales), for the
 *   bench's figures of that build; `parts: true` bundles the modules of {@link PARTS} into
 *   scripts of their own beside `outfile` (the Node.js route; the single-file build takes one
 *   script)
 * @returns {Promise<Record<string, import("../../provider/native/loader").BundlePart>>} the parts
 *   written, by module (none without `parts`)
 */
async function bundle(outfile, opts = {}) {
  const esbuild = require("esbuild");
  const lean = opts.lean === false ? [] : [withoutProtoLoader, englishZodLocaleOnly];
  /** @param {string} registry the first lines, handing the provider's part the modules it shares with the bundle */
  const main = async (registry) =>
    (
      await esbuild.build({
        // `main()` called from here: a SEA's main script is no `require.main` to test against.
        ...bundleOptions(`${registry}require("./dist/provider/native/main.js").main();`, outfile, [
          noSdkRuntime,
          ...(opts.parts ? [partsStandIns, grpcServerOnly] : []),
          ...lean,
        ]),
        metafile: true,
      })
    ).metafile;
  const meta = await main("");
  /** @type {Record<string, import("../../provider/native/loader").BundlePart>} */
  const parts = {};
  if (!opts.parts) return parts;
  const dir = path.dirname(outfile);
  const shared = new Set(
    Object.keys(/** @type {import("esbuild").Metafile} */ (meta).inputs)
      .filter((k) => !/^[\w-]+:/.test(k))
      .map((k) => path.resolve(k)),
  );
  /** @type {Map<string, string>} */
  const used = new Map();
  const providerFile = partFile(PROVIDER);
  await esbuild.build(
    bundleOptions('module.exports = require("./dist/provider/native/provider.js");', path.join(dir, providerFile), [
      sharedModules(shared, used),
      noSdkRuntime,
      partsStandIns,
      ...lean,
    ]),
  );
  // gRPC's client side (grpc-server-only.js); then the bundle again, handing the parts the modules they share (only its first lines differ).
  await esbuild.build(bundleOptions(grpcClientSource(), path.join(dir, partFile(GRPC_CLIENT)), [sharedModules(shared, used), ...lean]));
  // Sorted: esbuild resolves in parallel, so the order `used` was filled in varies from build to build (and with it the bundle's bytes).
  const entries = [...used]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, abs]) => `${JSON.stringify(key)}: () => require(${JSON.stringify(abs)})`);
  await main(
    `const shared = { ${entries.join(", ")} }; globalThis[Symbol.for(${JSON.stringify(SHARED_HOOK)})] = (key) => shared[key]();\n`,
  );
  for (const name of PARTS)
    await esbuild.build(bundleOptions(`module.exports = require(${JSON.stringify(name)});`, path.join(dir, partFile(name)), lean));
  // Each script's module wrappers compiled with it, not parsed twice (scripts/plugin/eager-factories.js); then their sums.
  eagerFactories(outfile);
  for (const name of [PROVIDER, GRPC_CLIENT, ...PARTS]) {
    const file = partFile(name);
    eagerFactories(path.join(dir, file));
    parts[name] = { file, sha256: sha256File(path.join(dir, file)) };
  }
  return parts;
}

/**
 * Bundles the loader (provider/native/loader.ts) with the values of this build: what the
 * launcher runs on the machine's Node.js. Its syntax is lowered for old Node.js releases, so
 * that on one older than `minNode` it still starts and hands over to the single-file build.
 * @param {string} outfile
 * @param {import("../../provider/native/loader").LoaderBuild} build
 */
async function bundleLoader(outfile, build) {
  const esbuild = require("esbuild");
  await esbuild.build({
    stdin: { contents: `require("./dist/provider/native/loader.js").start(${JSON.stringify(build)});`, resolveDir: root, loader: "js" },
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node10",
    minify: true,
    legalComments: "eof",
    outfile,
    logLevel: "error",
  });
}

/** What package.json and schema.json say of the plugin: its version, the Node.js it needs, where it is downloaded from. */
function pluginFacts() {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  const schema = JSON.parse(fs.readFileSync(path.join(root, "dist", "schema.json"), "utf8"));
  const minNode = /^>=\s*(\d+\.\d+\.\d+)$/.exec(String(pkg.engines?.node ?? ""))?.[1];
  if (minNode === undefined) throw new Error(`package.json's engines.node is not ">=x.y.z": ${pkg.engines?.node}`);
  return { version: String(pkg.version), minNode, pluginDownloadURL: String(schema.pluginDownloadURL) };
}

/**
 * The code caches the linux-amd64 tarball ships (scripts/plugin/warm-cache.js): the staged
 * folder `work`'s launcher `exe` warmed on each Node.js of {@link SHIPPED_NODE_MAJORS}, from
 * npm; the entries to add to the tarball. Only where the packing machine runs that target
 * (the launcher and Node.js must run here); elsewhere none, and it says so.
 * @param {string} work
 * @param {string} exe
 * @returns {Promise<string[]>}
 */
async function shippedCodeCaches(work, exe) {
  if (process.platform !== "linux" || process.arch !== "x64") {
    say(
      `linux-amd64: no code caches shipped (they are made by running the plugin, which needs a linux-amd64 machine; this is ${process.platform}-${process.arch})`,
    );
    return [];
  }
  const nodes = SHIPPED_NODE_MAJORS.map((major) => nodeBinary(TARGETS["linux-amd64"].pkg, major, TARGETS["linux-amd64"].bin));
  say(`linux-amd64: warming the code caches on Node.js ${nodes.map((n) => n.version).join(" and ")}...`);
  return warmCodeCaches(work, exe, nodes);
}

/**
 * One target's tarballs.
 * @typedef {{ target: Target, plugin: string, standalone: string | undefined }} PluginAssets
 */

/**
 * Builds the tarballs of `targets` into `out` (created if missing), from the compiled plugin
 * in `dist/` (`npm run build` first).
 * @param {{ targets?: Target[], out?: string, strip?: boolean }} [opts] `strip: false` keeps the
 *   single-file build's Node.js as the registry has it
 * @returns {Promise<PluginAssets[]>}
 */
async function packPluginAssets(opts = {}) {
  const targets = opts.targets ?? ["linux-amd64"];
  const out = path.resolve(opts.out ?? path.join(root, "dist-plugin"));
  if (!fs.existsSync(path.join(root, "dist", "provider", "native", "main.js")))
    throw new Error("dist/provider/native/main.js is missing: run `npm run build` first");
  const facts = pluginFacts();
  fs.mkdirSync(out, { recursive: true });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-bundle-"));
  try {
    // The single-file build's script (one file, all of it), then the Node.js route's bundle and its parts.
    const script = path.join(work, "single-file", BUNDLE);
    await bundle(script);
    const routed = path.join(work, BUNDLE);
    const parts = await bundle(routed, { parts: true });
    fs.copyFileSync(path.join(root, "LICENSE"), path.join(work, "LICENSE"));
    const loaderBuild = { minNode: facts.minNode, bundle: BUNDLE, bundleSha256: sha256File(routed), parts };
    /** @type {PluginAssets[]} */
    const assets = [];
    for (const target of targets) {
      const exe = `pulumi-resource-clouddb${TARGETS[target].exe}`;
      await bundleLoader(path.join(work, "pulumi-resource-clouddb.js"), { ...loaderBuild, launcher: exe });
      const standalone = packStandalone(target, script, out, facts.version, opts.strip ?? true);
      buildLauncher(target, path.join(work, exe), { ...facts, standaloneSha256: standalone && sha256File(standalone) });
      const caches = target === "linux-amd64" ? await shippedCodeCaches(work, exe) : [];
      const plugin = path.join(out, `pulumi-resource-clouddb-v${facts.version}-${target}.tar.gz`);
      tarball(plugin, work, [exe, "pulumi-resource-clouddb.js", BUNDLE, ...Object.values(parts).map((p) => p.file), "LICENSE", ...caches]);
      fs.rmSync(path.join(work, exe));
      fs.rmSync(path.join(work, CODE_CACHE), { recursive: true, force: true });
      say(`${target}: ${plugin} (the launcher, the loader, the bundle and its parts${caches.length > 0 ? ", code caches" : ""})`);
      assets.push({ target, plugin, standalone });
    }
    return assets;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The engine's tarballs of `targets` (see {@link packPluginAssets}); their paths.
 * @param {{ targets?: Target[], out?: string }} [opts]
 */
async function packPlugin(opts = {}) {
  return (await packPluginAssets(opts)).map((a) => a.plugin);
}

/**
 * The targets a `--target` value names (`all`: every one); fails naming the unknown ones.
 * @param {string} value
 * @returns {Target[]}
 */
function parseTargets(value) {
  const targets = value === "all" ? Object.keys(TARGETS) : value.split(",");
  const unknown = targets.filter((t) => !(t in TARGETS));
  if (unknown.length > 0) throw new Error(`unknown target ${unknown.join(", ")}: one of ${Object.keys(TARGETS).join(", ")}, or all`);
  return /** @type {Target[]} */ (targets);
}

module.exports = { packPlugin, packPluginAssets, parseTargets, nodeBinary, bundle, bundleLoader, pluginFacts, BUNDLE, PARTS, TARGETS };

if (require.main === module) {
  commandLine("plugin:pack", async (value) => {
    const assets = await packPluginAssets({ targets: parseTargets(value("--target") ?? "linux-amd64"), out: value("--out") });
    process.stdout.write(
      assets
        .flatMap((a) => [a.plugin, a.standalone ?? []].flat())
        .map((f) => `${f}\n`)
        .join(""),
    );
  });
}
