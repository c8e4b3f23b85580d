#!/usr/bin/env node
// @ts-check
/**
 * `npm run up | preview | refresh | destroy [-- <example>] [pulumi arguments]`: runs the
 * Pulumi CLI on an example (default `quickstart`) against the local emulator.
 * `npm run pulumi -- [<example>] <any pulumi command>` runs any other CLI command on the
 * same stack (`npm run pulumi -- stack output password --show-secrets`).
 *
 * 1. Finds the CLI (scripts/lib/pulumi-cli.js): a `pulumi` on PATH first, else the one
 *    `npm run pulumi:build` builds from its Go modules (built once, with `go`, when it
 *    is not yet), run with its language hosts first on PATH; else says what to install.
 * 2. Reuses the recorded emulator if it answers, else starts one in the background
 *    (scripts/lib/emulator.js). CLOUDDB_API_URL, CLOUDDB_API_KEY and CLOUDDB_PROJECT_ID
 *    point at another API instead.
 * 3. Uses a file backend (`<work dir>/state`) and a passphrase: nothing to sign into.
 * 4. Selects (or creates) the stack, sets `clouddb:apiUrl`, `clouddb:projectId` and
 *    `clouddb:apiKey` (as a secret, through standard input), then runs the command.
 *
 * Knobs: CLOUDDB_WORK_DIR (default `.clouddb` here), CLOUDDB_STACK (default `local`),
 * PULUMI_CONFIG_PASSPHRASE (default `clouddb-local`), CLOUDDB_CLOCK_SCALE (default 0.2),
 * CLOUDDB_EMULATOR_PROJECT (default `quickstart`), PULUMI_HOME (the CLI's cache),
 * CLOUDDB_PULUMI_TOOLS_DIR (where the CLI is built, default `.tools/pulumi` here).
 * `npm run emulator:env` prints the API's CLOUDDB_* variables as shell `export` lines
 * (starting the emulator if none runs); `npm run emulator:stop` stops it.
 */
"use strict";
const { spawnSync } = require("child_process");
const fs = require("fs");
const path = require("path");
const { apiTarget, stop } = require("./lib/emulator");
const { examples, pickProject, UnknownExampleError } = require("./lib/projects");
const { CliUnavailableError, findPulumi } = require("./lib/pulumi-cli");

const root = path.resolve(__dirname, "..");
/** @type {Record<string, string[]>} the pulumi arguments of each command */
const COMMANDS = { up: ["up", "--yes"], preview: ["preview"], refresh: ["refresh", "--yes"], destroy: ["destroy", "--yes"], pulumi: [] };
/** The passphrase of the local stacks when PULUMI_CONFIG_PASSPHRASE is unset. */
const DEFAULT_PASSPHRASE = "clouddb-local";

/** @param {string} line */
function say(line) {
  process.stderr.write(`${line}\n`);
}

/**
 * @param {string} message
 * @returns {never}
 */
function fail(message) {
  say(message);
  process.exit(1);
}

/**
 * Runs the CLI; exits with its status when it fails, unless `allowFailure`. `input` goes
 * to its standard input (how a secret value is passed: never as an argument).
 * @param {string} cli
 * @param {string[]} args
 * @param {{ cwd: string, env: NodeJS.ProcessEnv, quiet?: boolean, allowFailure?: boolean, input?: string }} opts
 */
function pulumi(cli, args, opts) {
  const out = opts.quiet ? "pipe" : "inherit";
  const result = spawnSync(cli, args, {
    cwd: opts.cwd,
    env: opts.env,
    stdio: [opts.input === undefined ? "inherit" : "pipe", out, out],
    ...(opts.input === undefined ? {} : { input: opts.input }),
  });
  if (result.error) fail(`Could not run ${cli}: ${result.error.message}`);
  if (result.status !== 0 && !opts.allowFailure) process.exit(result.status ?? 1);
  return result;
}

/**
 * Prints `export KEY='value'` lines of the API target, for `eval "$(npm run --silent emulator:env)"`.
 * @param {import("./lib/emulator").ApiTarget} target
 */
function printEnv(target) {
  for (const key of /** @type {const} */ (["CLOUDDB_API_URL", "CLOUDDB_API_KEY", "CLOUDDB_PROJECT_ID"])) {
    process.stdout.write(`export ${key}='${target[key].replace(/'/g, "'\\''")}'\n`);
  }
}

async function main() {
  const [command, ...extra] = process.argv.slice(2);
  const work = path.resolve(process.env.CLOUDDB_WORK_DIR || path.join(root, ".clouddb"));
  if (command === "emulator:stop") return stop(work, say);
  if (command === "emulator:env") return printEnv(await apiTarget(root, work, process.env, say));
  const base = command === undefined ? undefined : COMMANDS[command];
  if (base === undefined) {
    fail(
      `usage: node scripts/stack.js ${Object.keys(COMMANDS).join("|")}|emulator:env|emulator:stop [example] [pulumi arguments]\n` +
        `examples: ${examples(root).join(", ")}`,
    );
  }
  let project;
  try {
    project = pickProject(root, extra, command !== "pulumi");
  } catch (e) {
    if (e instanceof UnknownExampleError) fail(`npm run ${command}: ${e.message}`);
    throw e;
  }
  if (command === "pulumi" && project.rest.length === 0) fail("usage: npm run pulumi -- [example] <pulumi command>");

  let found;
  try {
    found = await findPulumi({ root, command, env: process.env, say });
  } catch (e) {
    if (e instanceof CliUnavailableError) fail(e.message);
    throw e;
  }
  const target = await apiTarget(root, work, process.env, say);
  fs.mkdirSync(path.join(work, "state"), { recursive: true });
  const cli = found.cli;
  const env = {
    ...process.env,
    // The CLI we built finds its language hosts, the python host its exec script, on PATH.
    ...(found.binDir === undefined ? {} : { PATH: [found.binDir, process.env.PATH ?? ""].join(path.delimiter) }),
    PULUMI_BACKEND_URL: `file://${path.join(work, "state")}`,
    PULUMI_CONFIG_PASSPHRASE: process.env.PULUMI_CONFIG_PASSPHRASE ?? DEFAULT_PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
  };
  const opts = { cwd: project.dir, env };
  const stack = process.env.CLOUDDB_STACK || "local";
  if (pulumi(cli, ["stack", "select", stack], { ...opts, quiet: true, allowFailure: true }).status !== 0) {
    pulumi(cli, ["stack", "init", stack], opts);
  }
  pulumi(cli, ["config", "set", "clouddb:apiUrl", target.CLOUDDB_API_URL], opts);
  pulumi(cli, ["config", "set", "clouddb:projectId", target.CLOUDDB_PROJECT_ID], opts);
  pulumi(cli, ["config", "set", "--secret", "clouddb:apiKey"], { ...opts, input: target.CLOUDDB_API_KEY });
  pulumi(cli, [...base, ...project.rest], opts);
}

main().catch((e) => fail(`npm run: ${e instanceof Error ? e.message : String(e)}`));
