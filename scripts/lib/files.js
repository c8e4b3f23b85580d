// @ts-check
/**
 * The files of a folder, for the scripts that compare or list what they wrote.
 */
"use strict";
const fs = require("fs");
const path = require("path");

/**
 * Every file under `dir`, relative to it, sorted (none when `dir` does not exist).
 * @param {string} dir
 * @returns {string[]}
 */
function filesUnder(dir) {
  if (!fs.existsSync(dir)) return [];
  /** @type {string[]} */
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full).map((f) => path.join(entry.name, f)));
    else out.push(entry.name);
  }
  return out.sort();
}

module.exports = { filesUnder };
