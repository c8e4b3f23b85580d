#!/usr/bin/env node
// @ts-check
/**
 * `npm run plugin:pack [-- --target <os>-<arch>,...|all --out <dir>]`: the native plugin as
 * users download it, two tarballs per target:
 *
 * - `pulumi-resource-clouddb-v<version>-<target>.tar.gz`, the one the engine downloads
 *   (`pluginDownloadURL`) or `pulumi plugin install --file` takes: the launcher
 *   `pulumi-resource-clouddb` (`.exe` on Windows; launcher.js), the bundled plugin
 *   `pulumi-resource-clouddb.js` (the compiled plugin and every module it loads, by esbuild, a
 *   dev dependency for this), the LICENSE. The launcher runs the bundle on the machine's
 *   Node.js (20.18.1 or later) and, where there is none, the single-file build below, which it
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
const { buildLauncher } = require("./launcher");
const { TARGETS, nodeBinary } = require("./node-binaries");
const { say, tarball } = require("./run");
const { packStandalone } = require("./standalone");
const { sha256File } = require("../release/sums");

const root = path.resolve(__dirname, "..", "..");
/** @typedef {import("./node-binaries").Target} Target */

/**
 * Bundles the compiled plugin and what it loads into one script, for Node.js 20 and later.
 * @param {string} outfile
 */
async function bundle(outfile) {
  const esbuild = require("esbuild");
  await esbuild.build({
    // `main()` called from here: a SEA's main script is no `require.main` to test against.
    stdin: { contents: 'require("./dist/provider/native/main.js").main();', resolveDir: root, loader: "js" },
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    minify: true,
    legalComments: "eof",
    outfile,
    logLevel: "error",
    plugins: [
      {
        // sdk/lookups.ts loads the SDK's runtime (`@pulumi/pulumi` itself) only for a program's own
        // configuration, which the plugin never reads (it passes its provider's): left out, with
        // the 10 MB it would bring (TypeScript, npm's libraries). The protocol's stubs are subpaths, kept.
        name: "no-sdk-runtime",
        setup(build) {
          build.onResolve({ filter: /^@pulumi\/pulumi$/ }, (args) => ({ path: args.path, external: true }));
        },
      },
    ],
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
 * One target's tarballs.
 * @typedef {{ target: Target, plugin: string, standalone: string | undefined }} PluginAssets
 */

/**
 * Builds the tarballs of `targets` into `out` (created if missing), from the compiled plugin
 * in `dist/` (`npm run build` first).
 * @param {{ targets?: Target[], out?: string, strip?: boolean }} [opts] `strip: false` keeps the
 *   single-file build's Node.js as the registry has it (the build of release 0.1.0, for the bench)
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
    const script = path.join(work, "pulumi-resource-clouddb.js");
    await bundle(script);
    fs.copyFileSync(path.join(root, "LICENSE"), path.join(work, "LICENSE"));
    return targets.map((target) => {
      const standalone = packStandalone(target, script, out, facts.version, opts.strip ?? true);
      const exe = `pulumi-resource-clouddb${TARGETS[target].exe}`;
      buildLauncher(target, path.join(work, exe), { ...facts, standaloneSha256: standalone && sha256File(standalone) });
      const plugin = path.join(out, `pulumi-resource-clouddb-v${facts.version}-${target}.tar.gz`);
      tarball(plugin, work, [exe, "pulumi-resource-clouddb.js", "LICENSE"]);
      fs.rmSync(path.join(work, exe));
      say(`${target}: ${plugin} (the launcher and the bundle)`);
      return { target, plugin, standalone };
    });
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

module.exports = { packPlugin, packPluginAssets, parseTargets, nodeBinary, TARGETS };

if (require.main === module) {
  const args = process.argv.slice(2);
  const value = (/** @type {string} */ flag) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  Promise.resolve()
    .then(() => packPluginAssets({ targets: parseTargets(value("--target") ?? "linux-amd64"), out: value("--out") }))
    .then(
      (assets) =>
        process.stdout.write(
          assets
            .flatMap((a) => [a.plugin, a.standalone ?? []].flat())
            .map((f) => `${f}\n`)
            .join(""),
        ),
      (e) => {
        say(`plugin:pack: ${e instanceof Error ? e.message : String(e)}`);
        process.exit(1);
      },
    );
}
