// @ts-check
/**
 * Finds the Pulumi CLI for `npm run up` and friends, in this order:
 *
 * 1. A real `pulumi` on PATH (an installed CLI) is used as it is. npm wrappers are
 *    skipped: the official `pulumi` npm package puts a `pulumi` script on PATH (our own
 *    `node_modules/.bin` during `npm run`, or a global install) that passes any "is
 *    there a CLI" check and then fails with a bare "fetch failed" when it cannot fetch.
 * 2. The CLI that the `pulumi` npm package pinned in our devDependencies fetched before:
 *    it caches it under `$PULUMI_HOME/versions/<version>/bin` (default `~/.pulumi`).
 * 3. That package fetching it now, once, with a message saying so while it runs.
 *
 * When none works, {@link CliUnavailableError} says how to install the CLI.
 */
"use strict";
const { spawn } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");

/** The CLI cannot be found or fetched; the message says how to install it. */
class CliUnavailableError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "CliUnavailableError";
  }
}

/**
 * @typedef {object} FindOptions
 * @property {string} root the repository root (where the pinned `pulumi` package is installed)
 * @property {string} command what the user ran, for messages (`up`, `preview`, ...)
 * @property {NodeJS.ProcessEnv} env the environment (PATH, PULUMI_HOME, PULUMI_VERSION, HOME)
 * @property {(line: string) => void} say writes one line for the user (stderr)
 */

/**
 * True when `file` is an executable regular file.
 * @param {string} file
 */
function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

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
 * The pinned `pulumi` npm package: its launcher and the CLI version it fetches.
 * @param {string} root
 * @param {NodeJS.ProcessEnv} env
 * @returns {{ launcher: string, version: string } | undefined}
 */
function pinnedPackage(root, env) {
  let manifest;
  try {
    manifest = require.resolve("pulumi/package.json", { paths: [root] });
  } catch {
    return undefined;
  }
  const pkg = JSON.parse(fs.readFileSync(manifest, "utf8"));
  const bin = typeof pkg.bin === "string" ? pkg.bin : pkg.bin?.pulumi;
  if (typeof bin !== "string") return undefined;
  return { launcher: path.join(path.dirname(manifest), bin), version: env.PULUMI_VERSION || pkg.version };
}

/**
 * Where the `pulumi` npm package keeps the CLI of `version` (its documented cache).
 * @param {string} version
 * @param {NodeJS.ProcessEnv} env
 */
function cachedCliPath(version, env) {
  const home = env.PULUMI_HOME || path.join(env.HOME || os.homedir(), ".pulumi");
  return path.join(home, "versions", version, "bin", "pulumi");
}

/**
 * Runs the launcher once (`pulumi version`) so that it fetches the CLI; forwards its
 * output and returns its exit code and what it wrote to stderr.
 * @param {string} launcher
 * @param {NodeJS.ProcessEnv} env
 * @returns {Promise<{ code: number | null, stderr: string }>}
 */
function fetchThrough(launcher, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [launcher, "version"], { env, stdio: ["ignore", "inherit", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
      process.stderr.write(chunk);
    });
    child.on("error", (e) => resolve({ code: null, stderr: `${stderr}${e.message}\n` }));
    child.on("close", (code) => resolve({ code, stderr }));
  });
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
    `then run \`npm run ${command}\` again: a \`pulumi\` on PATH is used first.`,
    "Without the CLI, `npm test` still runs every example through Pulumi's real",
    "dynamic-provider host against the emulator.",
  ].join("\n");
}

/**
 * The Pulumi CLI to run; fetches it once through the pinned npm package when needed.
 * @param {FindOptions} opts
 * @returns {Promise<string>} the path of the `pulumi` executable
 * @throws {CliUnavailableError} when there is none and it cannot be fetched
 */
async function findPulumi(opts) {
  const { root, command, env, say } = opts;
  const onPath = cliOnPath(env);
  if (onPath !== undefined) return onPath;

  const pinned = pinnedPackage(root, env);
  if (pinned === undefined) {
    throw new CliUnavailableError(
      installMessage("The Pulumi CLI is not on PATH, and the `pulumi` npm package is not installed (run `npm ci`).", command),
    );
  }
  const cached = cachedCliPath(pinned.version, env);
  if (isExecutable(cached)) return cached;

  say(
    `The Pulumi CLI is not on PATH: fetching Pulumi CLI v${pinned.version} once, through the \`pulumi\` npm ` +
      `package (pinned in package.json), into ${path.dirname(path.dirname(cached))}. This takes a minute; ` +
      "later runs use it directly.",
  );
  const { code, stderr } = await fetchThrough(pinned.launcher, env);
  if (code === 0 && isExecutable(cached)) {
    say(`Fetched Pulumi CLI v${pinned.version}: ${cached}`);
    return cached;
  }
  const reason =
    stderr
      .trim()
      .split("\n")
      .filter((l) => l.trim() !== "")
      .pop() ?? `exit code ${code}`;
  throw new CliUnavailableError(
    installMessage(`Could not fetch the Pulumi CLI v${pinned.version} (the \`pulumi\` npm package said: ${reason}).`, command),
  );
}

module.exports = { findPulumi, CliUnavailableError, cachedCliPath, isNpmWrapper };
