// @ts-check
/**
 * SHA-256 sums of a release's files, as `sha256sum` writes and checks them (`SHA256SUMS`: a
 * line per file, `<hex>  <name>`), and their check: a file whose sum differs, or a file the
 * sums name that is missing, fails it, naming each.
 */
"use strict";
const crypto = require("crypto");
const fs = require("fs");
const path = require("path");

/**
 * The SHA-256 of a file, in hex.
 * @param {string} file
 */
function sha256File(file) {
  return crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}

/**
 * Writes `SHA256SUMS` in `dir` for `files` (paths relative to `dir`), sorted; returns its text.
 * @param {string} dir
 * @param {string[]} files
 */
function writeSums(dir, files) {
  const text = [...files]
    .sort()
    .map((f) => `${sha256File(path.join(dir, f))}  ${f}\n`)
    .join("");
  fs.writeFileSync(path.join(dir, "SHA256SUMS"), text);
  return text;
}

/**
 * Parses a `SHA256SUMS` text into name → hex.
 * @param {string} text
 */
function parseSums(text) {
  /** @type {Map<string, string>} */
  const sums = new Map();
  for (const line of text.split("\n").filter((l) => l.trim() !== "")) {
    const m = /^([0-9a-f]{64}) [ *](.+)$/.exec(line);
    if (!m) throw new Error(`SHA256SUMS: not "<sha256>  <file>": ${JSON.stringify(line)}`);
    sums.set(m[2], m[1]);
  }
  return sums;
}

/**
 * Checks the files `SHA256SUMS` in `dir` names, and that every name of `expected` is among them;
 * throws naming every file missing or whose sum differs.
 * @param {string} dir
 * @param {string[]} [expected]
 */
function checkSums(dir, expected = []) {
  const sumsFile = path.join(dir, "SHA256SUMS");
  if (!fs.existsSync(sumsFile)) throw new Error(`${sumsFile} is missing`);
  const sums = parseSums(fs.readFileSync(sumsFile, "utf8"));
  const problems = [];
  for (const name of expected) if (!sums.has(name)) problems.push(`${name}: not in SHA256SUMS`);
  for (const [name, want] of sums) {
    const file = path.join(dir, name);
    if (!fs.existsSync(file)) problems.push(`${name}: missing`);
    else {
      const got = sha256File(file);
      if (got !== want) problems.push(`${name}: SHA-256 ${got}, SHA256SUMS says ${want}`);
    }
  }
  if (problems.length > 0) throw new Error(`the release in ${dir} does not match its SHA256SUMS:\n  ${problems.join("\n  ")}`);
  return sums;
}

module.exports = { sha256File, writeSums, parseSums, checkSums };
