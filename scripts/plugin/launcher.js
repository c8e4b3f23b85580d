// @ts-check
/**
 * The plugin's launcher (scripts/plugin/launcher/, Go's standard library alone): built with
 * `go build` for a target, with the plugin's version, the oldest Node.js that runs the bundle
 * (package.json's `engines.node`), the schema's `pluginDownloadURL` and the SHA-256 of the
 * target's single-file tarball written into it (`-ldflags -X`).
 */
"use strict";
const path = require("path");
const { TARGETS } = require("./node-binaries");
const { run } = require("./run");

const source = path.join(__dirname, "launcher");

/**
 * Builds the launcher of `target` as `out`.
 * @param {import("./node-binaries").Target} target
 * @param {string} out
 * @param {{ version: string, minNode: string, pluginDownloadURL: string, standaloneSha256: string | undefined }} values
 */
function buildLauncher(target, out, values) {
  const spec = TARGETS[target];
  const vars = {
    version: values.version,
    minNode: values.minNode,
    pluginDownloadURL: values.pluginDownloadURL,
    standaloneSHA256: values.standaloneSha256 ?? "",
  };
  const ldflags = ["-s", "-w", ...Object.entries(vars).map(([k, v]) => `-X=main.${k}=${v}`)].join(" ");
  run("go", ["build", "-trimpath", "-ldflags", ldflags, "-o", out, "."], {
    cwd: source,
    env: { ...process.env, CGO_ENABLED: "0", GOOS: spec.goos, GOARCH: spec.goarch, GOTOOLCHAIN: "local", GOWORK: "off", GOFLAGS: "" },
  });
}

module.exports = { buildLauncher };
