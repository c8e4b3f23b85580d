/**
 * The programs of `npm run bench:scale` (bench/scale.ts), one per host, each creating N
 * services (or, for the floor, N `noop:index:Thing`s), and the stack each runs in under the
 * real CLI ({@link CliProject}: its own file backend, `PULUMI_HOME` and passphrase):
 *
 * - `floor`: TypeScript, a `pulumi.CustomResource` of type `noop:index:Thing` through the
 *   no-op Go provider (bench/noop-provider, named in Pulumi.yaml's `plugins.providers`),
 *   whose Thing has a Service's outputs (19, `password` and `connectionString` secret);
 * - `dynamic`: TypeScript on this package's SDK (`sdk/`, the dynamic providers);
 * - `native-ts`: TypeScript on the generated SDK (sdk-native/nodejs, built as the native CLI
 *   tests build it, beside the newest `@pulumi/pulumi`) and the native plugin installed from
 *   its tarball, as tests/native/cli/support.ts installs it;
 * - `native-yaml`: Pulumi YAML (no loops: the N services written out) on the same plugin;
 * - `floor-yaml`: the same YAML with `noop:index:Thing`s: the floor of `native-yaml` (a YAML
 *   program costs far less than a TypeScript one, which ts-node compiles and type-checks);
 * - `node-floor-yaml`: `floor-yaml`'s program and Thing served by the same no-op provider
 *   written for Node.js (bench/noop-provider-node: `@grpc/grpc-js` and `@pulumi/pulumi`'s
 *   messages, as the native plugin serves the engine): what Node.js and its gRPC stack cost
 *   the engine before any provider's own work, measured against `floor-yaml`.
 *
 * Every service is `{ name, cpuMillis: 500, memoryGbs: 2 }`; the providers are the default
 * ones, configured by the stack's `clouddb:*` config (poll interval 20 ms). Every program
 * runs on the Node.js that runs the bench (the CLI's environment puts it on PATH).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { REPO_ROOT } from "../harness";
import { CliProject } from "../harness/cli/cliProject";
import { CliProcesses } from "../harness/cli/processes";
import type { CliTools } from "../harness/cli/tools";
import type { EmulatorProcess } from "../harness/emulatorProcess";
import { builtNodeSdk, pluginTarball, VERSION } from "../tests/native/cli/support";
import { buildNoopProvider, NODE_NOOP_DIR } from "./noopProvider";

/** The hosts the bench compares. */
export const HOSTS = ["floor", "floor-yaml", "node-floor-yaml", "dynamic", "native-ts", "native-yaml"] as const;
/** One of {@link HOSTS}. */
export type Host = (typeof HOSTS)[number];

/** The floor a host is measured against: the no-op Go provider from the same language. */
export const floorOf = (host: Host): Host => (host.endsWith("yaml") ? "floor-yaml" : "floor");

/** What every host's project needs, made once per run. */
export interface Prepared {
  readonly tools: CliTools;
  /** The folder of the no-op provider's binary. */
  readonly noopDir: string;
  /** The native plugin's tarball (`npm run plugin:pack`'s). */
  readonly pluginTarball: string;
  /** The generated TypeScript SDK, built (its `bin/`). */
  readonly nodeSdk: string;
}

/** Builds what the hosts need (the no-op provider, the plugin's tarball, the generated SDK). */
export async function prepare(tools: CliTools, hosts: readonly Host[]): Promise<Prepared> {
  const env = { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ""}` };
  const native = hosts.some((h) => h.startsWith("native"));
  return {
    tools,
    noopDir: path.dirname(buildNoopProvider().binary),
    pluginTarball: native ? await pluginTarball() : "",
    nodeSdk: hosts.includes("native-ts") ? await builtNodeSdk(env) : "",
  };
}

const TS_PROJECT = (name: string, extra = ""): string =>
  `name: ${name}\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n${extra}`;

const PACKAGE = (name: string): string => JSON.stringify({ name, private: true, main: "index.ts" });

const TSCONFIG = JSON.stringify({
  compilerOptions: {
    strict: true,
    target: "es2022",
    module: "commonjs",
    moduleResolution: "node",
    esModuleInterop: true,
    skipLibCheck: true,
  },
  files: ["index.ts"],
});

/**
 * A TypeScript program: `@pulumi/pulumi`, then `head` (imports, declarations), then `body`
 * (an expression: the resource) made for i in 0..n-1; with `hold`, a last resource after
 * all of them ({@link holdResource}).
 */
const loop = (body: string, head = "", hold?: string): string =>
  `import * as pulumi from "@pulumi/pulumi";\n${head}` +
  `const n = new pulumi.Config().requireNumber("n");\nconst made: pulumi.Resource[] = [];\n` +
  `for (let i = 0; i < n; i++) {\n  made.push(${body});\n}\n${hold === undefined ? "" : holdResource(hold)}`;

/**
 * A dynamic resource that depends on every resource the program made and whose create
 * writes `<dir>/ready` and then waits until `<dir>/release` exists: the stack's plugins stay
 * up, idle, after the last create, for a bench to read (bench/pluginMemory.ts). It runs in
 * the dynamic-provider host: for `dynamic`, the plugin under measure; else a process of its own.
 */
function holdResource(dir: string): string {
  const ready = JSON.stringify(path.join(dir, "ready"));
  const release = JSON.stringify(path.join(dir, "release"));
  return (
    `const holding: pulumi.dynamic.ResourceProvider = {\n` +
    `  async create() {\n    const fs = require("fs");\n    fs.writeFileSync(${ready}, "");\n` +
    `    while (!fs.existsSync(${release})) await new Promise((r) => setTimeout(r, 100));\n` +
    `    return { id: "hold", outs: {} };\n  },\n};\n` +
    `class Hold extends pulumi.dynamic.Resource {\n` +
    `  constructor(name: string, opts: pulumi.CustomResourceOptions) {\n    super(holding, name, {}, opts);\n  }\n}\n` +
    `new Hold("hold", { dependsOn: made });\n`
  );
}

/** The program's files of `host` for `n` resources (`n` is also the stack's config `n`); `hold`: see {@link holdResource} (TypeScript hosts). */
function programFiles(host: Host, n: number, p: Prepared, hold?: string): Record<string, string> {
  switch (host) {
    case "floor":
      return {
        "Pulumi.yaml": TS_PROJECT("scale-floor", `plugins:\n  providers:\n    - name: noop\n      path: ${p.noopDir}\n`),
        "tsconfig.json": TSCONFIG,
        "package.json": PACKAGE(host),
        "index.ts": loop(
          `new Thing(\`s\${i}\`, { name: \`bench-\${i}\`, cpuMillis: 500, memoryGbs: 2 })`,
          `class Thing extends pulumi.CustomResource {\n  constructor(name: string, args: pulumi.Inputs) {\n    super("noop:index:Thing", name, args);\n  }\n}\n`,
          hold,
        ),
      };
    case "dynamic":
      return {
        "Pulumi.yaml": TS_PROJECT("scale-dynamic"),
        "tsconfig.json": TSCONFIG,
        "package.json": PACKAGE(host),
        "index.ts": loop(
          `new clouddb.Service(\`s\${i}\`, { name: \`bench-\${i}\`, cpuMillis: 500, memoryGbs: 2 })`,
          `import * as clouddb from "pulumi-clouddb";\n`,
          hold,
        ),
      };
    case "native-ts":
      return {
        "Pulumi.yaml": TS_PROJECT("scale-native-ts"),
        "tsconfig.json": TSCONFIG,
        "package.json": PACKAGE(host),
        "index.ts": loop(
          `new clouddb.Service(\`s\${i}\`, { name: \`bench-\${i}\`, cpuMillis: 500, memoryGbs: 2 })`,
          `import * as clouddb from "@clouddb/pulumi-clouddb";\n`,
          hold,
        ),
      };
    case "floor-yaml":
    case "node-floor-yaml":
    case "native-yaml": {
      const type = host === "native-yaml" ? "clouddb:index:Service" : "noop:index:Thing";
      const dir = host === "floor-yaml" ? p.noopDir : NODE_NOOP_DIR;
      const plugins = host === "native-yaml" ? "" : `plugins:\n  providers:\n    - name: noop\n      path: ${dir}\n`;
      const services = Array.from(
        { length: n },
        (_, i) => `  s${i}:\n    type: ${type}\n    properties:\n      name: bench-${i}\n      cpuMillis: 500\n      memoryGbs: 2\n`,
      );
      if (hold !== undefined) throw new Error(`${host}: a YAML program cannot hold its plugins`);
      return { "Pulumi.yaml": `name: scale-${host}\nruntime: yaml\n${plugins}resources:\n${services.join("")}` };
    }
  }
}

/** What {@link scaleStack} may add: a hold (see {@link holdResource}) and the CLI's environment. */
export interface StackOptions {
  readonly hold?: string;
  readonly env?: Record<string, string>;
}

/** A fresh stack of `host`'s program for `n` resources against `emu`, and the launcher that notes each CLI's pid. */
export async function scaleStack(
  host: Host,
  n: number,
  p: Prepared,
  emu: EmulatorProcess,
  opts: StackOptions = {},
): Promise<{ project: CliProject; processes: CliProcesses; stateFile: () => string | undefined; remove: () => Promise<void> }> {
  const source = fs.mkdtempSync(path.join(os.tmpdir(), `clouddb-scale-${host}-`));
  for (const [f, text] of Object.entries(programFiles(host, n, p, opts.hold))) fs.writeFileSync(path.join(source, f), text);
  const processes = new CliProcesses(fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-scale-cli-")), p.tools.pulumi);
  const journal = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-scale-journal-"));
  const project = await CliProject.create(
    source,
    { ...p.tools, pulumi: processes.command },
    {
      env: { PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true", CLOUDDB_JOURNAL_DIR: journal, ...opts.env },
    },
  );
  fs.rmSync(source, { recursive: true, force: true });
  if (host === "native-ts") nativeNodeModules(project.dir, p.nodeSdk);
  if (host.startsWith("native")) await project.expect(["plugin", "install", "resource", "clouddb", VERSION, "--file", p.pluginTarball]);
  await project.config(
    {
      n: String(n),
      "clouddb:apiUrl": emu.baseUrl,
      "clouddb:projectId": emu.projectId,
      "clouddb:pollInterval": "20ms",
      "clouddb:pollMaxInterval": "200ms",
    },
    { "clouddb:apiKey": emu.pat },
  );
  const stacks = path.join(path.dirname(project.dir), "state", ".pulumi", "stacks");
  const stateFile = (): string | undefined => {
    const found = fs.existsSync(stacks) ? fs.readdirSync(stacks, { recursive: true, encoding: "utf8" }) : [];
    const file = found.find((f) => /\.json(\.gz)?$/.test(f) && !f.includes(".bak"));
    return file === undefined ? undefined : path.join(stacks, file);
  };
  const remove = async (): Promise<void> => {
    processes.killAll();
    await project.remove();
    for (const d of [processes.root, journal]) fs.rmSync(d, { recursive: true, force: true });
  };
  return { project, processes, stateFile, remove };
}

/**
 * The native TypeScript program's `node_modules`: the built SDK as `@clouddb/pulumi-clouddb`
 * and the packages it was installed with (the newest `@pulumi/pulumi`), so the program and
 * the SDK load one `@pulumi/pulumi` (instead of the repository's, which CliProject links).
 */
function nativeNodeModules(dir: string, sdkBin: string): void {
  const modules = path.join(dir, "node_modules");
  fs.rmSync(modules, { force: true });
  fs.mkdirSync(path.join(modules, "@clouddb"), { recursive: true });
  const installed = path.join(path.dirname(sdkBin), "node_modules");
  for (const entry of fs.readdirSync(installed)) fs.symlinkSync(path.join(installed, entry), path.join(modules, entry));
  fs.symlinkSync(sdkBin, path.join(modules, "@clouddb", "pulumi-clouddb"), "dir");
  // ts-node and TypeScript for the language host, when the SDK's install has none.
  for (const tool of ["typescript", "ts-node", "@types"]) {
    if (!fs.existsSync(path.join(modules, tool))) fs.symlinkSync(path.join(REPO_ROOT, "node_modules", tool), path.join(modules, tool));
  }
}
