#!/usr/bin/env node
// @ts-check
/**
 * Publishes a built release (`npm run release:build`), the same steps whether to the
 * rehearsal's stand-ins or to the public registries:
 *
 * - both npm packages, `npm publish <tarball> --access public` to the registry;
 * - the Python sdist and wheel, `twine upload` to the index;
 * - the plugin's tarballs and SHA256SUMS as the release's assets: into a folder at GitHub's
 *   layout (the stand-in), or `gh release create v<version>` with RELEASE_NOTES.md;
 * - the Go module: its proxy files into a folder (the stand-in's `GOPROXY=file://`), or its tag
 *   `sdk-native/go/clouddb/v<version>` pushed (the public proxy serves the module from the tag);
 * - the Java SDK's Maven repository: into a folder (the stand-in), or to Maven Central (maven.js).
 *
 * The public publish (`node scripts/release/publish.js --release <dir> --public`) is what the
 * release workflow runs once the rehearsal passed: NODE_AUTH_TOKEN (npm), TWINE_USERNAME and
 * TWINE_PASSWORD (PyPI), GH_TOKEN (the release), MAVEN_CENTRAL_USERNAME and
 * MAVEN_CENTRAL_PASSWORD (Maven Central, with the signing key imported into gpg) in its environment.
 */
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const { run, say } = require("../plugin/run");
const { publishMaven } = require("./maven");
const { checkSums } = require("./sums");
const { releaseTools } = require("./tools");

/** The repository on GitHub: the schema's pluginDownloadURL names its releases. */
const REPOSITORY = "clouddb/pulumi-clouddb";

/**
 * Where to publish.
 * @typedef {{
 *   npm: { registry: string, token?: string },
 *   pypi: { repositoryUrl: string, username?: string, password?: string },
 *   assets: { dir: string } | { github: string },
 *   go: { proxyDir: string } | { gitRemote: string },
 *   maven: { dir: string } | { central: true },
 * }} Destination
 */

/**
 * The release's assets (the plugin's tarballs, the packages, SHA256SUMS), relative to its folder.
 * @param {import("./build").Release} release
 */
function assetFiles(release) {
  return [
    ...release.plugin.flatMap((p) => [p.plugin, p.standalone ?? []].flat()),
    release.npm.root,
    release.npm.nodeSdk,
    ...release.python,
    "SHA256SUMS",
  ];
}

/**
 * Publishes the release in `dir` to `to`, after checking every file against SHA256SUMS.
 * @param {string} dir
 * @param {Destination} to
 */
function publish(dir, to) {
  /** @type {import("./build").Release} */
  const release = JSON.parse(fs.readFileSync(path.join(dir, "release.json"), "utf8"));
  const all = [
    release.npm.root,
    release.npm.nodeSdk,
    ...release.python,
    ...release.go.files,
    ...release.maven.files,
    ...release.plugin.flatMap((p) => [p.plugin, p.standalone ?? []].flat()),
  ];
  checkSums(dir, all);

  say(`publishing ${release.version}: npm packages to ${to.npm.registry}`);
  const npmrc = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-publish-")), "npmrc");
  const host = to.npm.registry.replace(/^https?:/, "").replace(/\/?$/, "/");
  fs.writeFileSync(npmrc, `registry=${to.npm.registry}\n${host}:_authToken=${to.npm.token ?? "${NODE_AUTH_TOKEN}"}\n`);
  try {
    for (const tgz of [release.npm.root, release.npm.nodeSdk]) {
      run("npm", ["publish", path.join(dir, tgz), "--access", "public", "--registry", to.npm.registry, "--userconfig", npmrc]);
    }
  } finally {
    fs.rmSync(path.dirname(npmrc), { recursive: true, force: true });
  }

  say(`publishing ${release.version}: the Python packages to ${to.pypi.repositoryUrl}`);
  const creds = {
    TWINE_USERNAME: to.pypi.username ?? process.env.TWINE_USERNAME,
    TWINE_PASSWORD: to.pypi.password ?? process.env.TWINE_PASSWORD,
  };
  run(
    releaseTools().twine,
    ["upload", "--non-interactive", "--repository-url", to.pypi.repositoryUrl, ...release.python.map((f) => path.join(dir, f))],
    {
      env: { ...process.env, ...creds },
    },
  );

  if ("dir" in to.assets) {
    const into = path.join(to.assets.dir, REPOSITORY, "releases", "download", `v${release.version}`);
    say(`publishing ${release.version}: the assets into ${into}`);
    fs.mkdirSync(into, { recursive: true });
    for (const f of assetFiles(release)) fs.copyFileSync(path.join(dir, f), path.join(into, path.basename(f)));
  } else {
    say(`publishing ${release.version}: the GitHub release v${release.version} of ${to.assets.github}`);
    const files = assetFiles(release).map((f) => path.join(dir, f));
    const args = ["release", "create", `v${release.version}`, "--repo", to.assets.github, "--verify-tag"];
    run("gh", [...args, "--title", `pulumi-clouddb ${release.version}`, "--notes-file", path.join(dir, "RELEASE_NOTES.md"), ...files]);
  }

  if ("proxyDir" in to.go) {
    say(`publishing ${release.version}: the Go module into ${to.go.proxyDir}`);
    for (const f of release.go.files) {
      const target = path.join(to.go.proxyDir, path.relative("go", f));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(path.join(dir, f), target);
    }
  } else {
    say(`publishing ${release.version}: the Go module's tag ${release.go.tag} to ${to.go.gitRemote}`);
    const tagged = run("git", ["tag", "--list", release.go.tag]).trim() === release.go.tag;
    if (!tagged)
      run("git", ["tag", "-a", release.go.tag, `v${release.version}^{commit}`, "-m", `Go SDK of pulumi-clouddb ${release.version}`]);
    run("git", ["push", to.go.gitRemote, `refs/tags/${release.go.tag}`]);
  }
  publishMaven(dir, release.maven, to.maven);
  return release;
}

module.exports = { publish, assetFiles, REPOSITORY };

if (require.main === module) {
  const args = process.argv.slice(2);
  const dir = args[args.indexOf("--release") + 1];
  if (!args.includes("--release") || !args.includes("--public")) {
    say("usage: node scripts/release/publish.js --release <dir> --public   (the rehearsal publishes to its stand-ins itself)");
    process.exit(2);
  }
  try {
    publish(path.resolve(dir), {
      npm: { registry: "https://registry.npmjs.org/" },
      pypi: { repositoryUrl: "https://upload.pypi.org/legacy/" },
      assets: { github: REPOSITORY },
      go: { gitRemote: "origin" },
      maven: { central: true },
    });
  } catch (e) {
    say(`release:publish: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
}
