// @ts-check
/** What the packing scripts share: running a command, and saying what they do (on stderr). */
"use strict";
const { spawnSync } = require("child_process");

/** @param {string} line */
function say(line) {
  process.stderr.write(`${line}\n`);
}

/**
 * Runs `command`, failing with what it printed unless it succeeds; returns its standard output.
 * @param {string} command
 * @param {string[]} args
 * @param {import("child_process").SpawnSyncOptions} [opts]
 */
function run(command, args, opts = {}) {
  const r = spawnSync(command, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, ...opts });
  if (r.error || r.status !== 0)
    throw new Error(`${command} ${args.join(" ")} failed (${r.error?.message ?? `exit ${r.status}`}):\n${r.stdout ?? ""}${r.stderr ?? ""}`);
  return String(r.stdout ?? "");
}

/**
 * Packs `files` (names in `dir`) into the gzipped tarball `out`, the same bytes for the same
 * files (sorted names, owner root, time 0, no name or time in the gzip header), so a rebuild
 * gives the same SHA-256.
 * @param {string} out
 * @param {string} dir
 * @param {string[]} files
 */
function tarball(out, dir, files) {
  const tar = ["--sort=name", "--owner=0", "--group=0", "--numeric-owner", "--mtime=@0", "--format=gnu", "-cf", "-", "-C", dir, ...files];
  const r = spawnSync("sh", ["-c", 'tar "$@" | gzip -9 -n > "$OUT"', "sh", ...tar], {
    env: { ...process.env, OUT: out },
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`packing ${out} failed: ${r.stderr}`);
}

module.exports = { run, say, tarball };
