/**
 * A sandbox for running `node scripts/stack.js` (and `scripts/pulumi-tools.js`) as a user
 * would, without touching the user's `.clouddb`, `~/.pulumi` or `.tools/pulumi`: its own
 * work dir, PULUMI_HOME and tools folder, a fake `pulumi` CLI that records each call, a
 * fake `go` that "builds" the fake CLI (and records each call), a stand-in for the `pulumi`
 * npm package's launcher, a PATH made of chosen directories only, and clean-up that stops
 * any emulator the script started and removes every directory it made.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { REPO_ROOT } from "../../../harness";

/** One call of the fake CLI. */
export interface CliCall {
  /** Its working directory. */
  cwd: string;
  /** Its arguments, joined by spaces. */
  args: string;
  /** What it read from standard input (only `config set --secret` reads it). */
  stdin: string;
  /** PULUMI_BACKEND_URL it saw. */
  backend: string;
  /** PULUMI_CONFIG_PASSPHRASE it saw. */
  passphrase: string;
  /** The first directory of the PATH it saw. */
  pathHead: string;
}

/** What a run of the script did. */
export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

const FAKE_CLI = `#!/bin/sh
input=""
if [ "$1 $2 $3" = "config set --secret" ]; then input=$(cat); fi
printf '%s\\t%s\\t%s\\t%s\\t%s\\t%s\\n' "$PWD" "$*" "$input" "$PULUMI_BACKEND_URL" "$PULUMI_CONFIG_PASSPHRASE" "\${PATH%%:*}" >> "$FAKE_PULUMI_LOG"
if [ "$1 $2" = "stack select" ] && [ ! -f "$FAKE_PULUMI_LOG.stack" ]; then echo "no stack named $3" >&2; exit 255; fi
if [ "$1 $2" = "stack init" ]; then : > "$FAKE_PULUMI_LOG.stack"; fi
exit 0
`;

/**
 * A fake `go`: `go build -o <out>` writes the fake CLI to `<out>` when it is a `pulumi`, else
 * a script that does nothing; `go list -m` answers the fake sdk module's folder. With
 * FAKE_GO_FAIL set, `go build` fails as the module proxy does when it refuses a module.
 */
const FAKE_GO = `#!/bin/sh
echo "$*" >> "$FAKE_GO_LOG"
case "$1" in
  env) echo go1.26.8 ;;
  list) echo "$FAKE_GO_SDK_DIR" ;;
  build)
    if [ -n "$FAKE_GO_FAIL" ]; then echo "go: github.com/pulumi/pulumi/pkg/v3@v3.274.1: 403 Forbidden" >&2; exit 1; fi
    prev=""; for a in "$@"; do if [ "$prev" = "-o" ]; then out="$a"; fi; prev="$a"; done
    case "$out" in
      */pulumi) cat "$FAKE_PULUMI_CLI" > "$out" ;;
      *) printf '#!/bin/sh\\nexit 0\\n' > "$out" ;;
    esac
    chmod +x "$out" ;;
esac
`;

/** What the `pulumi` npm package's launcher does where it cannot fetch the CLI. */
const NPM_LAUNCHER = `#!/bin/sh
echo "pulumi: fetch failed" >&2
exit 1
`;

/** Tools the fake CLI and the fake go need, linked into a PATH directory of their own. */
const TOOLS = ["sh", "cat", "chmod"];

function which(tool: string): string {
  for (const dir of ["/usr/bin", "/bin"]) {
    const file = path.join(dir, tool);
    if (fs.existsSync(file)) return file;
  }
  throw new Error(`${tool} not found in /usr/bin or /bin`);
}

/** A sandbox; call {@link Sandbox.cleanup} after use. */
export class Sandbox {
  /** Root of everything this sandbox made. */
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-scripts-"));
  /** CLOUDDB_WORK_DIR of the runs. */
  readonly work = path.join(this.dir, "work");
  /** PULUMI_HOME of the runs. */
  readonly pulumiHome = path.join(this.dir, "pulumi-home");
  /** CLOUDDB_PULUMI_TOOLS_DIR of the runs: where the CLI is built. */
  readonly pulumiTools = path.join(this.dir, "pulumi-tools");
  /** A directory holding only the fake `pulumi`. */
  readonly fakeCliDir = path.join(this.dir, "fake-cli");
  /** A directory holding only the fake `go`. */
  readonly fakeGoDir = path.join(this.dir, "fake-go");
  /** A project's `node_modules/.bin` holding only the `pulumi` npm package's launcher. */
  readonly npmLauncherDir = path.join(this.dir, "npm-project", "node_modules", ".bin");
  /** A directory holding only basic tools (no `pulumi`, no `go`). */
  readonly toolsDir = path.join(this.dir, "tools");
  /** The log the fake CLI appends to. */
  readonly log = path.join(this.dir, "pulumi-calls.log");
  /** The log the fake go appends to. */
  readonly goLog = path.join(this.dir, "go-calls.log");
  /** The fake sdk module's folder (holding the python host's exec script). */
  readonly fakeSdkDir = path.join(this.dir, "fake-sdk");

  constructor() {
    fs.mkdirSync(this.fakeCliDir);
    fs.writeFileSync(path.join(this.fakeCliDir, "pulumi"), FAKE_CLI, { mode: 0o755 });
    fs.mkdirSync(this.fakeGoDir);
    fs.writeFileSync(path.join(this.fakeGoDir, "go"), FAKE_GO, { mode: 0o755 });
    const pkg = path.join(this.dir, "npm-project", "node_modules", "pulumi");
    fs.mkdirSync(pkg, { recursive: true });
    fs.writeFileSync(path.join(pkg, "package.json"), JSON.stringify({ name: "pulumi", bin: { pulumi: "launcher.js" } }));
    fs.writeFileSync(path.join(pkg, "launcher.js"), NPM_LAUNCHER, { mode: 0o755 });
    fs.mkdirSync(this.npmLauncherDir);
    fs.symlinkSync(path.join("..", "pulumi", "launcher.js"), path.join(this.npmLauncherDir, "pulumi"));
    fs.mkdirSync(path.join(this.fakeSdkDir, "python", "cmd"), { recursive: true });
    fs.writeFileSync(path.join(this.fakeSdkDir, "python", "cmd", "pulumi-language-python-exec"), "#!/usr/bin/env python3\n");
    fs.mkdirSync(this.toolsDir);
    for (const tool of TOOLS) fs.symlinkSync(which(tool), path.join(this.toolsDir, tool));
  }

  /** The fake CLI's path. */
  get fakeCli(): string {
    return path.join(this.fakeCliDir, "pulumi");
  }

  /** The calls the fake CLI recorded so far. */
  calls(): CliCall[] {
    if (!fs.existsSync(this.log)) return [];
    return fs
      .readFileSync(this.log, "utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => {
        const [cwd = "", args = "", stdin = "", backend = "", passphrase = "", pathHead = ""] = l.split("\t");
        return { cwd, args, stdin, backend, passphrase, pathHead };
      });
  }

  /** The calls the fake go recorded so far (its arguments, joined by spaces). */
  goCalls(): string[] {
    if (!fs.existsSync(this.goLog)) return [];
    return fs
      .readFileSync(this.goLog, "utf8")
      .split("\n")
      .filter((l) => l !== "");
  }

  /** The folders in the tools folder (a built set of tools is named by its 12-digit key). */
  toolFolders(): string[] {
    return fs.existsSync(this.pulumiTools) ? fs.readdirSync(this.pulumiTools).sort() : [];
  }

  /** Runs `node scripts/stack.js ...args` with PATH set to `pathDirs` only. */
  run(args: string[], opts: { pathDirs: string[]; env?: Record<string, string> }): Promise<RunResult> {
    return this.runScript("stack.js", args, opts);
  }

  /** Runs `node scripts/<script> ...args` with PATH set to `pathDirs` only. */
  runScript(script: string, args: string[], opts: { pathDirs: string[]; env?: Record<string, string> }): Promise<RunResult> {
    const env: Record<string, string> = {
      HOME: this.dir,
      PATH: opts.pathDirs.join(path.delimiter),
      CLOUDDB_WORK_DIR: this.work,
      PULUMI_HOME: this.pulumiHome,
      CLOUDDB_PULUMI_TOOLS_DIR: this.pulumiTools,
      FAKE_PULUMI_LOG: this.log,
      FAKE_PULUMI_CLI: this.fakeCli,
      FAKE_GO_LOG: this.goLog,
      FAKE_GO_SDK_DIR: this.fakeSdkDir,
      CLOUDDB_CLOCK_SCALE: "0.02",
      ...opts.env,
    };
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [path.join(REPO_ROOT, "scripts", script), ...args], {
        cwd: REPO_ROOT,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
      child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
      const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
      child.on("error", reject);
      child.on("close", (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
  }

  /** The emulator the script recorded, if any. */
  emulator(): { pid: number; CLOUDDB_API_URL: string; CLOUDDB_API_KEY: string } | undefined {
    const file = path.join(this.work, "emulator.json");
    return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : undefined;
  }

  /** Stops the emulator the script started (if still running) and removes every directory made. */
  async cleanup(): Promise<void> {
    const pid = this.emulator()?.pid;
    if (pid !== undefined) await stopProcess(pid);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** True while a process with this id exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until the process is gone, at most `ms`; returns whether it is. */
export async function gone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return !alive(pid);
}

/** Sends SIGTERM, then SIGKILL after 3 s, and waits (at most 2 s more) until the process is gone. */
export async function stopProcess(pid: number): Promise<void> {
  if (!alive(pid)) return;
  process.kill(pid, "SIGTERM");
  if (await gone(pid, 3_000)) return;
  process.kill(pid, "SIGKILL");
  await gone(pid, 2_000);
}
