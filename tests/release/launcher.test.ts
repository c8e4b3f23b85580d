/**
 * The plugin's launcher (scripts/plugin/launcher), built with `go build` as the release builds
 * it and started as the engine starts a plugin: where a Node.js is on PATH it becomes
 * `node <loader>` (same process, the arguments passed on, the user's cache folder named for
 * the loader's code cache), and the loader runs the bundle, or, finding that Node.js older
 * than the bundle needs, hands the start back to the launcher; where there is none (or it is
 * too old), the launcher downloads the single-file build once from the release (the engine's
 * PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES honoured), checks its SHA-256, keeps it and runs it;
 * an altered or missing download stops it with a message naming what was wrong, and nothing
 * is kept or run. The loader is the release's (scripts/plugin/pack.js bundles it); the bundle
 * and the single-file build are small stand-ins that print a port as the plugin does; the
 * rehearsal (scripts/release/rehearse.js) runs the real ones.
 */
import { spawn, spawnSync } from "child_process";
import { createHash } from "crypto";
import * as fs from "fs";
import * as http from "http";
import type { AddressInfo } from "net";
import * as os from "os";
import * as path from "path";

const { buildLauncher } = require("../../scripts/plugin/launcher") as {
  buildLauncher: (
    target: string,
    out: string,
    values: { version: string; minNode: string; pluginDownloadURL: string; standaloneSha256: string | undefined },
  ) => void;
};

const { bundleLoader, BUNDLE } = require("../../scripts/plugin/pack") as {
  bundleLoader: (outfile: string, build: { minNode: string; bundle: string; bundleSha256: string; launcher: string }) => Promise<void>;
  BUNDLE: string;
};

const VERSION = "9.8.7";
const SOURCE = "github://api.github.com/clouddb/pulumi-clouddb";
const STANDALONE = `pulumi-resource-clouddb-standalone-v${VERSION}-linux-amd64.tar.gz`;
const machineNode = process.execPath;

let work: string;
let tarball: Buffer;
let server: http.Server;
let baseUrl: string;
const served = { altered: false, missing: false, requests: [] as string[] };

/** The bundle's stand-in: prints a port, then what it ran as. */
const STAND_IN =
  'console.log("4242"); console.log(JSON.stringify({ pid: process.pid, node: process.version, args: process.argv.slice(2), cache: process.env.CLOUDDB_PLUGIN_CACHE_DIR, nodeOptions: process.env.NODE_OPTIONS, arenas: process.env.MALLOC_ARENA_MAX ?? "unset" }));\n';

/**
 * A plugin folder as the engine unpacks the release's tarball: the launcher and the loader
 * (built with `minNode`), the bundle (a stand-in), nothing else.
 */
async function pluginDir(name: string, minNode = "20.18.1", sha = createHash("sha256").update(tarball).digest("hex")): Promise<string> {
  const dir = path.join(work, name);
  fs.mkdirSync(dir);
  buildLauncher("linux-amd64", path.join(dir, "pulumi-resource-clouddb"), {
    version: VERSION,
    minNode,
    pluginDownloadURL: SOURCE,
    standaloneSha256: sha,
  });
  fs.writeFileSync(path.join(dir, BUNDLE), STAND_IN);
  await bundleLoader(path.join(dir, "pulumi-resource-clouddb.js"), {
    minNode,
    bundle: BUNDLE,
    bundleSha256: createHash("sha256").update(STAND_IN).digest("hex"),
    launcher: "pulumi-resource-clouddb",
  });
  return dir;
}

/** A PATH holding `node` (a link to `target`), or none. */
function pathWith(target: string | undefined): string {
  const dir = fs.mkdtempSync(path.join(work, "bin-"));
  if (target) fs.symlinkSync(target, path.join(dir, "node"));
  return dir;
}

/** Starts the launcher as the engine does; its exit code, stdout, stderr and pid. */
function start(dir: string, env: NodeJS.ProcessEnv): Promise<{ code: number; out: string; err: string; pid: number }> {
  return new Promise((resolve) => {
    const child = spawn(path.join(dir, "pulumi-resource-clouddb"), ["--logtostderr", "127.0.0.1:1234"], {
      env: { HOME: work, XDG_CACHE_HOME: path.join(work, "cache"), ...env },
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("close", (code) => resolve({ code: code ?? -1, out, err, pid: child.pid! }));
  });
}

const overrides = (): string => `^github://api\\.github\\.com/clouddb/pulumi-clouddb=${baseUrl}/dl/v\${VERSION}`;

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-launcher-"));
  // The single-file build's stand-in: a program printing a port, packed as the release packs it.
  const inner = fs.mkdtempSync(path.join(work, "standalone-"));
  fs.writeFileSync(
    path.join(inner, "pulumi-resource-clouddb"),
    '#!/bin/sh\necho 5151\necho "standalone $*"\nif [ -n "$SHOW_ARENAS" ]; then echo "arenas ${MALLOC_ARENA_MAX-unset}"; fi\n',
    { mode: 0o755 },
  );
  spawnSync("tar", ["-czf", path.join(work, STANDALONE), "-C", inner, "pulumi-resource-clouddb"]);
  tarball = fs.readFileSync(path.join(work, STANDALONE));
  server = http.createServer((req, res) => {
    served.requests.push(req.url ?? "");
    if (served.missing || req.url !== `/dl/v${VERSION}/${STANDALONE}`) return void res.writeHead(404).end();
    const body = Buffer.from(tarball);
    if (served.altered) body[body.length >> 1] ^= 0xff;
    res.writeHead(200).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 180_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  fs.rmSync(work, { recursive: true, force: true });
});

beforeEach(() => {
  Object.assign(served, { altered: false, missing: false, requests: [] });
});

describe("the plugin's launcher", () => {
  it("becomes `node <loader>` where Node.js is on PATH, which runs the bundle: same process, arguments passed on, the user's cache folder named", async () => {
    const dir = await pluginDir("with-node");
    const r = await start(dir, { PATH: pathWith(machineNode) });
    expect(r.code).toBe(0);
    const [port, ran] = r.out.trim().split("\n");
    expect(port).toBe("4242");
    const seen = JSON.parse(ran) as { pid: number; node: string; args: string[]; cache?: string; nodeOptions?: string };
    expect(seen).toMatchObject({
      pid: r.pid,
      node: process.version,
      args: ["--logtostderr", "127.0.0.1:1234"],
      cache: path.join(work, "cache", "pulumi-clouddb", `v${VERSION}-linux-amd64`),
      nodeOptions: "--max-semi-space-size=8",
    });
    expect(served.requests).toEqual([]);
  }, 180_000);

  it("starts Node.js with the young generation bounded (8 MB semi-spaces), the user's NODE_OPTIONS after it, so theirs win", async () => {
    const dir = await pluginDir("heap-options");
    const seenWith = async (env: NodeJS.ProcessEnv) => {
      const r = await start(dir, { PATH: pathWith(machineNode), ...env });
      expect(r.code).toBe(0);
      return JSON.parse(r.out.trim().split("\n")[1]) as { nodeOptions?: string };
    };
    expect(await seenWith({})).toMatchObject({ nodeOptions: "--max-semi-space-size=8" });
    const theirs = await seenWith({ NODE_OPTIONS: "--max-semi-space-size=32 --no-warnings" });
    expect(theirs.nodeOptions).toBe("--max-semi-space-size=8 --max-semi-space-size=32 --no-warnings");
  }, 180_000);

  it("runs the plugin with glibc's malloc arenas capped at 2 (MALLOC_ARENA_MAX), on Node.js and the single-file build, unless the user set their own", async () => {
    const dir = await pluginDir("arenas");
    const onNode = async (env: NodeJS.ProcessEnv): Promise<string | undefined> => {
      const r = await start(dir, { PATH: pathWith(machineNode), ...env });
      expect(r.code).toBe(0);
      return (JSON.parse(r.out.trim().split("\n")[1]) as { arenas?: string }).arenas;
    };
    expect(await onNode({})).toBe("2");
    expect(await onNode({ MALLOC_ARENA_MAX: "8" })).toBe("8");
    // Set empty, it is still theirs (glibc then keeps its own default).
    expect(await onNode({ MALLOC_ARENA_MAX: "" })).toBe("");
    const standalone = async (env: NodeJS.ProcessEnv): Promise<string> => {
      const r = await start(dir, {
        PATH: pathWith(undefined),
        PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: overrides(),
        SHOW_ARENAS: "1",
        ...env,
      });
      expect(r.code).toBe(0);
      return r.out.trim().split("\n")[2];
    };
    expect(await standalone({})).toBe("arenas 2");
    expect(await standalone({ MALLOC_ARENA_MAX: "4" })).toBe("arenas 4");
  }, 180_000);

  it("starts Node.js once per start: no `node --version` before the plugin (the loader checks the version)", async () => {
    const dir = await pluginDir("node-once");
    const calls = path.join(work, "node-calls.log");
    const bin = fs.mkdtempSync(path.join(work, "bin-"));
    fs.writeFileSync(path.join(bin, "node"), `#!/bin/sh\necho "$*" >> '${calls}'\nexec '${machineNode}' "$@"\n`, { mode: 0o755 });
    const r = await start(dir, { PATH: bin });
    expect([r.code, r.out.split("\n")[0]]).toEqual([0, "4242"]);
    expect(fs.readFileSync(calls, "utf8").trim().split("\n")).toEqual([
      `${path.join(dir, "pulumi-resource-clouddb.js")} --logtostderr 127.0.0.1:1234`,
    ]);
  }, 180_000);

  it("downloads the single-file build once where there is no Node.js, from the release the overrides name, and runs it", async () => {
    const dir = await pluginDir("without-node");
    const env = { PATH: pathWith(undefined), PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: overrides() };
    const first = await start(dir, env);
    expect(first.err).toContain(`downloading the single-file build once, from ${baseUrl}/dl/v${VERSION}/${STANDALONE}`);
    expect([first.code, first.out]).toEqual([0, "5151\nstandalone --logtostderr 127.0.0.1:1234\n"]);
    expect(fs.existsSync(path.join(dir, "pulumi-resource-clouddb-standalone"))).toBe(true);
    const second = await start(dir, env);
    expect([second.code, second.out, second.err]).toEqual([0, "5151\nstandalone --logtostderr 127.0.0.1:1234\n", ""]);
    expect(served.requests).toEqual([`/dl/v${VERSION}/${STANDALONE}`]);
  }, 180_000);

  it("takes the single-file build where the loader finds the Node.js on PATH older than the bundle needs", async () => {
    const dir = await pluginDir("old-node", "99.0.0");
    const r = await start(dir, { PATH: pathWith(machineNode), PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: overrides() });
    expect(r.err).toContain("downloading the single-file build once");
    expect([r.code, r.out]).toEqual([0, "5151\nstandalone --logtostderr 127.0.0.1:1234\n"]);
    expect(served.requests).toEqual([`/dl/v${VERSION}/${STANDALONE}`]);
  }, 180_000);

  it("says which Node.js was too old when the single-file build cannot be had either", async () => {
    served.missing = true;
    const dir = await pluginDir("old-node-no-download", "99.0.0");
    const r = await start(dir, { PATH: pathWith(machineNode), PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: overrides() });
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      `the Node.js on PATH is ${process.version}, older than the 99.0.0 the plugin needs, and the single-file build cannot be had`,
    );
  }, 180_000);

  it("refuses an altered download, naming both SHA-256 sums, and keeps nothing", async () => {
    served.altered = true;
    const dir = await pluginDir("altered");
    const r = await start(dir, { PATH: pathWith(undefined), PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: overrides() });
    expect(r.code).toBe(1);
    expect(r.out).toBe("");
    expect(r.err).toMatch(
      new RegExp(
        `no Node\\.js on PATH, and the single-file build cannot be had: .*${STANDALONE} has SHA-256 [0-9a-f]{64}, not the [0-9a-f]{64} of release ${VERSION}: it was not run, nor kept`,
      ),
    );
    expect(fs.readdirSync(dir).sort()).toEqual(["pulumi-resource-clouddb", BUNDLE, "pulumi-resource-clouddb.js"].sort());
  }, 180_000);

  it("says which URL failed when the release lacks the single-file build", async () => {
    served.missing = true;
    const dir = await pluginDir("missing");
    const r = await start(dir, { PATH: pathWith(undefined), PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: overrides() });
    expect(r.code).toBe(1);
    expect(r.err).toContain(`downloading ${baseUrl}/dl/v${VERSION}/${STANDALONE}: 404 Not Found`);
  }, 180_000);

  it("tells a user of a target without a single-file build to install Node.js", async () => {
    const dir = await pluginDir("no-standalone", "20.18.1", "");
    const r = await start(dir, { PATH: pathWith(undefined) });
    expect(r.code).toBe(1);
    expect(r.err).toContain(`release ${VERSION} has no single-file build for linux-amd64: install Node.js 20.18.1 or later`);
    expect(served.requests).toEqual([]);
  }, 180_000);
});
