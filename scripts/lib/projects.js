// @ts-check
/**
 * The Pulumi projects `npm run up` can run: every directory under `examples/` with its
 * own `Pulumi.yaml`. `quickstart` is the default.
 */
"use strict";
const fs = require("fs");
const path = require("path");

/** The example run when none is named. */
const DEFAULT_EXAMPLE = "quickstart";

/**
 * Names of the examples that are Pulumi projects, sorted.
 * @param {string} root repository root
 * @returns {string[]}
 */
function examples(root) {
  const dir = path.join(root, "examples");
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, "Pulumi.yaml")))
    .map((d) => d.name)
    .sort();
}

/**
 * Splits the arguments after the command: a leading example name picks that project;
 * the rest go to `pulumi`.
 * @param {string} root repository root
 * @param {string[]} args
 * @returns {{ example: string, dir: string, rest: string[] }}
 */
function pickProject(root, args) {
  const known = examples(root);
  const [first, ...others] = args;
  const named = first !== undefined && known.includes(first);
  const example = named ? first : DEFAULT_EXAMPLE;
  return { example, dir: path.join(root, "examples", example), rest: named ? others : args };
}

module.exports = { examples, pickProject, DEFAULT_EXAMPLE };
