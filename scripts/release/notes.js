// @ts-check
/**
 * The release notes (`RELEASE_NOTES.md`, the GitHub release's text): the CHANGELOG's section
 * of the version, how each language installs it, and every asset with its size and SHA-256.
 */
"use strict";
const fs = require("fs");
const path = require("path");
const { sha256File } = require("./sums");

/**
 * @param {{ version: string, pep440: string, date: string, changes: string, goModule: string, files: string[], maven: { groupId: string, artifactId: string, files: string[] } }} release
 * @param {string} out the release folder (the files are relative to it)
 */
function releaseNotes(release, out) {
  const { version } = release;
  // The Java SDK's jars and pom too (on Maven Central, not among the assets), not Maven's checksums and metadata.
  const mavenFiles = release.maven.files.filter((f) => /\.(jar|pom)$/.test(f));
  const rows = [...release.files, ...mavenFiles].map((f) => {
    const size = (fs.statSync(path.join(out, f)).size / 1024 / 1024).toFixed(1);
    return `| \`${path.basename(f)}\` | ${size} MB | \`${sha256File(path.join(out, f))}\` |`;
  });
  return [
    `# pulumi-clouddb ${version} (${release.date})`,
    "",
    release.changes,
    "",
    "## Install",
    "",
    `- TypeScript, the dynamic providers: \`npm install pulumi-clouddb@${version} @pulumi/pulumi\``,
    `- The native plugin's SDKs: \`npm install @clouddb/pulumi-clouddb@${version}\`, \`pip install pulumi_clouddb==${release.pep440}\`,`,
    `  \`go get ${release.goModule}@v${version}\`, Java (Maven Central) \`${release.maven.groupId}:${release.maven.artifactId}:${version}\`;`,
    "  YAML needs none. The engine downloads the plugin",
    "  (`pulumi-resource-clouddb`) from this release the first time a program uses it.",
    `- The emulator: \`npx -p pulumi-clouddb@${version} clouddb-emulator\`.`,
    "",
    "## Assets",
    "",
    "`pulumi-resource-clouddb-v<version>-<os>-<arch>.tar.gz` is what the engine downloads: a launcher that runs the",
    "plugin on the machine's Node.js (20.18.1 or later) and, where there is none, the single-file build",
    "`pulumi-resource-clouddb-standalone-...`, which it downloads once and checks against the SHA-256 below.",
    "`SHA256SUMS` checks them all: `sha256sum -c SHA256SUMS`.",
    "",
    "| file | size | SHA-256 |",
    "|---|---|---|",
    ...rows,
    "",
  ].join("\n");
}

module.exports = { releaseNotes };
