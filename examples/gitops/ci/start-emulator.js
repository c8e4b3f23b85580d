#!/usr/bin/env node
// @ts-check
/**
 * CI step: starts the CloudDB emulator (from the installed `pulumi-clouddb`) in the
 * background on a free port, and hands CLOUDDB_API_URL, CLOUDDB_API_KEY,
 * CLOUDDB_PROJECT_ID, CLOUDDB_EMULATOR_URL and CLOUDDB_EMULATOR_PID to the later steps of
 * the job through the file named by $GITHUB_ENV. The provider reads the CLOUDDB_*
 * variables when the stack sets no `clouddb:*` config, so `pulumi preview`/`up` reach the
 * emulator without any config. CLOUDDB_CLOCK_SCALE (default 0.05) speeds it up; its log
 * goes to $RUNNER_TEMP/clouddb-emulator.log.
 *
 * This script sits in `ci/` beside the Pulumi project, which may be anywhere in the
 * repository: `pulumi-clouddb` is looked up from that project (the folder above this one),
 * then from the working directory.
 */
"use strict";
const { spawn } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");

const KEYS = ["CLOUDDB_API_URL", "CLOUDDB_API_KEY", "CLOUDDB_PROJECT_ID", "CLOUDDB_EMULATOR_URL"];

/**
 * @param {string} message
 * @returns {never}
 */
function fail(message) {
  process.stderr.write(`start-emulator: ${message}\n`);
  process.exit(1);
}

const githubEnv = process.env.GITHUB_ENV;
if (!githubEnv) fail("GITHUB_ENV is not set: run this as a step of a GitHub Actions job.");
const project = path.resolve(__dirname, "..");
/** @type {string} */
let manifest;
try {
  manifest = require.resolve("pulumi-clouddb/package.json", { paths: [project, process.cwd()] });
} catch {
  fail(
    `pulumi-clouddb is not installed in ${project} (the Pulumi project beside this script) nor in ${process.cwd()}: ` +
      "run `npm ci` in the project's directory before this step (with `working-directory:` when it is in a subfolder).",
  );
}
const bin = path.join(path.dirname(manifest), JSON.parse(fs.readFileSync(manifest, "utf8")).bin["clouddb-emulator"]);
const logFile = path.join(process.env.RUNNER_TEMP || os.tmpdir(), "clouddb-emulator.log");
const log = fs.openSync(logFile, "a");
const child = spawn(process.execPath, [bin, "--port", "0", "--clock-scale", process.env.CLOUDDB_CLOCK_SCALE || "0.05"], {
  detached: true,
  stdio: ["ignore", "pipe", log],
});
fs.closeSync(log);
const stdout = /** @type {import("stream").Readable} */ (child.stdout);
const timer = setTimeout(() => fail(`the emulator did not start within 10 s; see ${logFile}`), 10_000);
child.on("exit", (code) => fail(`the emulator exited with code ${code}; see ${logFile}`));
let printed = "";
stdout.setEncoding("utf8").on("data", (chunk) => {
  printed += chunk;
  /** @type {Record<string, string>} */
  const values = {};
  for (const line of printed.split("\n")) {
    const eq = line.indexOf("=");
    if (eq > 0) values[line.slice(0, eq)] = line.slice(eq + 1).trim();
  }
  if (!KEYS.every((k) => values[k])) return;
  clearTimeout(timer);
  child.removeAllListeners("exit");
  stdout.destroy();
  child.unref();
  // Keep the key out of the job's log (a real API key would be a secret).
  process.stdout.write(`::add-mask::${values.CLOUDDB_API_KEY}\n`);
  const lines = [...KEYS.map((k) => `${k}=${values[k]}`), `CLOUDDB_EMULATOR_PID=${child.pid}`];
  fs.appendFileSync(githubEnv, `${lines.join("\n")}\n`);
  process.stdout.write(`CloudDB emulator at ${values.CLOUDDB_API_URL} (pid ${child.pid}); log: ${logFile}\n`);
});
