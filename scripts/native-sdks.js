#!/usr/bin/env node
// @ts-check
/**
 * `npm run generate:sdks`: the SDKs of the native plugin, generated from `schema.json` by the
 * real Pulumi CLI (`pulumi package gen-sdk`, through our generator host: scripts/pulumi-tools.js)
 * into `sdk-native/nodejs`, `sdk-native/python`, `sdk-native/go/clouddb` and `sdk-native/java`
 * (Pulumi's Java host, scripts/lib/pulumi-java.js). Nothing in them is edited by hand: the Go
 * SDK's `go.mod` and `go.sum` are written here (the generator writes none), by `go mod tidy` on
 * the module the schema names; so are the Java SDK's `pom.xml` and the two resources its
 * Gradle build would write at build time (`version.txt`, `plugin.json`: without them the SDK
 * fails at its first resource), so that Maven alone builds it (lib/java-sdk.js).
 *
 * The TypeScript SDK gets hand-written files through the codegen's overlays (`--overlays`,
 * a folder per language whose files it copies in, its `.ts` files compiled and loaded by the
 * package's index): tools/sdk-overlays/nodejs, and the dynamic SDK's `sdk/promiseStacks.ts`
 * (one definition of how a resource is constructed untraced, copied, as the native package
 * cannot depend on the dynamic one).
 *
 * `--check` writes nothing and exits 1 naming each file that differs from what it would
 * write (tests/native/sdks.test.ts runs it so).
 */
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const { writeJavaBuild } = require("./lib/java-sdk");
const { buildJavaHost } = require("./lib/pulumi-java");
const { buildTools, findGo, readPins } = require("./lib/pulumi-tools");
const { filesUnder } = require("./lib/files");
const { run, say } = require("./lib/run");

const root = path.resolve(__dirname, "..");
/** Where each language's SDK goes, under the repository. */
const TARGETS = { nodejs: "sdk-native/nodejs", python: "sdk-native/python", go: "sdk-native/go", java: "sdk-native/java" };

/** The hand-written files the codegen copies into each language's SDK (`<folder>/<language>/...`). */
const OVERLAYS = path.join(root, "tools", "sdk-overlays");
/** Files of the repository copied into an SDK beside its overlays, by language. */
const SHARED_OVERLAYS = { nodejs: ["sdk/promiseStacks.ts"] };

/**
 * The overlays of every language, with the shared files beside them, in a folder of `out`.
 * @param {string} out
 */
function overlays(out) {
  const dir = path.join(out, ".overlays");
  fs.cpSync(OVERLAYS, dir, { recursive: true });
  for (const [language, files] of Object.entries(SHARED_OVERLAYS)) {
    for (const f of files) fs.copyFileSync(path.join(root, f), path.join(dir, language, path.basename(f)));
  }
  return dir;
}

/**
 * Generates the four SDKs into `out` (one folder per language, as TARGETS lays them out).
 * @param {string} out
 */
async function generate(out) {
  const tools = await buildTools({ root, env: process.env, say });
  await buildJavaHost({ root, env: process.env, say, bin: tools.bin });
  const env = {
    ...process.env,
    PATH: [tools.codegen, tools.bin, process.env.PATH ?? ""].join(path.delimiter),
    PULUMI_SKIP_UPDATE_CHECK: "true",
  };
  const schema = JSON.parse(fs.readFileSync(path.join(root, "schema.json"), "utf8"));
  const overlayDir = overlays(out);
  for (const language of Object.keys(TARGETS)) {
    say(`generating the ${language} SDK...`);
    const args = ["package", "gen-sdk", path.join(root, "schema.json"), "--language", language, "--out", out];
    if (fs.existsSync(path.join(overlayDir, language))) args.push("--overlays", overlayDir);
    run(path.join(tools.codegen, "pulumi"), args, { env, cwd: root });
  }
  fs.rmSync(overlayDir, { recursive: true, force: true });
  const goModule = schema.language.go.modulePath;
  const goDir = path.join(out, "go", "clouddb");
  const go = findGo(process.env);
  if (!go) throw new Error("go is not on PATH: the Go SDK's go.mod is written by `go mod tidy`");
  const sdkVersion = readPins(root).cli.version;
  fs.writeFileSync(path.join(goDir, "go.mod"), `module ${goModule}\n\ngo 1.24\n\nrequire github.com/pulumi/pulumi/sdk/v3 ${sdkVersion}\n`);
  say("go mod tidy of the Go SDK...");
  run(go, ["mod", "tidy"], { cwd: goDir, env: { ...process.env, GOTOOLCHAIN: "local", GOWORK: "off", GOFLAGS: "-mod=mod" } });
  writeJavaBuild(path.join(out, "java"), schema);
}

async function main() {
  const check = process.argv.includes("--check");
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-sdks-"));
  try {
    await generate(out);
    /** @type {string[]} */
    const differing = [];
    for (const [language, target] of Object.entries(TARGETS)) {
      const made = path.join(out, language);
      const here = path.join(root, target);
      const files = new Set([...filesUnder(made), ...filesUnder(here)]);
      for (const f of files) {
        const a = path.join(made, f);
        const b = path.join(here, f);
        if (!fs.existsSync(a) || !fs.existsSync(b) || !fs.readFileSync(a).equals(fs.readFileSync(b))) differing.push(path.join(target, f));
      }
      if (!check) {
        fs.rmSync(here, { recursive: true, force: true });
        fs.cpSync(made, here, { recursive: true });
      }
    }
    if (check && differing.length > 0) {
      say(`${differing.join(", ")} differ from what \`npm run generate:sdks\` writes: run it and commit the result`);
      process.exitCode = 1;
    } else if (!check) {
      say(differing.length ? `wrote ${differing.length} files under sdk-native/` : "sdk-native/ is up to date");
    }
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

main().catch((e) => {
  say(`native-sdks: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
