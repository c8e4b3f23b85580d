// @ts-check
/**
 * Builds Pulumi's Java language host (`pulumi-language-java`, from the Go module of
 * pulumi/pulumi-java, pinned in tools/pulumi/java.json) beside the tools of
 * tools/pulumi/versions.json (scripts/lib/pulumi-tools.js), and links it into their `bin/`,
 * so that the one folder `npm run pulumi:build` prints runs Java programs too:
 *
 *   .tools/pulumi/java-<key>/pulumi-language-java   the host (<key> hashes java.json and RECIPE)
 *   .tools/pulumi/java-<key>/stamp.json             written last: the host is complete
 *   .tools/pulumi/<tools key>/bin/pulumi-language-java   a relative link to the host
 *
 * Pinned apart from versions.json so that a change of the Java pin rebuilds this host alone
 * (about 1.5 minutes), never the CLI; the CLI's cache is only ever added to (the link).
 */
"use strict";
const fs = require("fs");
const path = require("path");
const {
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
} = require("./go-build");
const { toolsRoot } = require("./pulumi-tools");

/** Bump when the way the host is built changes (the key changes with it). */
const RECIPE = 1;
const JAVA_PINS_FILE = path.join("tools", "pulumi", "java.json");
const HOST = "pulumi-language-java";

/**
 * @typedef {object} JavaPins
 * @property {string} module the Go module carrying the host (github.com/pulumi/pulumi-java/pkg)
 * @property {string} version its version
 * @property {Record<string, string>} [replace] module → "module version"
 */

/**
 * The Java pin, checked.
 * @param {string} root
 * @returns {JavaPins}
 */
function readJavaPins(root) {
  /** @type {any} */
  const pins = JSON.parse(fs.readFileSync(path.join(root, JAVA_PINS_FILE), "utf8"));
  const bad = (/** @type {string} */ what) => new ToolsBuildError(`${JAVA_PINS_FILE}: ${what}`);
  if (typeof pins?.module !== "string" || !/^[\w.-]+(\/[\w.-]+)+$/.test(pins.module)) throw bad("module must be a Go module path");
  if (!isVersion(pins.version)) throw bad("version must be a Go module version such as v1.13.0");
  for (const [from, to] of Object.entries(pins.replace ?? {})) {
    if (typeof to !== "string" || !/^\S+ v\S+$/.test(to)) throw bad(`replace["${from}"] must read "<module> <version>"`);
  }
  return pins;
}

/**
 * The folder of the pinned Java host.
 * @param {string} root
 * @param {NodeJS.ProcessEnv} env
 */
function javaDir(root, env) {
  return path.join(toolsRoot(root, env), `java-${buildKey(RECIPE, [path.join(root, JAVA_PINS_FILE)])}`);
}

/**
 * The pinned Java host when it is built, else undefined.
 * @param {string} root
 * @param {NodeJS.ProcessEnv} env
 * @returns {string | undefined} its executable
 */
function builtJavaHost(root, env) {
  const dir = javaDir(root, env);
  const host = path.join(dir, HOST);
  if (!fs.existsSync(path.join(dir, "stamp.json")) || !isExecutable(host)) return undefined;
  return host;
}

/**
 * Links `host` into `bin` as pulumi-language-java (a relative link, replaced whole).
 * @param {string} host
 * @param {string} bin
 */
function linkInto(host, bin) {
  const link = path.join(bin, HOST);
  const target = path.relative(bin, host);
  try {
    if (fs.readlinkSync(link) === target) return;
  } catch {
    // no link yet, or not a link
  }
  const temp = `${link}.link-${process.pid}`;
  fs.rmSync(temp, { force: true });
  fs.symlinkSync(target, temp);
  fs.renameSync(temp, link);
}

/**
 * Builds the pinned Java host unless it is built, and links it into `bin` (the tools' `bin/`).
 * Safe to run twice at once: each build works in a folder of its own, the first to finish is kept.
 * @param {{ root: string, env: NodeJS.ProcessEnv, say: (line: string) => void, bin: string, go?: string }} opts
 * @returns {Promise<string>} the host's executable
 */
async function buildJavaHost(opts) {
  const { root, env, say, bin } = opts;
  const already = builtJavaHost(root, env);
  if (already !== undefined) {
    linkInto(already, bin);
    return already;
  }
  const pins = readJavaPins(root);
  const go = opts.go ?? findGo(env);
  if (go === undefined) throw new ToolsBuildError("`go` is not on PATH: the Java language host is built with Go 1.26 or later.");
  const final = javaDir(root, env);
  const { work, log } = startBuild(final, ["src"]);
  const src = path.join(work, "src");
  const { goEnv, goVersion, goMinor } = await goSetup(go, env, { cwd: src, log });
  writeModule(src, "java", goMinor, { [pins.module]: pins.version }, pins.replace ?? {});
  const started = Date.now();
  say(`building ${HOST} from ${pins.module} ${pins.version} (about 1.5 minutes)...`);
  await runGo(
    go,
    [
      "build",
      "-trimpath",
      "-ldflags",
      `-s -w -X ${pins.module}/version.Version=${pins.version}`,
      "-o",
      path.join(work, HOST),
      `${pins.module}/cmd/${HOST}`,
    ],
    { cwd: src, env: goEnv, log },
  );
  const seconds = Math.round((Date.now() - started) / 1000);
  say(`  done in ${duration(Date.now() - started)}`);
  const stamp = { pins, go: goVersion, builtAt: new Date().toISOString(), seconds };
  finishBuild({ work, final, prefix: "java-", stamp, isBuilt: () => builtJavaHost(root, env) !== undefined });
  const host = path.join(final, HOST);
  linkInto(host, bin);
  return host;
}

module.exports = { buildJavaHost, builtJavaHost, readJavaPins, JAVA_PINS_FILE };
