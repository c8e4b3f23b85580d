// @ts-check
/**
 * Finds the Pulumi CLI for `npm run up` and friends, in this order:
 *
 * 1. A real `pulumi` on PATH (an installed CLI) is used as it is. npm wrappers are
 *    skipped: the official `pulumi` npm package puts a `pulumi` script on PATH (a global
 *    install, or a project's `node_modules/.bin` during `npm run`) that passes any "is
 *    there a CLI" check and then fails with a bare "fetch failed" where it cannot fetch.
 * 2. The CLI that `npm run pulumi:build` built from its Go modules (scripts/lib/pulumi-tools.js,
 *    versions in tools/pulumi/versions.json), when it is built for the current pins.
 * 3. With `go` on PATH: that build, now, once, saying so while it runs.
 *
 * The CLI we built runs with its tools folder (the language hosts, the dynamic provider's
 * launcher) first on PATH: {@link FoundCli.binDir}. When nothing works,
 * {@link CliUnavailableError} says what to install.
 */
"use strict";
const fs = require("fs");
const path = require("path");
const { buildTools, builtTools, findGo, isExecutable, PINS_FILE, readPins, ToolsBuildError } = require("./pulumi-tools");

/** The CLI cannot be found or built; the message says what to install. */
class CliUnavailableError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "CliUnavailableError";
  }
}

/**
 * @typedef {object} FindOptions
 * @property {string} root the repository root (where tools/pulumi/versions.json and .tools/pulumi are)
 * @property {string} command what the user ran, for messages (`up`, `preview`, ...)
 * @property {NodeJS.ProcessEnv} env the environment (PATH; CLOUDDB_PULUMI_TOOLS_DIR; GOMODCACHE and the like for the build)
 * @property {(line: string) => void} say writes one line for the user (stderr)
 */

/**
 * True when `file` is the `pulumi` npm package's launcher rather than the CLI itself.
 * @param {string} file
 */
function isNpmWrapper(file) {
  let real;
  try {
    real = fs.realpathSync(file);
  } catch {
    return false;
  }
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(path.dirname(real), "package.json"), "utf8"));
    return pkg.name === "pulumi" && typeof pkg.bin === "object" && pkg.bin !== null;
  } catch {
    return false;
  }
}

/**
 * The first real Pulumi CLI on PATH, if any.
 * @param {NodeJS.ProcessEnv} env
 * @returns {string | undefined}
 */
function cliOnPath(env) {
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (dir === "") continue;
    const candidate = path.join(dir, "pulumi");
    if (isExecutable(candidate) && !isNpmWrapper(candidate)) return candidate;
  }
  return undefined;
}

/**
 * How to install the CLI, after `why`.
 * @param {string} why
 * @param {string} command
 */
function installMessage(why, command) {
  return [
    why,
    `\`npm run ${command}\` runs the Pulumi CLI. Install it (https://www.pulumi.com/docs/install/), for example:`,
    "  curl -fsSL https://get.pulumi.com | sh && export PATH=$HOME/.pulumi/bin:$PATH",
    "or install Go 1.26 or later (https://go.dev/dl/): then the CLI is built from its Go modules, once",
    "(`npm run pulumi:build`, 5 to 6 minutes the first time).",
    `Then run \`npm run ${command}\` again: a \`pulumi\` on PATH is used first.`,
    "Without the CLI, `npm test` still runs every example through Pulumi's real",
    "dynamic-provider host against the emulator.",
  ].join("\n");
}

/**
 * @typedef {object} FoundCli
 * @property {string} cli the path of the `pulumi` executable
 * @property {string} [binDir] a folder to put first on the CLI's PATH (the language hosts
 *   and plugins of the CLI we built); unset for a CLI on PATH
 */

/**
 * The Pulumi CLI to run; builds it once from its Go modules when needed.
 * @param {FindOptions} opts
 * @returns {Promise<FoundCli>}
 * @throws {CliUnavailableError} when there is none and it cannot be built
 */
async function findPulumi(opts) {
  const { root, command, env, say } = opts;
  const onPath = cliOnPath(env);
  if (onPath !== undefined) return { cli: onPath };

  try {
    const built = builtTools(root, env);
    if (built !== undefined) return { cli: built.pulumi, binDir: built.bin };
    const go = findGo(env);
    if (go === undefined) {
      throw new CliUnavailableError(installMessage("The Pulumi CLI is not on PATH, and neither is `go` to build it.", command));
    }
    const { cli } = readPins(root);
    say(
      `The Pulumi CLI is not on PATH: building Pulumi CLI ${cli.version} and its language hosts from their Go ` +
        `modules once (versions in ${PINS_FILE}). This takes 5 to 6 minutes the first time; later runs use it directly.`,
    );
    const tools = await buildTools({ root, env, say, go });
    return { cli: tools.pulumi, binDir: tools.bin };
  } catch (e) {
    if (e instanceof ToolsBuildError) {
      throw new CliUnavailableError(installMessage(`Could not build the Pulumi CLI from its Go modules: ${e.message}`, command));
    }
    throw e;
  }
}

module.exports = { findPulumi, CliUnavailableError, isNpmWrapper };
