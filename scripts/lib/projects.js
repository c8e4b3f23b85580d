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
 * Names of the examples that are Pulumi projects of the dynamic providers, sorted (the
 * native plugin's, `native-<language>`, need the plugin installed: see their READMEs).
 * @param {string} root repository root
 * @returns {string[]}
 */
function examples(root) {
  const dir = path.join(root, "examples");
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith("native-") && fs.existsSync(path.join(dir, d.name, "Pulumi.yaml")))
    .map((d) => d.name)
    .sort();
}

/** A first argument that names no example where only an example or flags may come. */
class UnknownExampleError extends Error {
  /**
   * @param {string} given the argument
   * @param {string[]} known the examples there are
   */
  constructor(given, known) {
    super(`There is no example "${given}". The examples: ${known.join(", ")} (npm run up -- <example> [pulumi flags]).`);
    this.name = "UnknownExampleError";
  }
}

/**
 * Splits the arguments after the command: a leading example name picks that project;
 * the rest go to `pulumi`. With `onlyFlags` (up, preview, refresh, destroy, whose pulumi
 * commands take flags only), a leading argument that is neither an example nor a flag is a
 * mistyped example: it throws instead of deploying the default one.
 * @param {string} root repository root
 * @param {string[]} args
 * @param {boolean} [onlyFlags]
 * @returns {{ example: string, dir: string, rest: string[] }}
 * @throws {UnknownExampleError}
 */
function pickProject(root, args, onlyFlags = false) {
  const known = examples(root);
  const [first, ...others] = args;
  const named = first !== undefined && known.includes(first);
  if (onlyFlags && first !== undefined && !named && !first.startsWith("-")) throw new UnknownExampleError(first, known);
  const example = named ? first : DEFAULT_EXAMPLE;
  return { example, dir: path.join(root, "examples", example), rest: named ? others : args };
}

module.exports = { examples, pickProject, DEFAULT_EXAMPLE, UnknownExampleError };
