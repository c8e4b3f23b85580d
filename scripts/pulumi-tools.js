#!/usr/bin/env node
// @ts-check
/**
 * `npm run pulumi:build`: builds the Pulumi CLI and its language hosts from their Go
 * modules (versions in tools/pulumi/versions.json) into `.tools/pulumi/<key>/`, once per
 * set of pins, with the Java language host (tools/pulumi/java.json, scripts/lib/pulumi-java.js)
 * linked into its bin/, and prints the folder to put on PATH:
 *
 *   export PATH="$(npm run --silent pulumi:build):$PATH"
 *
 * `npm run pulumi:gen-sdk -- <schema> --language nodejs|python|go --out <dir> [flags]`:
 * `pulumi package gen-sdk` with our SDK generator (tools/pulumi/codegen-host) as the
 * language host, building the tools first when needed.
 *
 * Progress goes to standard error; a failure exits with 1 and says why.
 */
"use strict";
const { spawnSync } = require("child_process");
const path = require("path");
const { buildJavaHost } = require("./lib/pulumi-java");
const { buildTools, ToolsBuildError } = require("./lib/pulumi-tools");
const { say } = require("./lib/run");

const root = path.resolve(__dirname, "..");

/**
 * @param {string} message
 * @returns {never}
 */
function fail(message) {
  say(message);
  process.exit(1);
}

async function main() {
  const [command = "build", ...args] = process.argv.slice(2);
  if (command !== "build" && command !== "gen-sdk") {
    fail("usage: node scripts/pulumi-tools.js build | gen-sdk <schema> --language nodejs|python|go --out <dir> [gen-sdk flags]");
  }
  let tools;
  try {
    tools = await buildTools({ root, env: process.env, say });
    // The Java host (tools/pulumi/java.json), linked into the same bin/.
    await buildJavaHost({ root, env: process.env, say, bin: tools.bin });
  } catch (e) {
    if (e instanceof ToolsBuildError) fail(`Could not build the Pulumi tools: ${e.message}`);
    throw e;
  }
  if (command === "build") {
    process.stdout.write(`${tools.bin}\n`);
    return;
  }
  // The CLI takes a language host from PATH before the one beside it: the generator goes first.
  const env = {
    ...process.env,
    PATH: [tools.codegen, tools.bin, process.env.PATH ?? ""].join(path.delimiter),
    PULUMI_SKIP_UPDATE_CHECK: "true",
  };
  const result = spawnSync(path.join(tools.codegen, "pulumi"), ["package", "gen-sdk", ...args], { env, stdio: "inherit" });
  if (result.error) fail(`Could not run ${path.join(tools.codegen, "pulumi")}: ${result.error.message}`);
  process.exit(result.status ?? 1);
}

main().catch((e) => fail(`pulumi-tools: ${e instanceof Error ? e.message : String(e)}`));
