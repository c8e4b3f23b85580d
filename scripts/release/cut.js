#!/usr/bin/env node
// @ts-check
/**
 * `npm run release:cut -- X.Y.Z [--date YYYY-MM-DD]`: cuts release X.Y.Z on a clean `main`, in
 * one go (CONTRIBUTING.md, "Releasing"):
 *
 * 1. checks: no uncommitted change to a tracked file, the version is newer than package.json's, every
 *    earlier release of the CHANGELOG has its tag here (printing the command that makes a
 *    missing one);
 * 2. the version: `npm version X.Y.Z --no-git-tag-version` (package.json, package-lock.json),
 *    then `npm run generate` (schema.json: the plugin's version) and `npm run generate:sdks`
 *    (the SDKs ask for the plugin of that version; Python's in PEP 440 form), and the Java
 *    example's pom asks for the Java SDK of that version (maven.js);
 * 3. the CHANGELOG: Unreleased becomes `## [X.Y.Z] - <date>`, the links follow (changelog.js);
 * 4. the upgrade fixture: `tests/upgrade/record.ts` records a stack of every kind under X.Y.Z;
 * 5. a commit `Release X.Y.Z`, and the tags on it: `vX.Y.Z` and the Go SDK's
 *    `sdk-native/go/clouddb/vX.Y.Z` (annotated).
 *
 * It pushes nothing: then `npm run release:rehearse` (or `bash .ci/run`), and
 * `git push origin main vX.Y.Z sdk-native/go/clouddb/vX.Y.Z`, which starts the release
 * workflow (.github/workflows/release.yml).
 */
"use strict";
const fs = require("fs");
const path = require("path");
const { run, say } = require("../plugin/run");
const { cutChangelog } = require("./changelog");
const { setExampleSdkVersion } = require("./maven");
const { GO_MODULE_DIR, checkVersions, packageVersion, root } = require("./versions");

/** @param {string} v */
const parts = (v) => v.split(/[.-]/).slice(0, 3).map(Number);

/**
 * @param {string} version
 * @param {string} date
 */
function cut(version, date) {
  const git = (/** @type {string[]} */ ...args) => run("git", args, { cwd: root }).trim();
  if (git("status", "--porcelain", "--untracked-files=no") !== "")
    throw new Error("the working tree has uncommitted changes: commit or stash them first");
  const current = packageVersion();
  const [a, b] = [parts(version), parts(current)];
  if ((a[0] - b[0] || a[1] - b[1] || a[2] - b[2]) <= 0) throw new Error(`${version} is not newer than package.json's ${current}`);
  const changelog = fs.readFileSync(path.join(root, "CHANGELOG.md"), "utf8");
  const released = [...changelog.matchAll(/^## \[(\d+\.\d+\.\d+)\] - /gm)].map((m) => m[1]);
  const untagged = released.filter((v) => git("tag", "--list", `v${v}`) !== `v${v}`);
  if (untagged.length > 0) {
    throw new Error(
      `earlier releases have no tag here: ${untagged.map((v) => `v${v}`).join(", ")}. Tag each on its release commit first` +
        `${untagged.includes("0.1.0") ? " (0.1.0 is commit fab13e8: git tag -a v0.1.0 fab13e8 -m 'pulumi-clouddb 0.1.0')" : ""}`,
    );
  }
  const next = cutChangelog(changelog, version, date);

  say(`release:cut ${version}: the version, the schema and the SDKs`);
  run("npm", ["version", version, "--no-git-tag-version"], { cwd: root });
  run("npm", ["run", "generate"], { cwd: root, stdio: "inherit" });
  run("npm", ["run", "generate:sdks"], { cwd: root, stdio: "inherit" });
  setExampleSdkVersion(version);
  const mismatch = checkVersions();
  if (mismatch !== undefined) throw new Error(mismatch);
  fs.writeFileSync(path.join(root, "CHANGELOG.md"), next);

  say(`release:cut ${version}: the upgrade fixture (tests/upgrade/record.ts)`);
  run("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  run("npx", ["ts-node", "--transpile-only", "tests/upgrade/record.ts", version], { cwd: root, stdio: "inherit" });
  run("npx", ["prettier", "--write", "CHANGELOG.md", "tests/upgrade/fixtures"], { cwd: root });

  // What the cut changed: tracked files, the new fixture, any file the generators added (nothing untracked besides).
  git("add", "-u");
  git("add", "--", `tests/upgrade/fixtures/${version}`, "sdk-native", "schema.json");
  git("commit", "-q", "-m", `Release ${version}`);
  git("tag", "-a", `v${version}`, "-m", `pulumi-clouddb ${version}`);
  git("tag", "-a", `${GO_MODULE_DIR}/v${version}`, "-m", `Go SDK of pulumi-clouddb ${version}`);
  say(
    [
      `release:cut ${version}: committed "Release ${version}" (${git("rev-parse", "--short", "HEAD")}), tagged v${version} and ${GO_MODULE_DIR}/v${version}.`,
      "Next: npm run release:rehearse (or bash .ci/run), then",
      `  git push origin main v${version} ${GO_MODULE_DIR}/v${version}`,
      "which starts .github/workflows/release.yml (build, rehearse, publish).",
    ].join("\n"),
  );
}

module.exports = { cut };

if (require.main === module) {
  const args = process.argv.slice(2);
  const version = args.find((a) => !a.startsWith("--") && args[args.indexOf(a) - 1] !== "--date");
  const i = args.indexOf("--date");
  const date = i >= 0 ? args[i + 1] : new Date().toISOString().slice(0, 10);
  if (version === undefined) {
    say("usage: npm run release:cut -- X.Y.Z [--date YYYY-MM-DD]");
    process.exit(2);
  }
  try {
    cut(version, date);
  } catch (e) {
    say(`release:cut: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
}
