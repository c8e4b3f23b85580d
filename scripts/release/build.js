#!/usr/bin/env node
// @ts-check
/**
 * `npm run release:build [-- --out <dir> --target <os>-<arch>,...|all]`: the whole release of
 * package.json's version, from the repository as it is (`npm ci` first; the Pulumi CLI, Go and
 * Python 3 on PATH), into `<dir>` (`dist-release/v<version>`):
 *
 *   npm/      pulumi-clouddb-<v>.tgz, clouddb-pulumi-clouddb-<v>.tgz
 *   python/   pulumi_clouddb-<pep440>.tar.gz, pulumi_clouddb-<pep440>-py3-none-any.whl
 *   go/       the Go SDK as a module proxy serves it (tag sdk-native/go/clouddb/v<v>)
 *   maven/    the Java SDK as a Maven repository serves it (jar, sources, javadoc, pom: maven.js)
 *   plugin/   pulumi-resource-clouddb[-standalone]-v<v>-<os>-<arch>.tar.gz for every target
 *   SHA256SUMS, RELEASE_NOTES.md (the CHANGELOG's section, the install lines, each asset's sum),
 *   release.json (what the rehearsal and the publish step read: every file, the tags)
 *
 * It fails before building anything when a generated file holds another version than
 * package.json (`npm run generate && npm run generate:sdks`) or the CHANGELOG has no section of it.
 */
"use strict";
const fs = require("fs");
const path = require("path");
const { packPluginAssets, parseTargets } = require("../plugin/pack");
const { commandLine, say } = require("./../plugin/run");
const { buildPython, goModule, packNodeSdk, packRoot } = require("./artifacts");
const { buildMavenRepository } = require("./maven");
const { releaseNotes } = require("./notes");
const { writeSums } = require("./sums");
const { changelogSection, checkVersions, packageVersion, pep440, root } = require("./versions");

/**
 * What release.json records.
 * @typedef {{
 *   version: string, pep440: string, date: string,
 *   npm: { root: string, nodeSdk: string },
 *   python: string[],
 *   go: { path: string, version: string, tag: string, files: string[], h1: string, goModH1: string },
 *   maven: { groupId: string, artifactId: string, version: string, files: string[] },
 *   plugin: { target: string, plugin: string, standalone: string | undefined }[],
 *   tags: string[],
 * }} Release
 */

/**
 * Builds the release into `out`; returns what release.json records.
 * @param {{ out?: string, targets?: import("../plugin/pack").Target[] }} [opts]
 * @returns {Promise<Release>}
 */
async function buildRelease(opts = {}) {
  const version = packageVersion();
  const mismatch = checkVersions();
  if (mismatch !== undefined) throw new Error(mismatch);
  const { date, text: changes } = changelogSection(version);
  const out = path.resolve(opts.out ?? path.join(root, "dist-release", `v${version}`));
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const started = Date.now();
  const step = (/** @type {string} */ what) => say(`release ${version}: ${what} (${Math.round((Date.now() - started) / 1000)} s)`);

  step("npm pack (builds the package)");
  const rootTgz = packRoot(out);
  step("the native TypeScript SDK");
  const nodeSdk = packNodeSdk(out);
  step("the Python SDK's sdist and wheel");
  const python = buildPython(out, version);
  step("the Go SDK's module files");
  const go = goModule(out, version, date);
  step("the Java SDK's Maven repository");
  const maven = buildMavenRepository(out);
  step("the plugin's tarballs");
  const assets = await packPluginAssets({ targets: opts.targets ?? parseTargets("all"), out: path.join(out, "plugin") });
  const plugin = assets.map((a) => ({
    target: a.target,
    plugin: path.relative(out, a.plugin),
    standalone: a.standalone && path.relative(out, a.standalone),
  }));

  const files = [rootTgz, nodeSdk, ...python, ...go.files, ...maven.files, ...plugin.flatMap((p) => [p.plugin, p.standalone ?? []].flat())];
  writeSums(out, files);
  /** @type {Release} */
  const release = {
    version,
    pep440: pep440(version),
    date,
    npm: { root: rootTgz, nodeSdk },
    python,
    go,
    maven,
    plugin,
    tags: [`v${version}`, go.tag],
  };
  fs.writeFileSync(path.join(out, "release.json"), `${JSON.stringify(release, null, 2)}\n`);
  const assetFiles = [...plugin.flatMap((p) => [p.plugin, p.standalone ?? []].flat()), rootTgz, nodeSdk, ...python];
  fs.writeFileSync(
    path.join(out, "RELEASE_NOTES.md"),
    releaseNotes({ version, pep440: release.pep440, date, changes, goModule: go.path, maven, files: assetFiles }, out),
  );
  step(`done: ${out}`);
  return release;
}

/**
 * The release in `dir`, as release.json records it.
 * @param {string} dir
 * @returns {Release}
 */
function readRelease(dir) {
  return JSON.parse(fs.readFileSync(path.join(dir, "release.json"), "utf8"));
}

module.exports = { buildRelease, readRelease };

if (require.main === module) {
  commandLine("release:build", (value) => buildRelease({ out: value("--out"), targets: parseTargets(value("--target") ?? "all") }));
}
