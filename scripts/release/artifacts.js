// @ts-check
/**
 * The release's packages, each built as its registry takes it, into the release folder:
 *
 * - `npm/`: `pulumi-clouddb-<v>.tgz` (`npm pack` of the repository: the dynamic providers, the
 *   client, the emulator and its bins) and `clouddb-pulumi-clouddb-<v>.tgz` (the native
 *   plugin's TypeScript SDK, `sdk-native/nodejs` compiled by its own `tsc`);
 * - `python/`: `pulumi_clouddb-<pep440>.tar.gz` and `pulumi_clouddb-<pep440>-py3-none-any.whl`
 *   (`python -m build` of `sdk-native/python`);
 * - `go/`: the Go SDK as a module proxy serves it (`GOPROXY=file://<release>/go`), made by
 *   gomodule/ from `sdk-native/go/clouddb`, the module the schema names, which the public
 *   proxy serves from the tag `sdk-native/go/clouddb/v<v>` (a module in a subfolder is tagged
 *   `<folder>/v<version>`).
 */
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const { run } = require("../plugin/run");
const { GO_MODULE_DIR, pep440, root } = require("./versions");
const { releaseTools } = require("./tools");

/**
 * `npm pack` of the repository into `<out>/npm`; the tarball's path (relative to `out`).
 * @param {string} out
 */
function packRoot(out) {
  fs.mkdirSync(path.join(out, "npm"), { recursive: true });
  const packed = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", path.join(out, "npm")], { cwd: root }));
  return path.join("npm", packed[0].filename);
}

/**
 * The native TypeScript SDK compiled and packed into `<out>/npm`: a copy of
 * `sdk-native/nodejs`, its dev dependencies installed, `tsc`, then its package.json and README
 * beside the output, packed from there (what Pulumi's providers publish).
 * @param {string} out
 */
function packNodeSdk(out) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-release-nodejs-"));
  try {
    fs.cpSync(path.join(root, "sdk-native", "nodejs"), work, { recursive: true });
    run("npm", ["install", "--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error"], { cwd: work });
    run("npx", ["tsc"], { cwd: work });
    const bin = path.join(work, "bin");
    for (const f of ["package.json", "README.md"]) fs.copyFileSync(path.join(work, f), path.join(bin, f));
    fs.copyFileSync(path.join(root, "LICENSE"), path.join(bin, "LICENSE"));
    const packed = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", path.join(out, "npm")], { cwd: bin }));
    return path.join("npm", packed[0].filename);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The Python SDK's sdist and wheel in `<out>/python` (`python -m build`, in the release tools'
 * virtualenv, from a copy with the package's README at its root, as its pyproject names it).
 * @param {string} out
 * @param {string} version
 */
function buildPython(out, version) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-release-python-"));
  try {
    fs.cpSync(path.join(root, "sdk-native", "python"), work, { recursive: true });
    fs.copyFileSync(path.join(work, "pulumi_clouddb", "README.md"), path.join(work, "README.md"));
    fs.copyFileSync(path.join(root, "LICENSE"), path.join(work, "LICENSE"));
    run(releaseTools().python, ["-m", "build", "--sdist", "--wheel", "--outdir", path.join(out, "python"), work]);
    const v = pep440(version);
    const files = [`pulumi_clouddb-${v}.tar.gz`, `pulumi_clouddb-${v}-py3-none-any.whl`].map((f) => path.join("python", f));
    for (const f of files) if (!fs.existsSync(path.join(out, f))) throw new Error(`python -m build did not write ${f}`);
    return files;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The Go SDK as a module proxy serves it, in `<out>/go`; its path, version, tag, files and
 * go.sum hashes.
 * @param {string} out
 * @param {string} version
 * @param {string} date the release's date (YYYY-MM-DD), the version's time
 */
function goModule(out, version, date) {
  const printed = run(
    "go",
    [
      "run",
      ".",
      "-dir",
      path.join(root, GO_MODULE_DIR),
      "-version",
      `v${version}`,
      "-time",
      `${date}T00:00:00Z`,
      "-out",
      path.join(out, "go"),
    ],
    {
      cwd: path.join(__dirname, "gomodule"),
      env: { ...process.env, GOTOOLCHAIN: "local", GOWORK: "off", GOFLAGS: "-mod=mod" },
    },
  );
  const m = /** @type {{ path: string, version: string, zip: string, h1: string, goModH1: string }} */ (JSON.parse(printed));
  const files = fs
    .readdirSync(path.dirname(m.zip))
    .map((f) => path.relative(out, path.join(path.dirname(m.zip), f)))
    .sort();
  return { path: m.path, version: m.version, tag: `${GO_MODULE_DIR}/v${version}`, files, h1: m.h1, goModH1: m.goModH1 };
}

module.exports = { packRoot, packNodeSdk, buildPython, goModule };
