/**
 * The test tiers, named once: which suites keep the real dynamic-provider plugin process
 * because their subject is a process (kills, orphans, one process per run, what a failed run
 * leaves, the emulator restarting) or what only the plugin shows (the serialized trampolines
 * resolving the installed package, the 0.1.0 upgrade, the examples as the CLI runs them, the
 * provider's compile cache). `npm test` runs every other suite, most of them with the
 * provider in process (harness/inProcessHost.ts); `npm run test:plugin` runs these.
 */
"use strict";

/** Paths below the repository root: a folder (ends with `/`) or a file. */
const PLUGIN_HOST_SUITES = [
  "tests/examples/",
  "tests/upgrade/",
  "tests/sdk/trampoline.test.ts",
  "tests/harness/lifecycle.test.ts",
  "tests/harness/leftovers.test.ts",
  "tests/resilience/pluginKill.test.ts",
  "tests/resilience/interruptedCreates.test.ts",
  "tests/resilience/journal.test.ts",
  "tests/resilience/endpointSpellings.test.ts",
  "tests/resilience/emulatorRestart.test.ts",
  "tests/resilience/secretSizes.test.ts",
  "tests/resilience/engineGone.test.ts",
  "tests/providers/compileCache.test.ts",
];

module.exports = { PLUGIN_HOST_SUITES };
