// @ts-check
/**
 * The background emulator of `npm run up` and friends: reused while the one recorded in
 * `<work dir>/emulator.json` still answers, else started (detached, persistent in
 * `<work dir>/emulator-data`, its log in `<work dir>/emulator.log`), and stopped by
 * `npm run emulator:stop`.
 */
"use strict";
const { spawn, spawnSync } = require("child_process");
const fs = require("fs");
const path = require("path");

/**
 * What the scripts need to reach an API: the emulator's printed `KEY=value` lines, or
 * the CLOUDDB_* variables of a real API.
 * @typedef {object} ApiTarget
 * @property {string} CLOUDDB_API_URL
 * @property {string} CLOUDDB_API_KEY
 * @property {string} CLOUDDB_PROJECT_ID
 * @property {string} [CLOUDDB_EMULATOR_URL] set for the emulator
 * @property {number} [pid] the emulator's process id
 */

/**
 * True when the API at `api` answers `GET /auth/info` within 2 s.
 * @param {ApiTarget} api
 */
async function answers(api) {
  try {
    const res = await fetch(`${api.CLOUDDB_API_URL}/auth/info`, {
      headers: { authorization: `Bearer ${api.CLOUDDB_API_KEY}` },
      signal: AbortSignal.timeout(2000),
    });
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * `KEY=value` lines as an object.
 * @param {string} text
 * @returns {Record<string, string>}
 */
function keyValues(text) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const line of text.split("\n")) {
    const eq = line.indexOf("=");
    if (eq > 0) out[line.slice(0, eq)] = line.slice(eq + 1).trim();
  }
  return out;
}

/**
 * The emulator failed to start; `said` is what it wrote to its log this time.
 */
class EmulatorStartError extends Error {
  /**
   * @param {string} message
   * @param {string} said
   */
  constructor(message, said) {
    super(message);
    this.name = "EmulatorStartError";
    this.said = said;
  }
}

/**
 * True when a real PostgreSQL can be put behind the emulator's services: it is installed and
 * CLOUDDB_EMULATOR_POSTGRES is not `0`.
 * @param {string} root repository root
 * @param {NodeJS.ProcessEnv} env
 */
function postgresWanted(root, env) {
  // The emulator's entry point no longer exports the lookup (it is not for users): its module is required directly.
  return (
    env.CLOUDDB_EMULATOR_POSTGRES !== "0" &&
    Boolean(require(path.join(root, "dist", "emulator", "postgres", "binaries.js")).findPostgresBinaries())
  );
}

/**
 * Starts the emulator in the background and records it in `<work>/emulator.json`.
 * @param {string} root repository root
 * @param {string} work work directory
 * @param {NodeJS.ProcessEnv} env CLOUDDB_CLOCK_SCALE, CLOUDDB_EMULATOR_PROJECT
 * @param {boolean} postgres whether a real PostgreSQL runs behind every service
 * @returns {Promise<ApiTarget>}
 */
function start(root, work, env, postgres) {
  const cli = path.join(root, "dist", "emulator", "cli.js");
  if (!fs.existsSync(cli)) {
    const built = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
    if (built.status !== 0) throw new Error("npm run build failed; fix the build, then run this again.");
  }
  const args = [
    cli,
    "--port",
    "0",
    "--project-id",
    env.CLOUDDB_EMULATOR_PROJECT ?? "quickstart",
    "--data-dir",
    path.join(work, "emulator-data"),
    "--clock-scale",
    env.CLOUDDB_CLOCK_SCALE ?? "0.2",
  ];
  if (postgres) args.push("--postgres");
  const logFile = path.join(work, "emulator.log");
  const logStart = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
  /** What the emulator wrote to its log since this start. */
  const said = () => fs.readFileSync(logFile, "utf8").slice(logStart).trim();
  const log = fs.openSync(logFile, "a");
  const child = spawn(process.execPath, args, { detached: true, stdio: ["ignore", "pipe", log] });
  fs.closeSync(log);
  const stdout = /** @type {import("stream").Readable} */ (child.stdout);
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(
      () => reject(new EmulatorStartError(`the emulator did not start within 10 s; see ${logFile}`, said())),
      10_000,
    );
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new EmulatorStartError(`the emulator exited with code ${code}; see ${logFile}`, said()));
    });
    stdout.on("data", (chunk) => {
      out += chunk;
      const api = keyValues(out);
      if (!api.CLOUDDB_API_URL || !api.CLOUDDB_API_KEY || !api.CLOUDDB_PROJECT_ID || !api.CLOUDDB_EMULATOR_URL) return;
      clearTimeout(timer);
      child.removeAllListeners("exit");
      stdout.destroy();
      child.unref();
      /** @type {ApiTarget} */
      const target = {
        CLOUDDB_API_URL: api.CLOUDDB_API_URL,
        CLOUDDB_API_KEY: api.CLOUDDB_API_KEY,
        CLOUDDB_PROJECT_ID: api.CLOUDDB_PROJECT_ID,
        CLOUDDB_EMULATOR_URL: api.CLOUDDB_EMULATOR_URL,
      };
      if (child.pid !== undefined) target.pid = child.pid;
      fs.writeFileSync(path.join(work, "emulator.json"), `${JSON.stringify(target, null, 2)}\n`);
      resolve(target);
    });
  });
}

/**
 * The API to deploy to: CLOUDDB_API_URL, CLOUDDB_API_KEY and CLOUDDB_PROJECT_ID when all
 * are set, else the recorded emulator if it answers, else a newly started one.
 * @param {string} root repository root
 * @param {string} work work directory
 * @param {NodeJS.ProcessEnv} env
 * @param {(line: string) => void} say
 * @returns {Promise<ApiTarget>}
 */
async function apiTarget(root, work, env, say) {
  if (env.CLOUDDB_API_URL && env.CLOUDDB_API_KEY && env.CLOUDDB_PROJECT_ID) {
    return { CLOUDDB_API_URL: env.CLOUDDB_API_URL, CLOUDDB_API_KEY: env.CLOUDDB_API_KEY, CLOUDDB_PROJECT_ID: env.CLOUDDB_PROJECT_ID };
  }
  fs.mkdirSync(work, { recursive: true });
  const recorded = path.join(work, "emulator.json");
  if (fs.existsSync(recorded)) {
    /** @type {ApiTarget} */
    const known = JSON.parse(fs.readFileSync(recorded, "utf8"));
    if (await answers(known)) return known;
  }
  let started;
  try {
    started = await start(root, work, env, postgresWanted(root, env));
  } catch (e) {
    // PostgreSQL behind the services is a nicety of the emulator: the main job runs without it.
    if (!(e instanceof EmulatorStartError) || !/PostgreSQL/.test(e.said)) throw e;
    const why =
      e.said
        .split("\n")
        .filter((l) => /PostgreSQL/.test(l))
        .pop() ?? e.said;
    say(`The emulator could not run PostgreSQL behind its services: ${why.replace(/^clouddb-emulator:\s*/, "")}`);
    say(
      "It runs without it: the API answers the same, only no database listens at a service's host and port (CLOUDDB_EMULATOR_POSTGRES=0 skips the attempt).",
    );
    started = await start(root, work, env, false);
  }
  say(`Started the emulator at ${started.CLOUDDB_EMULATOR_URL} (pid ${started.pid}); \`npm run emulator:stop\` stops it.`);
  return started;
}

/**
 * Stops the recorded emulator, if any.
 * @param {string} work work directory
 * @param {(line: string) => void} say
 */
function stop(work, say) {
  const recorded = path.join(work, "emulator.json");
  if (!fs.existsSync(recorded)) {
    say(`No emulator recorded in ${recorded}.`);
    return;
  }
  const { pid } = JSON.parse(fs.readFileSync(recorded, "utf8"));
  try {
    process.kill(pid, "SIGTERM");
    say(`Stopped the emulator (pid ${pid}).`);
  } catch {
    say(`The emulator (pid ${pid}) was not running.`);
  }
  fs.rmSync(recorded, { force: true });
}

module.exports = { apiTarget, stop };
