// @ts-check
/** What the repository's scripts share: running a command, and saying what they do (on stderr). */
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

module.exports = { run, say };
