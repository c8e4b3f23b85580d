// @ts-check
/**
 * What the rehearsal asserts after a path's first day, and the steps of that day on a stack:
 * each a plain function that throws naming what it found.
 */
"use strict";
const fs = require("fs");
const path = require("path");
const { createVpc, list, sh } = require("./firstday");
const { installedJavaSdk } = require("./maven");
const { parseSums, sha256File } = require("./sums");

/**
 * @param {boolean} ok
 * @param {string} message
 */
function expect(ok, message) {
  if (!ok) throw new Error(message);
}

/**
 * The day on the stack in `dir`: login, stack, config, up, import (where the path shows it),
 * refresh with no changes expected, destroy; the cloud empty after.
 * @param {import("./firstday").Path} p
 * @param {string} dir
 * @param {NodeJS.ProcessEnv} env
 * @param {import("./firstday").Api} api
 * @param {(line: string) => void} log
 */
async function stackDay(p, dir, env, api, log) {
  const pulumi = (/** @type {string[]} */ ...args) => sh("pulumi", args, { cwd: dir, env, log });
  await pulumi("login", `file://${env.HOME}`); // `--local`, in this HOME (the CLI would take the user database's)
  await pulumi("stack", "init", "dev");
  for (const ns of ["clouddb:", ""]) {
    await pulumi("config", "set", `${ns}apiUrl`, api.apiUrl);
    await pulumi("config", "set", "--secret", `${ns}apiKey`, api.apiKey);
    await pulumi("config", "set", `${ns}projectId`, api.projectId);
  }
  await pulumi("up", "--yes");
  const outs = JSON.parse((await pulumi("stack", "output", "--json")).out);
  expect(outs.password === "[secret]" && typeof outs.host === "string", `${p.name}: stack outputs ${JSON.stringify(outs)}`);
  if (p.importWith !== undefined) {
    const id = await createVpc(api, `made-elsewhere-${p.name}`, "10.9.0.0/16");
    const args = ["import", "clouddb:index:Vpc", "imported", id, "--yes", "--protect=false", "--generate-code=false"];
    if (p.importWith === "provider") {
      const state = JSON.parse((await pulumi("stack", "export")).out);
      const prov = state.deployment.resources.find((/** @type {{ type: string }} */ r) => r.type === "pulumi:providers:clouddb");
      args.push("--provider", `prov=${prov.urn}`);
    }
    await pulumi(...args);
  }
  await pulumi("refresh", "--yes", "--expect-no-changes");
  await pulumi("destroy", "--yes");
  const left = [...(await list(api, "vpcs")), ...(await list(api, "services"))];
  expect(left.length === 0, `${p.name}: the cloud still holds ${JSON.stringify(left)} after destroy`);
}

/**
 * The plugin the engine installed in the path's HOME, and the route its launcher took.
 * @param {import("./firstday").Path} p
 * @param {string} home
 * @param {string} version
 * @param {{ path: string, status: number }[]} requests what the asset server was asked, during this path
 */
function checkPlugin(p, home, version, requests) {
  const dir = path.join(home, ".pulumi", "plugins", `resource-clouddb-v${version}`);
  const asked = requests.map((r) => `${r.status} ${path.basename(r.path)}`);
  if (!p.native) {
    expect(!fs.existsSync(dir) && requests.length === 0, `${p.name}: the dynamic providers need no plugin, but ${dir} exists (${asked})`);
    return;
  }
  expect(fs.existsSync(path.join(dir, "pulumi-resource-clouddb")), `${p.name}: the engine installed no plugin in ${dir}`);
  expect(
    asked.includes(`200 pulumi-resource-clouddb-v${version}-linux-amd64.tar.gz`),
    `${p.name}: the engine did not download the plugin (${asked})`,
  );
  const standalone = fs.existsSync(path.join(dir, "pulumi-resource-clouddb-standalone"));
  const fetched = asked.includes(`200 pulumi-resource-clouddb-standalone-v${version}-linux-amd64.tar.gz`);
  if (p.route === "standalone")
    expect(standalone && fetched, `${p.name}: without Node.js the launcher did not fetch the single-file build (${asked})`);
  else expect(!standalone && !fetched, `${p.name}: with Node.js the launcher fetched the single-file build (${asked})`);
}

/**
 * The packages came from the stand-ins, as one copy of `@pulumi/pulumi` (npm), with no link
 * to a folder (pip), at the hashes the release recorded (Go).
 * @param {import("./firstday").Path} p
 * @param {string} dir
 * @param {NodeJS.ProcessEnv} env
 * @param {{ npmRegistry: string, release: import("./build").Release, releaseDir: string }} o
 */
async function checkInstalled(p, dir, env, o) {
  if (p.name.startsWith("typescript")) {
    const lock = JSON.parse(fs.readFileSync(path.join(dir, "package-lock.json"), "utf8"));
    const ours = Object.entries(lock.packages).filter(([k]) => /node_modules\/(pulumi-clouddb|@clouddb\/pulumi-clouddb)$/.test(k));
    expect(
      ours.length === 1 && String(ours[0][1].resolved).startsWith(o.npmRegistry),
      `${p.name}: ${JSON.stringify(ours)} is not from ${o.npmRegistry}`,
    );
    const sdks = Object.keys(lock.packages).filter((k) => k.endsWith("node_modules/@pulumi/pulumi"));
    expect(sdks.length === 1, `${p.name}: ${sdks.length} copies of @pulumi/pulumi (${sdks.join(", ")})`);
  }
  if (p.name === "python") {
    const site = (
      await sh("python", ["-c", "import pulumi_clouddb, os; print(os.path.dirname(pulumi_clouddb.__file__))"], { cwd: dir, env })
    ).out.trim();
    const info = path.join(path.dirname(site), `pulumi_clouddb-${o.release.pep440}.dist-info`);
    expect(
      fs.existsSync(info) && !fs.existsSync(path.join(info, "direct_url.json")),
      `${p.name}: pulumi_clouddb ${o.release.pep440} is not installed from the index (${info})`,
    );
  }
  if (p.name === "java") {
    const jar = installedJavaSdk(String(env.HOME), o.release.maven);
    const built = path.join(o.release.maven.files.find((f) => f.endsWith(`-${o.release.maven.version}.jar`)) ?? "");
    expect(
      fs.existsSync(jar) && fs.readFileSync(path.join(path.dirname(jar), "_remote.repositories"), "utf8").includes(">clouddb-release="),
      `${p.name}: the Java SDK is not in ${jar}, or not from the stand-in`,
    );
    expect(
      sha256File(jar) === parseSums(fs.readFileSync(path.join(o.releaseDir, "SHA256SUMS"), "utf8")).get(built),
      `${p.name}: ${jar} is not the release's ${built}`,
    );
  }
  if (p.name === "go") {
    const sum = fs.readFileSync(path.join(dir, "go.sum"), "utf8");
    const line = `${o.release.go.path} ${o.release.go.version} ${o.release.go.h1}`;
    expect(sum.includes(line), `${p.name}: go.sum has no "${line}"`);
  }
}

module.exports = { stackDay, checkPlugin, checkInstalled, expect };
