#!/usr/bin/env node
/**
 * `npm pack` and `npm publish` pack package.json without the `prepare` script.
 *
 * `prepare` builds the package where it is installed from git (npm clones the repository,
 * installs its dev dependencies and runs `prepare`: pacote's DirFetcher runs no other
 * script). A tarball already holds the build, and npm 11 lists any `prepare` of an installed
 * tarball among the "install scripts not yet covered by allowScripts". So `prepack` builds and
 * writes package.json without it (keeping the original beside it), and `postpack` puts the
 * original back:
 *
 *   node scripts/pack-manifest.js strip     # prepack, after the build
 *   node scripts/pack-manifest.js restore   # postpack
 *
 * A pack that failed half-way leaves the original in `.package.json.prepack`, and the next
 * `strip` or `restore` puts it back first.
 */
"use strict";
const fs = require("fs");
const path = require("path");

const root = path.resolve(__dirname, "..");
const manifest = path.join(root, "package.json");
const kept = path.join(root, ".package.json.prepack");

/** Puts the original package.json back, when one is kept. */
function restore() {
  if (!fs.existsSync(kept)) return;
  fs.copyFileSync(kept, manifest);
  fs.rmSync(kept);
}

const command = process.argv[2];
if (command === "strip") {
  restore();
  const text = fs.readFileSync(manifest, "utf8");
  const pkg = JSON.parse(text);
  if (pkg.scripts !== undefined && "prepare" in pkg.scripts) {
    fs.writeFileSync(kept, text);
    delete pkg.scripts.prepare;
    fs.writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
  }
} else if (command === "restore") {
  restore();
} else {
  process.stderr.write("usage: node scripts/pack-manifest.js strip|restore\n");
  process.exit(2);
}
