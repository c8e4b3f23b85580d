/**
 * Jest reporter: names each test file whose tests were all skipped, with what the file
 * printed about it. A suite that cannot run on this machine says why when it loads (the
 * real-CLI suites without the Pulumi tools built: "skipped: the Pulumi CLI is not built..."), but Jest's default reporter prints neither the name nor the console output of
 * a file whose tests were all skipped, so the run would be silent about it.
 */
"use strict";
const path = require("path");

class SkippedSuites {
  /** @param {{ rootDir: string }} globalConfig */
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  /**
   * @param {unknown} _test
   * @param {{ skipped: boolean, testFilePath: string, numPendingTests: number, console?: { message: string }[] }} result
   */
  onTestResult(_test, result) {
    if (!result.skipped) return;
    const said = (result.console ?? []).map((entry) => entry.message.replace(/^skipped:\s*/i, "")).join("; ");
    const tests = `${result.numPendingTests} test${result.numPendingTests === 1 ? "" : "s"}`;
    process.stderr.write(
      `Skipped ${path.relative(this.rootDir, result.testFilePath)} (${tests}): ${said || "its tests are marked to skip"}\n`,
    );
  }
}

module.exports = SkippedSuites;
