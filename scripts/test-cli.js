#!/usr/bin/env node
// @ts-check
/**
 * `npm run test:cli`: the real-CLI tier. Builds the Pulumi CLI from its Go modules when it is
 * not built yet (scripts/pulumi-tools.js), then runs with jest, on that CLI:
 *
 * - tests/cli: what only the CLI as a user runs it shows (the examples as projects on disk
 *   through the Node.js language host; the CLI killed or interrupted mid-create);
 * - the engine's rules, checked against the engine itself: the harness's own suites and the
 *   suites of the scenarios users hit, with `CLOUDDB_ENGINE=cli` (every `TestStack` of them
 *   is a stack of the real CLI: harness/cli/cliStack.ts);
 * - the parity suite (tests/harness/parity.test.ts): a dozen scenarios run in process, in the
 *   plugin process and on the CLI, with the same steps, state and messages.
 *
 * `CLOUDDB_REQUIRE_PULUMI=1` is set: a suite fails, rather than skips, without the CLI.
 * Extra arguments go to jest (`npm run test:cli -- tests/cli/examples.test.ts`).
 */
"use strict";
const { spawnSync } = require("child_process");
const path = require("path");
const { buildTools, ToolsBuildError } = require("./lib/pulumi-tools");

const root = path.resolve(__dirname, "..");

/**
 * The suites run on the CLI: the harness's rules and the scenarios users hit. (The model's
 * import suite loads the printed program in an isolated module registry, a second
 * @pulumi/pulumi the Automation API cannot run: tests/cli/importFlow.test.ts runs that flow
 * as a user does.)
 */
const SUITES = [
  "tests/cli/",
  "tests/harness/steps.test.ts",
  "tests/harness/lifecycle.test.ts",
  "tests/harness/engineOptions.test.ts",
  "tests/harness/parity.test.ts",
  "tests/providers/adoption.test.ts",
  "tests/providers/engineRules.test.ts",
  "tests/providers/pulumiOptions.test.ts",
  "tests/providers/configuration.test.ts",
  "tests/providers/refreshInputs.test.ts",
  "tests/resilience/retriedCreates.test.ts",
  "tests/resilience/unreadableValues.test.ts",
  "tests/resilience/transientCreates.test.ts",
  "tests/resilience/endpointSpellings.test.ts",
  "tests/upgrade",
];

async function main() {
  try {
    await buildTools({ root, env: process.env, say: (line) => process.stderr.write(`${line}\n`) });
  } catch (e) {
    if (e instanceof ToolsBuildError) {
      process.stderr.write(`npm run test:cli: could not build the Pulumi CLI: ${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
  const args = process.argv.slice(2);
  const jest = require.resolve("jest/bin/jest", { paths: [root] });
  const r = spawnSync(
    process.execPath,
    [jest, ...(args.length > 0 ? args : SUITES), "--testTimeout=400000", "--maxWorkers=2", "--testPathIgnorePatterns", "/node_modules/"],
    { cwd: root, stdio: "inherit", env: { ...process.env, CLOUDDB_ENGINE: "cli", CLOUDDB_REQUIRE_PULUMI: "1" } },
  );
  process.exit(r.status ?? 1);
}

main().catch((e) => {
  process.stderr.write(`npm run test:cli: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
