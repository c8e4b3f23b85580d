// @ts-check
/**
 * Builds the Pulumi CLI and its language hosts from their Go modules, with `go` and the
 * Go module proxy alone, into a git-ignored folder keyed by the pins:
 *
 *   .tools/pulumi/<key>/bin/      pulumi (version stamped), pulumi-language-nodejs,
 *                                 pulumi-language-python (+ pulumi-language-python-exec),
 *                                 pulumi-language-go, pulumi-language-yaml,
 *                                 pulumi-resource-pulumi-nodejs (ours: the dynamic provider's launcher)
 *   .tools/pulumi/<key>/codegen/  pulumi (a hard link of bin/pulumi) and our SDK generator
 *                                 (tools/pulumi/codegen-host) as pulumi-language-nodejs|python|go
 *   .tools/pulumi/<key>/src/      the Go modules the build made (go.mod, go.sum), for reference
 *   .tools/pulumi/<key>/stamp.json  written last: the tools are complete
 *
 * The versions live in tools/pulumi/versions.json alone; <key> hashes that file, the SDK
 * generator's source and {@link RECIPE}, so a change of any of them builds anew and an
 * unchanged one is found in a moment. CLOUDDB_PULUMI_TOOLS_DIR moves `.tools/pulumi`.
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

/** Bump when the way the tools are built changes (the key changes with it). */
const RECIPE = 1;
const PINS_FILE = path.join("tools", "pulumi", "versions.json");
const CODEGEN_SOURCE = path.join("tools", "pulumi", "codegen-host", "main.go");

const PKG = "github.com/pulumi/pulumi/pkg/v3";
const SDK = "github.com/pulumi/pulumi/sdk/v3";
const YAML = "github.com/pulumi/pulumi-yaml";
/** Where each language host lives inside the sdk/v3 module (of the versions that still carry it). */
const HOST_PACKAGES = {
  nodejs: `${SDK}/nodejs/cmd/pulumi-language-nodejs`,
  python: `${SDK}/python/cmd/pulumi-language-python`,
  go: `${SDK}/go/pulumi-language-go`,
};
/** The python host runs this script of the same sdk module (found on PATH). */
const PYTHON_EXEC = "python/cmd/pulumi-language-python-exec";
const VERSION_VAR = `${SDK}/go/common/version.Version`;
const YAML_VERSION_VAR = `${YAML}/pkg/version.Version`;
const CODEGEN_LANGUAGES = /** @type {const} */ (["nodejs", "python", "go"]);

/**
 * The dynamic provider's launcher, which the CLI's own distribution ships: it runs the
 * `@pulumi/pulumi` that the program (the working directory) resolves.
 */
const DYNAMIC_PROVIDER_LAUNCHER = `#!/bin/sh
# The launcher of Pulumi's dynamic-provider plugin: runs @pulumi/pulumi's
# cmd/dynamic-provider as the program's own node_modules resolve it.
exec node "$(node -e "process.stdout.write(require.resolve('@pulumi/pulumi/cmd/dynamic-provider'))")" "$@"
`;

/**
 * @typedef {object} Pins
 * @property {{ version: string, replace?: Record<string, string> }} cli
 * @property {Record<"nodejs" | "python" | "go", string>} languageHosts sdk/v3 version carrying each host
 * @property {string} yaml pulumi-yaml version
 */

/**
 * @typedef {object} Tools
 * @property {string} dir the folder of these pins' tools
 * @property {string} bin the folder to put first on PATH when running programs
 * @property {string} codegen the folder to put first on PATH when generating SDKs
 * @property {string} pulumi the CLI (`<bin>/pulumi`)
 * @property {string} version the CLI's version
 */

/**
 * The pins, checked.
 * @param {string} root
 * @returns {Pins}
 */
function readPins(root) {
  const file = path.join(root, PINS_FILE);
  /** @type {any} */
  const pins = JSON.parse(fs.readFileSync(file, "utf8"));
  const bad = (/** @type {string} */ what) => new ToolsBuildError(`${PINS_FILE}: ${what}`);
  if (!isVersion(pins?.cli?.version)) throw bad("cli.version must be a Go module version such as v3.274.1");
  for (const [from, to] of Object.entries(pins.cli.replace ?? {})) {
    if (typeof to !== "string" || !/^\S+ v\S+$/.test(to)) throw bad(`cli.replace["${from}"] must read "<module> <version>"`);
  }
  for (const lang of CODEGEN_LANGUAGES) {
    if (!isVersion(pins.languageHosts?.[lang])) throw bad(`languageHosts.${lang} must be an sdk/v3 version such as v3.68.0`);
  }
  if (!isVersion(pins.yaml)) throw bad("yaml must be a pulumi-yaml version such as v1.25.0");
  return pins;
}

/**
 * The key of the pins' tools: a hash of the pin file, the SDK generator's source and the recipe.
 * @param {string} root
 */
function toolsKey(root) {
  return buildKey(RECIPE, [path.join(root, PINS_FILE), path.join(root, CODEGEN_SOURCE)]);
}

/**
 * Where the tools of every pin live (`.tools/pulumi`, or CLOUDDB_PULUMI_TOOLS_DIR).
 * @param {string} root
 * @param {NodeJS.ProcessEnv} env
 */
function toolsRoot(root, env) {
  return path.resolve(env.CLOUDDB_PULUMI_TOOLS_DIR || path.join(root, ".tools", "pulumi"));
}

/**
 * The layout of the tools of `dir`.
 * @param {string} dir
 * @param {string} version
 * @returns {Tools}
 */
function layout(dir, version) {
  const bin = path.join(dir, "bin");
  return { dir, bin, codegen: path.join(dir, "codegen"), pulumi: path.join(bin, "pulumi"), version };
}

/** The executables a complete build holds, relative to its folder. */
const EXPECTED = [
  "bin/pulumi",
  "bin/pulumi-language-nodejs",
  "bin/pulumi-language-python",
  "bin/pulumi-language-python-exec",
  "bin/pulumi-language-go",
  "bin/pulumi-language-yaml",
  "bin/pulumi-resource-pulumi-nodejs",
  "codegen/pulumi",
  ...CODEGEN_LANGUAGES.map((l) => `codegen/pulumi-language-${l}`),
];

/**
 * The tools of the current pins when they are built, else undefined.
 * @param {string} root
 * @param {NodeJS.ProcessEnv} env
 * @returns {Tools | undefined}
 */
function builtTools(root, env) {
  const key = toolsKey(root);
  const dir = path.join(toolsRoot(root, env), key);
  let stamp;
  try {
    stamp = JSON.parse(fs.readFileSync(path.join(dir, "stamp.json"), "utf8"));
  } catch {
    return undefined;
  }
  if (stamp?.key !== key) return undefined;
  if (!EXPECTED.every((f) => isExecutable(path.join(dir, f)))) return undefined;
  return layout(dir, readPins(root).cli.version);
}

/**
 * Hard-links `from` to `to`, or copies it where a link cannot be made.
 * @param {string} from
 * @param {string} to
 */
function linkOrCopy(from, to) {
  try {
    fs.linkSync(from, to);
  } catch {
    fs.copyFileSync(from, to);
    fs.chmodSync(to, 0o755);
  }
}

/**
 * Builds the tools of the current pins, unless they are built already; says what it does
 * through `say`. Safe to run twice at once: each build works in a folder of its own and
 * the first to finish is kept.
 * @param {{ root: string, env: NodeJS.ProcessEnv, say: (line: string) => void, go?: string }} opts
 * @returns {Promise<Tools>}
 */
async function buildTools(opts) {
  const { root, env, say } = opts;
  const already = builtTools(root, env);
  if (already !== undefined) return already;

  const pins = readPins(root);
  const go = opts.go ?? findGo(env);
  if (go === undefined) {
    throw new ToolsBuildError("`go` is not on PATH: the Pulumi tools are built with Go 1.26 or later (https://go.dev/dl/).");
  }
  const key = toolsKey(root);
  const final = path.join(toolsRoot(root, env), key);
  const { work, log } = startBuild(final, ["bin", "codegen", "src"]);
  const bin = path.join(work, "bin");
  const codegen = path.join(work, "codegen");
  const src = path.join(work, "src");
  const { goEnv, goVersion, goMinor } = await goSetup(go, env, { cwd: src, log });
  /**
   * @param {string} cwd
   * @param {string} out
   * @param {string} pkg
   * @param {string} stamp the `-X` of the version
   */
  const build = (cwd, out, pkg, stamp) =>
    runGo(go, ["build", "-trimpath", "-ldflags", `-s -w -X ${stamp}`, "-o", out, pkg], { cwd, env: goEnv, log });
  const started = Date.now();
  /** @type {Record<string, number>} seconds per step */
  const seconds = {};
  /**
   * @param {string} name
   * @param {string} line
   * @param {() => Promise<unknown>} step
   */
  const step = async (name, line, step) => {
    say(line);
    const t = Date.now();
    await step();
    seconds[name] = Math.round((Date.now() - t) / 1000);
    say(`  done in ${duration(Date.now() - t)}`);
  };

  say(`Building the Pulumi tools of ${PINS_FILE} with ${goVersion} into ${final}`);
  const v = pins.cli.version;
  const cliDir = path.join(src, "cli");
  writeModule(cliDir, "cli", goMinor, { [PKG]: v, [SDK]: v }, pins.cli.replace ?? {});
  await step("cli", `building the Pulumi CLI ${v} from its Go module (about 4 minutes the first time)...`, () =>
    build(cliDir, path.join(bin, "pulumi"), `${PKG}/cmd/pulumi`, `${VERSION_VAR}=${v}`),
  );

  // The SDK generator: our source in the CLI's module, so it generates with the CLI's codegen.
  fs.mkdirSync(path.join(cliDir, "codegen-host"), { recursive: true });
  fs.copyFileSync(path.join(root, CODEGEN_SOURCE), path.join(cliDir, "codegen-host", "main.go"));
  const first = path.join(codegen, `pulumi-language-${CODEGEN_LANGUAGES[0]}`);
  await step("codegen", `building our SDK generator (tools/pulumi/codegen-host) on pkg/v3 ${v} (seconds once the CLI is built)...`, () =>
    build(cliDir, first, "./codegen-host", `${VERSION_VAR}=${v}`),
  );
  for (const lang of CODEGEN_LANGUAGES.slice(1)) linkOrCopy(first, path.join(codegen, `pulumi-language-${lang}`));
  // The CLI prefers the hosts beside its own executable: a link of it here makes those the generator.
  linkOrCopy(path.join(bin, "pulumi"), path.join(codegen, "pulumi"));

  // The language hosts, from the sdk/v3 versions that still carry them (one module per version).
  /** @type {Map<string, ("nodejs" | "python" | "go")[]>} */
  const byVersion = new Map();
  for (const lang of CODEGEN_LANGUAGES) {
    const sdkVersion = pins.languageHosts[lang];
    byVersion.set(sdkVersion, [...(byVersion.get(sdkVersion) ?? []), lang]);
  }
  for (const [sdkVersion, langs] of byVersion) {
    const dir = path.join(src, `sdk-${sdkVersion}`);
    writeModule(dir, `sdk-${sdkVersion}`, goMinor, { [SDK]: sdkVersion }, {});
    const names = langs.map((l) => `pulumi-language-${l}`).join(", ");
    await step(`hosts ${sdkVersion}`, `building ${names} from sdk/v3 ${sdkVersion} (under a minute)...`, async () => {
      for (const lang of langs) {
        await build(dir, path.join(bin, `pulumi-language-${lang}`), HOST_PACKAGES[lang], `${VERSION_VAR}=${sdkVersion}`);
      }
      if (langs.includes("python")) {
        const sdkDir = (await runGo(go, ["list", "-m", "-f", "{{.Dir}}", SDK], { cwd: dir, env: goEnv, log })).trim();
        const exec = path.join(bin, "pulumi-language-python-exec");
        fs.copyFileSync(path.join(sdkDir, PYTHON_EXEC), exec);
        fs.chmodSync(exec, 0o755);
      }
    });
  }

  const yamlDir = path.join(src, "yaml");
  writeModule(yamlDir, "yaml", goMinor, { [YAML]: pins.yaml }, {});
  await step("yaml", `building pulumi-language-yaml from pulumi-yaml ${pins.yaml} (under a minute)...`, () =>
    build(yamlDir, path.join(bin, "pulumi-language-yaml"), `${YAML}/cmd/pulumi-language-yaml`, `${YAML_VERSION_VAR}=${pins.yaml}`),
  );

  fs.writeFileSync(path.join(bin, "pulumi-resource-pulumi-nodejs"), DYNAMIC_PROVIDER_LAUNCHER, { mode: 0o755 });
  const missing = EXPECTED.filter((f) => !isExecutable(path.join(work, f)));
  if (missing.length > 0) throw new ToolsBuildError(`the build left out ${missing.join(", ")} (see ${log})`);
  const stamp = {
    key,
    pins,
    go: goVersion,
    builtAt: new Date().toISOString(),
    seconds: { ...seconds, total: Math.round((Date.now() - started) / 1000) },
  };
  finishBuild({ work, final, prefix: "", stamp, isBuilt: () => builtTools(root, env) !== undefined });
  say(`Built the Pulumi tools in ${duration(Date.now() - started)}: ${path.join(final, "bin")}`);
  return layout(final, v);
}

module.exports = {
  buildTools,
  builtTools,
  findGo,
  isExecutable,
  readPins,
  toolsRoot,
  ToolsBuildError,
  PINS_FILE,
};
