// @ts-check
/**
 * Local stand-ins of the registries a release is published to, on 127.0.0.1 alone, started
 * by the rehearsal and stopped after it: verdaccio for npm (our packages published to it,
 * every other package proxied from the npm registry this machine uses), pypiserver for PyPI
 * (our packages uploaded with twine, every other package redirected to PyPI), and an HTTP
 * server of the release's assets at GitHub's layout
 * (`/clouddb/pulumi-clouddb/releases/download/v<version>/<asset>`), which can leave an asset
 * out or serve it altered, to show what a user then meets. The Go module proxy is a folder
 * (`GOPROXY=file://...`, the release's `go/`).
 */
"use strict";
const { spawn, spawnSync } = require("child_process");
const fs = require("fs");
const http = require("http");
const net = require("net");
const path = require("path");
const { releaseTools } = require("./tools");

/** A free port on 127.0.0.1. */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = /** @type {net.AddressInfo} */ (s.address());
      s.close(() => resolve(port));
    });
  });
}

/**
 * Polls `url` until it answers 200, or fails after `ms`, with the server's log.
 * @param {string} url
 * @param {number} ms
 * @param {() => string} log
 */
async function waitFor(url, ms, log) {
  const until = Date.now() + ms;
  for (;;) {
    const ok = await fetch(url).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return;
    if (Date.now() > until) throw new Error(`${url} did not answer within ${ms / 1000} s:\n${log()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * A server process: started detached (its own process group), stopped with its group.
 * @param {string} command
 * @param {string[]} args
 * @param {string} logFile
 */
function startProcess(command, args, logFile) {
  const fd = fs.openSync(logFile, "a");
  const child = spawn(command, args, { detached: true, stdio: ["ignore", fd, fd] });
  fs.closeSync(fd);
  return {
    pid: child.pid,
    log: () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8").slice(-4000) : ""),
    stop: () => {
      try {
        process.kill(-(/** @type {number} */ (child.pid)), "SIGTERM");
      } catch {
        // already gone
      }
    },
  };
}

/**
 * verdaccio in `dir`, with a user `release` whose token publishes.
 * @param {string} dir
 */
async function startNpmRegistry(dir) {
  const port = await freePort();
  const uplink = spawnSync("npm", ["config", "get", "registry"], { encoding: "utf8" }).stdout.trim() || "https://registry.npmjs.org/";
  fs.mkdirSync(path.join(dir, "storage"), { recursive: true });
  const config = [
    `storage: ${JSON.stringify(path.join(dir, "storage"))}`,
    `auth: { htpasswd: { file: ${JSON.stringify(path.join(dir, "htpasswd"))}, max_users: 1 } }`,
    `uplinks: { npmjs: { url: ${JSON.stringify(uplink)}, timeout: 120s, maxage: 30m } }`,
    "packages:",
    "  'pulumi-clouddb': { access: $all, publish: $authenticated }",
    "  '@clouddb/*': { access: $all, publish: $authenticated }",
    "  '**': { access: $all, publish: $authenticated, proxy: npmjs }",
    `listen: 127.0.0.1:${port}`,
    "log: { type: stdout, format: pretty, level: warn }",
    "",
  ].join("\n");
  fs.writeFileSync(path.join(dir, "config.yaml"), config);
  const proc = startProcess(
    process.execPath,
    [releaseTools().verdaccio, "--config", path.join(dir, "config.yaml")],
    path.join(dir, "verdaccio.log"),
  );
  const url = `http://127.0.0.1:${port}/`;
  await waitFor(`${url}-/ping`, 60_000, proc.log);
  const res = await fetch(`${url}-/user/org.couchdb.user:release`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "release", password: "release-rehearsal" }),
  });
  const { token } = /** @type {{ token?: string }} */ (await res.json());
  if (!token) throw new Error(`verdaccio gave no token (${res.status})`);
  return { url, token, stop: proc.stop, log: proc.log };
}

/**
 * pypiserver serving (and taking uploads into) `dir`/packages, other packages redirected to PyPI.
 * @param {string} dir
 */
async function startPackageIndex(dir) {
  const port = await freePort();
  const packages = path.join(dir, "packages");
  fs.mkdirSync(packages, { recursive: true });
  const args = ["run", "--host", "127.0.0.1", "--port", String(port), "--authenticate", ".", "--passwords", ".", packages];
  const proc = startProcess(releaseTools().pypiServer, args, path.join(dir, "pypiserver.log"));
  const url = `http://127.0.0.1:${port}/`;
  await waitFor(`${url}simple/`, 60_000, proc.log);
  return { url, simple: `${url}simple/`, stop: proc.stop, log: proc.log };
}

/**
 * An HTTP server of `root` at GitHub's release layout; what it was asked for, and switches to
 * leave an asset out or alter it.
 * @param {string} root a folder holding `<owner>/<repo>/releases/download/v<version>/<asset>`
 */
async function startAssetServer(root) {
  /** @type {{ path: string, status: number }[]} */
  const requests = [];
  /** @type {Set<string>} */
  const missing = new Set();
  /** @type {Set<string>} */
  const altered = new Set();
  const server = http.createServer((req, res) => {
    const name = decodeURIComponent((req.url ?? "/").split("?")[0]);
    const file = path.join(root, path.normalize(name));
    const base = path.basename(file);
    const status = !file.startsWith(root) || missing.has(base) || !fs.existsSync(file) || !fs.statSync(file).isFile() ? 404 : 200;
    requests.push({ path: name, status });
    if (status !== 200) {
      res.writeHead(404).end("Not Found");
      return;
    }
    const body = fs.readFileSync(file);
    if (altered.has(base)) body[body.length >> 1] ^= 0xff;
    res.writeHead(200, { "content-type": "application/octet-stream", "content-length": body.length }).end(body);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const { port } = /** @type {net.AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    missing,
    altered,
    stop: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}

module.exports = { startNpmRegistry, startPackageIndex, startAssetServer, freePort, startProcess, waitFor };
