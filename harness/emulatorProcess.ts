/**
 * The emulator CLI (compiled, `dist/emulator/cli.js`) as a child process, as a user runs it:
 * for benchmarks (isolated from the process that runs the Pulumi program) and for tests
 * that kill it (`kill -9`) and start it again on the same data directory.
 */
import { spawn, type ChildProcess } from "child_process";
import * as net from "net";
import * as path from "path";
import { EmulatorControl, type LoggedRequest } from "../emulator/control-client";

const ROOT = path.resolve(__dirname, "..");
const CLI = path.join(ROOT, "dist", "emulator", "cli.js");

export type { LoggedRequest } from "../emulator/control-client";

/** Flags of the CLI. */
export interface EmulatorProcessOptions {
  port?: number;
  clockScale?: number;
  dataDir?: string;
  projectId?: string;
  pat?: string;
}

/** A running emulator CLI child process. */
export interface EmulatorProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** `<url>/public/api/v1` */
  readonly baseUrl: string;
  readonly port: number;
  readonly projectId: string;
  readonly pat: string;
  /** The emulator's control path. */
  readonly controls: EmulatorControl;
  /** Calls the control path `/_emulator<path>`. */
  control(method: string, path: string, body?: unknown): Promise<Response>;
  /** The request log, oldest first. */
  requests(): Promise<LoggedRequest[]>;
  /** Empties the request log. */
  clearRequests(): Promise<void>;
  /** SIGKILL, then waits for the exit. */
  kill9(): Promise<void>;
  /** SIGTERM, then waits for the exit. */
  close(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (free when asked; the caller binds it soon after). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * A port on 127.0.0.1 where nothing listens (connection refused), below 1024 so that no
 * `listen(0)` of a test running beside ours can be given it: a port freed after a bind is
 * handed out again at once, and a client meant to meet a refusal meets someone's server.
 */
export async function deadPort(): Promise<number> {
  for (let port = 1; port < 1024; port++) if (await refuses(port)) return port;
  throw new Error("every port below 1024 on 127.0.0.1 accepts connections");
}

/** Whether a connection to 127.0.0.1:`port` is refused. */
function refuses(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (e: NodeJS.ErrnoException) => resolve(e.code === "ECONNREFUSED"));
  });
}

/** Starts `node dist/emulator/cli.js` with the options and resolves once it printed its URLs. */
export function startEmulatorProcess(opts: EmulatorProcessOptions = {}): Promise<EmulatorProcess> {
  const args = ["--port", String(opts.port ?? 0), "--clock-scale", String(opts.clockScale ?? 1)];
  if (opts.dataDir !== undefined) args.push("--data-dir", opts.dataDir);
  if (opts.projectId !== undefined) args.push("--project-id", opts.projectId);
  if (opts.pat !== undefined) args.push("--pat", opts.pat);
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  child.unref();
  for (const s of [child.stdout, child.stderr] as unknown as { unref?: () => void }[]) s.unref?.();
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    const timer = setTimeout(() => reject(new Error(`emulator did not start: ${out}${err}`)), 20_000);
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`emulator exited with ${code}: ${err}`));
    });
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (!out.includes("CLOUDDB_EMULATOR_URL=") || !out.endsWith("\n")) return;
      clearTimeout(timer);
      const printed = Object.fromEntries(
        out
          .trim()
          .split("\n")
          .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
      ) as Record<string, string>;
      const url = printed.CLOUDDB_EMULATOR_URL;
      const pat = printed.CLOUDDB_API_KEY;
      const controls = new EmulatorControl(url, pat);
      const control = (method: string, p: string, body?: unknown): Promise<Response> => controls.call(method, p, body);
      const stop = async (signal: NodeJS.Signals): Promise<void> => {
        if (child.exitCode === null && child.signalCode === null) child.kill(signal);
        await exited;
      };
      resolve({
        child,
        pid: child.pid!,
        url,
        baseUrl: printed.CLOUDDB_API_URL,
        port: Number(new URL(url).port),
        projectId: printed.CLOUDDB_PROJECT_ID,
        pat,
        control,
        controls,
        requests: () => controls.requests(),
        clearRequests: () => controls.clearRequests(),
        kill9: () => stop("SIGKILL"),
        close: () => stop("SIGTERM"),
      });
    });
  });
}

/** The stack config pointing the providers at `emu`; poll settings and read cache left at their defaults. */
export function defaultConfig(emu: { baseUrl: string; pat: string; projectId: string }): Record<string, string> {
  return { "clouddb:apiUrl": emu.baseUrl, "clouddb:apiKey": emu.pat, "clouddb:projectId": emu.projectId };
}
