// @ts-check
/**
 * The release's one version source, package.json's `version`, and what must agree with it:
 * the schema (the plugin's version, `npm run generate`), the generated SDKs (`npm run
 * generate:sdks`: the TypeScript package's version, the Python package's in PEP 440 form, the
 * plugin each asks the engine for), and the CHANGELOG's section of that version (the release
 * notes).
 */
"use strict";
const fs = require("fs");
const path = require("path");

const root = path.resolve(__dirname, "..", "..");
/** The Go SDK's folder: its module path's tail, and the prefix of its tags. */
const GO_MODULE_DIR = "sdk-native/go/clouddb";

/** @param {string} file */
const readJson = (file) => JSON.parse(fs.readFileSync(path.join(root, file), "utf8"));

/**
 * A semantic version in Python's form (PEP 440): `1.2.3` as it is, `1.2.3-alpha.4` as
 * `1.2.3a4`, `-beta.N` as `bN`, `-rc.N` as `rcN`; any other pre-release or build fails.
 * @param {string} version
 */
function pep440(version) {
  const m = /^(\d+\.\d+\.\d+)(?:-(alpha|beta|rc)\.(\d+))?$/.exec(version);
  if (!m) throw new Error(`version ${version}: expected X.Y.Z or X.Y.Z-(alpha|beta|rc).N, which PEP 440 can say`);
  return m[2] === undefined ? m[1] : `${m[1]}${{ alpha: "a", beta: "b", rc: "rc" }[m[2]]}${m[3]}`;
}

/** package.json's version. */
function packageVersion() {
  return String(readJson("package.json").version);
}

/**
 * The versions the generated files hold, and the error naming each that differs from
 * package.json's (with the command that brings it in line), or undefined.
 */
function checkVersions() {
  const version = packageVersion();
  const pyproject = fs.readFileSync(path.join(root, "sdk-native/python/pyproject.toml"), "utf8");
  const held = {
    "schema.json version": readJson("schema.json").version,
    "sdk-native/nodejs/package.json version": readJson("sdk-native/nodejs/package.json").version,
    "sdk-native/nodejs/package.json pulumi.version": readJson("sdk-native/nodejs/package.json").pulumi?.version,
    "sdk-native/python/pyproject.toml version": /^\s*version = "([^"]+)"/m.exec(pyproject)?.[1],
    "sdk-native/python/pulumi_clouddb/pulumi-plugin.json version": readJson("sdk-native/python/pulumi_clouddb/pulumi-plugin.json").version,
    [`${GO_MODULE_DIR}/pulumi-plugin.json version`]: readJson(`${GO_MODULE_DIR}/pulumi-plugin.json`).version,
  };
  const want = (/** @type {string} */ key) => (key.includes("pyproject") ? pep440(version) : version);
  const wrong = Object.entries(held).filter(([k, v]) => v !== want(k));
  if (wrong.length === 0) return undefined;
  return (
    `package.json's version is ${version}, but ${wrong.map(([k, v]) => `${k} is ${JSON.stringify(v)}`).join(", ")}: ` +
    "run `npm run generate && npm run generate:sdks` and commit the result"
  );
}

/**
 * The CHANGELOG's section of `version` (`## [X.Y.Z] - YYYY-MM-DD` to the next `## `): its
 * date and text; fails when there is none.
 * @param {string} version
 * @param {string} [changelog]
 */
function changelogSection(version, changelog = fs.readFileSync(path.join(root, "CHANGELOG.md"), "utf8")) {
  const lines = changelog.split("\n");
  const heading = new RegExp(`^## \\[${version.replace(/\./g, "\\.")}\\] - (\\d{4}-\\d{2}-\\d{2})$`);
  const start = lines.findIndex((l) => heading.test(l));
  if (start < 0)
    throw new Error(`CHANGELOG.md has no section "## [${version}] - <date>": cut the release first (npm run release:cut -- ${version})`);
  const end = lines.findIndex((l, i) => i > start && (/^## /.test(l) || /^\[[^\]]+\]: /.test(l)));
  const date = /** @type {RegExpExecArray} */ (heading.exec(lines[start]))[1];
  return {
    date,
    text: lines
      .slice(start + 1, end < 0 ? undefined : end)
      .join("\n")
      .trim(),
  };
}

module.exports = { GO_MODULE_DIR, pep440, packageVersion, checkVersions, changelogSection, root };
