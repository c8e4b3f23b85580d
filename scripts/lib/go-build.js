// @ts-check
/**
 * What the builds of Go tools share (the Pulumi tools, scripts/lib/pulumi-tools.js; the Java
 * language host, scripts/lib/pulumi-java.js): finding and running `go`, writing the Go module
 * a build requires its pins in, and a folder keyed by the pins that appears whole or not at all:
 *
 *   <base>/<prefix><key>.partial-<pid>/   where one build works ({@link startBuild})
 *   <base>/<prefix><key>/stamp.json       written last, then the folder renamed into place
 *                                         ({@link finishBuild}): the build is complete
 *
 * Safe to run twice at once: each build works in a folder of its own and the first to finish
 * is kept; the folders of other keys, and builds whose process is gone, are removed.
 */
"use strict";
const { spawn } = require("child_process");
const crypto = require("crypto");
const fs = require("fs");
const path = require("path");

/** Thrown when the tools cannot be built; the message says why. */
class ToolsBuildError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "ToolsBuildError";
  }
}

/** @param {unknown} v */
function isVersion(v) {
  return typeof v === "string" && /^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(v);
}

/**
 * The key of a build: a hash of its recipe number and the files it is built from (12 hex digits).
 * @param {number} recipe
 * @param {string[]} files
 */
function buildKey(recipe, files) {
  const hash = crypto.createHash("sha256");
  hash.update(`recipe ${recipe}\n`);
  for (const file of files) hash.update(fs.readFileSync(file));
  return hash.digest("hex").slice(0, 12);
}

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
 * The first `go` on PATH, if any.
 * @param {NodeJS.ProcessEnv} env
 */
function findGo(env) {
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (dir === "") continue;
    const candidate = path.join(dir, "go");
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Runs `go`; resolves with its output, rejects with its last lines (the whole output goes to `log`).
 * @param {string} go
 * @param {string[]} args
 * @param {{ cwd: string, env: NodeJS.ProcessEnv, log: string }} opts
 * @returns {Promise<string>} standard output
 */
function runGo(go, args, opts) {
  return new Promise((resolve, reject) => {
    fs.appendFileSync(opts.log, `\n$ go ${args.join(" ")}    (in ${opts.cwd})\n`);
    const child = spawn(go, args, { cwd: opts.cwd, env: opts.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d) => {
      stderr += d;
      fs.appendFileSync(opts.log, d);
    });
    child.on("error", (e) => reject(new ToolsBuildError(`could not run ${go}: ${e.message}`)));
    child.on("close", (code) => {
      fs.appendFileSync(opts.log, stdout);
      if (code === 0) return resolve(stdout);
      const tail = stderr.trim().split("\n").slice(-15).join("\n");
      reject(new ToolsBuildError(`\`go ${args.join(" ")}\` failed (exit code ${code}):\n${tail}\nThe whole output: ${opts.log}`));
    });
  });
}

/**
 * The environment a build runs `go` in (the Go on PATH alone, no workspace, no cgo, modules
 * resolved as go.mod asks), and that Go's version.
 * @param {string} go
 * @param {NodeJS.ProcessEnv} env
 * @param {{ cwd: string, log: string }} opts
 * @returns {Promise<{ goEnv: NodeJS.ProcessEnv, goVersion: string, goMinor: string }>} goMinor: the major.minor of go.mod's `go` directive
 */
async function goSetup(go, env, opts) {
  const goEnv = { ...env, GOTOOLCHAIN: "local", GOWORK: "off", CGO_ENABLED: "0", GOFLAGS: `${env.GOFLAGS ?? ""} -mod=mod`.trim() };
  const goVersion = (await runGo(go, ["env", "GOVERSION"], { ...opts, env: goEnv })).trim();
  const goMinor = /^go(\d+\.\d+)/.exec(goVersion)?.[1];
  if (goMinor === undefined) throw new ToolsBuildError(`could not read the version of ${go} ("${goVersion}")`);
  return { goEnv, goVersion, goMinor };
}

/** @param {number} ms */
function duration(ms) {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/**
 * Writes a Go module of ours that requires `require` (module → version) with `replace`
 * (module → "module version"), at `dir`.
 * @param {string} dir
 * @param {string} name
 * @param {string} goVersion the `go` directive (the running Go's major.minor)
 * @param {Record<string, string>} require
 * @param {Record<string, string>} replace
 */
function writeModule(dir, name, goVersion, require, replace) {
  fs.mkdirSync(dir, { recursive: true });
  const lines = [
    "// Made by scripts/lib/pulumi-tools.js from tools/pulumi/versions.json.",
    `module clouddb.local/pulumi-tools/${name}`,
    "",
    `go ${goVersion}`,
    "",
  ];
  lines.push("require (", ...Object.entries(require).map(([m, v]) => `\t${m} ${v}`), ")", "");
  for (const [from, to] of Object.entries(replace)) lines.push(`replace ${from} => ${to}`);
  fs.writeFileSync(path.join(dir, "go.mod"), `${lines.join("\n")}\n`);
}

/**
 * Starts a build that will become `final`: a fresh folder of this process beside it, with
 * `dirs` (relative) made in it and an empty build log.
 * @param {string} final
 * @param {string[]} dirs
 * @returns {{ work: string, log: string }}
 */
function startBuild(final, dirs) {
  const work = `${final}.partial-${process.pid}`;
  fs.rmSync(work, { recursive: true, force: true });
  for (const d of dirs) fs.mkdirSync(path.join(work, d), { recursive: true });
  const log = path.join(work, "build.log");
  fs.writeFileSync(log, "");
  return { work, log };
}

/**
 * Ends a build: writes `stamp` to its stamp.json, puts the folder in place of `final` (unless
 * another build of the same key finished first: that one is kept), and removes the folders of
 * other keys of `prefix` and the builds that stopped half-way.
 * @param {{ work: string, final: string, prefix: string, stamp: object, isBuilt: () => boolean }} opts
 *   isBuilt: whether `final` holds a complete build
 */
function finishBuild(opts) {
  const { work, final, prefix, stamp, isBuilt } = opts;
  fs.writeFileSync(path.join(work, "stamp.json"), `${JSON.stringify(stamp, null, 2)}\n`);
  // A folder of this key that is not complete (a tool removed by hand) gives way.
  if (fs.existsSync(final) && !isBuilt()) fs.rmSync(final, { recursive: true, force: true });
  try {
    fs.renameSync(work, final);
  } catch (e) {
    // Another build of the same key finished first: keep that one.
    if (!isBuilt()) throw e;
    fs.rmSync(work, { recursive: true, force: true });
  }
  removeStale(path.dirname(final), prefix, path.basename(final));
}

/**
 * Removes the builds of `prefix` other than `keep`, and those that stopped half-way.
 * @param {string} base
 * @param {string} prefix
 * @param {string} keep
 */
function removeStale(base, prefix, keep) {
  const done = new RegExp(`^${prefix}[0-9a-f]{12}$`);
  const partial = new RegExp(`^${prefix}[0-9a-f]{12}\\.partial-(\\d+)$`);
  for (const name of fs.readdirSync(base)) {
    const half = partial.exec(name);
    const stale = half !== null ? !isAlive(Number(half[1])) : done.test(name) && name !== keep;
    if (stale) fs.rmSync(path.join(base, name), { recursive: true, force: true });
  }
}

/** @param {number} pid */
function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

module.exports = {
  buildKey,
  duration,
  findGo,
  finishBuild,
  goSetup,
  isExecutable,
  isVersion,
  runGo,
  startBuild,
  writeModule,
  ToolsBuildError,
};
