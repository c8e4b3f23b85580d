// @ts-check
/**
 * A new user's first day on each path, as the README's recipes say, in a HOME of its own
 * (world.js): install from the registries only, `pulumi up` (the engine downloads the plugin
 * itself, from `pluginDownloadURL` redirected to the stand-in), `pulumi import` where the
 * README shows it, `pulumi refresh --expect-no-changes`, `pulumi destroy`; then what must hold
 * (the plugin installed by the engine, the route it took, one `@pulumi/pulumi`, the packages
 * from the stand-ins, the cloud empty again).
 */
"use strict";
const { spawn } = require("child_process");
const fs = require("fs");
const path = require("path");
const programs = require("./programs");

/**
 * Runs `command` in `cwd` with `env`; fails with what it printed unless it succeeds (or, with
 * `mayFail`, returns how it ended).
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd: string, env: NodeJS.ProcessEnv, mayFail?: boolean, log?: (line: string) => void }} o
 * @returns {Promise<{ code: number, out: string }>}
 */
function sh(command, args, o) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: o.cwd, env: o.env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("close", (code) => {
      o.log?.(`$ ${[command, ...args].join(" ")}  (exit ${code})`);
      if (code !== 0 && !o.mayFail) reject(new Error(`${command} ${args.join(" ")} exited ${code} in ${o.cwd}:\n${out.slice(-6000)}`));
      else resolve({ code: code ?? -1, out });
    });
  });
}

/**
 * Writes a program's files into `dir`.
 * @param {string} dir
 * @param {Record<string, string>} files
 */
function writeProgram(dir, files) {
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
}

/**
 * The API of the emulator, for what a user does outside Pulumi (a VPC made elsewhere, to import).
 * @typedef {{ apiUrl: string, apiKey: string, projectId: string }} Api
 */

/**
 * @param {Api} api
 * @param {string} what `vpcs` or `services`
 */
async function list(api, what) {
  const r = await fetch(`${api.apiUrl}/projects/${api.projectId}/${what}`, { headers: { authorization: `Bearer ${api.apiKey}` } });
  const body = /** @type {{ items?: { id?: string, service_id?: string }[] }} */ (await r.json());
  return body.items ?? [];
}

/**
 * @param {Api} api
 * @param {string} name
 * @param {string} cidr
 */
async function createVpc(api, name, cidr) {
  const r = await fetch(`${api.apiUrl}/projects/${api.projectId}/vpcs`, {
    method: "POST",
    headers: { authorization: `Bearer ${api.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ name, cidr, region_code: "us-east-1" }),
  });
  const vpc = /** @type {{ id: string }} */ (await r.json());
  if (r.status !== 201 && r.status !== 200) throw new Error(`creating a VPC answered ${r.status}`);
  return vpc.id;
}

/**
 * One path's first day.
 * @typedef {{
 *   name: string,
 *   native: boolean,
 *   node: "24" | "machine" | "none",
 *   route: "node" | "standalone" | undefined,
 *   install: (dir: string, env: NodeJS.ProcessEnv, run: typeof sh) => Promise<NodeJS.ProcessEnv | void>,
 *   files: Record<string, string>,
 *   importWith?: "default" | "provider",
 * }} Path
 */

/**
 * The paths, for release `version` (`pep`: its Python form; `goModule`: the Go SDK's path;
 * `pluginDownloadURL`: the schema's; `mavenRepository`: where the Java SDK is served, as Maven
 * Central serves it to a user).
 * @param {{ version: string, pep: string, goModule: string, pluginDownloadURL: string, mavenRepository: string }} r
 * @returns {Path[]}
 */
function paths(r) {
  const npmInstall =
    (/** @type {string[]} */ pkgs) =>
    async (/** @type {string} */ dir, /** @type {NodeJS.ProcessEnv} */ env, /** @type {typeof sh} */ run) => {
      await run("npm", ["install", ...pkgs, "@pulumi/pulumi"], { cwd: dir, env });
    };
  return [
    {
      name: "typescript-dynamic",
      native: false,
      node: "24",
      route: undefined,
      files: programs.typescript("firstday-dynamic", "pulumi-clouddb"),
      install: npmInstall([`pulumi-clouddb@${r.version}`]),
    },
    {
      name: "typescript-native",
      native: true,
      node: "24",
      route: "node",
      files: programs.typescript("firstday-native-ts", "@clouddb/pulumi-clouddb"),
      install: npmInstall([`@clouddb/pulumi-clouddb@${r.version}`]),
    },
    {
      name: "python",
      native: true,
      node: "none",
      route: "standalone",
      files: programs.PYTHON,
      importWith: "default",
      install: async (dir, env, run) => {
        // The README's recipe for the Python host the CLI built here: a virtualenv, activated.
        await run("python3", ["-m", "venv", "venv"], { cwd: dir, env });
        const venv = path.join(dir, "venv");
        const active = { ...env, VIRTUAL_ENV: venv, PATH: `${path.join(venv, "bin")}${path.delimiter}${env.PATH}` };
        await run("pip", ["install", `pulumi_clouddb==${r.pep}`], { cwd: dir, env: active });
        return active;
      },
    },
    {
      name: "go",
      native: true,
      node: "machine",
      route: "node",
      files: programs.GO,
      importWith: "provider",
      install: async (dir, env, run) => {
        await run("go", ["mod", "init", "firstday-go"], { cwd: dir, env });
        await run("go", ["get", `${r.goModule}@v${r.version}`], { cwd: dir, env });
        await run("go", ["mod", "tidy"], { cwd: dir, env });
      },
    },
    {
      name: "java",
      native: true,
      node: "machine",
      route: "node",
      files: programs.java(),
      install: async (dir, env, run) => {
        // Maven's home is the JVM's user.home (the user database's, not HOME): this user's.
        const active = { ...env, MAVEN_OPTS: `-Duser.home=${env.HOME}` };
        writeProgram(path.join(String(env.HOME), ".m2"), { "settings.xml": programs.mavenSettings(r.mavenRepository) });
        await run("mvn", ["-B", "-q", "--no-transfer-progress", "compile"], { cwd: dir, env: active });
        return active;
      },
    },
    {
      name: "yaml",
      native: true,
      node: "none",
      route: "standalone",
      files: programs.yaml(r.version, r.pluginDownloadURL),
      install: async () => undefined,
    },
  ];
}

module.exports = { sh, writeProgram, list, createVpc, paths };
