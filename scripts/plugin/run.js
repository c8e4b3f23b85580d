// @ts-check
/**
 * What the packing scripts share: running a command and saying what they do (scripts/lib/run.js),
 * packing a tarball, and their command line.
 */
"use strict";
const { spawnSync } = require("child_process");
const { run, say } = require("../lib/run");

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

/**
 * Runs a script's command line: `main` gets the value after each `--flag` (`value`) and the
 * arguments; when it fails, says `<label>: <why>` and exits with code 1.
 * @param {string} label
 * @param {(value: (flag: string) => string | undefined, args: string[]) => Promise<unknown>} main
 */
function commandLine(label, main) {
  const args = process.argv.slice(2);
  const value = (/** @type {string} */ flag) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  Promise.resolve()
    .then(() => main(value, args))
    .catch((e) => {
      say(`${label}: ${e instanceof Error ? e.message : String(e)}`);
      process.exit(1);
    });
}

module.exports = { commandLine, run, say, tarball };
