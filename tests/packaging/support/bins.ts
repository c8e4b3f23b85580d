/**
 * The package's bins as a user runs them from a project: `node_modules/.bin/<name>`, the
 * launcher npm made at install, with the project as the working directory.
 */
import { execFile, spawn } from "child_process";
import * as path from "path";

/** What a bin printed and how it ended. */
export interface BinRun {
  /** Its exit status (null when a signal ended it). */
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The launcher of bin `name` in the project at `dir`. */
export function binPath(dir: string, name: string): string {
  return path.join(dir, "node_modules", ".bin", name);
}

/**
 * Runs bin `name` of the project at `dir` to its end (at most 60 s), with `env` over this
 * process's environment. Asynchronous: the bin may talk to an emulator in this process.
 */
export function runBin(dir: string, name: string, args: string[], env: Record<string, string> = {}): Promise<BinRun> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      binPath(dir, name),
      args,
      { cwd: dir, env: { ...process.env, ...env }, encoding: "utf8", timeout: 60_000 },
      (error, stdout, stderr) => {
        // A status other than 0 is an answer; no status (not started, killed at the timeout) is not.
        if (error && typeof error.code !== "number") reject(new Error(`${name} ${args.join(" ")}: ${error.message}\n${stderr}`));
        else resolve({ status: child.exitCode, stdout, stderr });
      },
    );
  });
}

/** An emulator started with the project's `clouddb-emulator`, and the CLOUDDB_* variables it printed. */
export interface BinEmulator {
  /** `CLOUDDB_API_URL`, `CLOUDDB_API_KEY`, `CLOUDDB_PROJECT_ID`, ... as printed. */
  readonly env: Record<string, string>;
  /** Stops it (SIGTERM) and waits for its exit. */
  stop(): Promise<void>;
}

/**
 * Starts the project's `clouddb-emulator --port 0 --clock-scale 0.02` and waits for the
 * `KEY=value` lines it prints (the base URL, key and project), at most 15 s.
 */
export function startBinEmulator(dir: string): Promise<BinEmulator> {
  const child = spawn(binPath(dir, "clouddb-emulator"), ["--port", "0", "--clock-scale", "0.02"], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`clouddb-emulator printed no CLOUDDB_API_URL within 15 s:\n${out}\n${err}`));
    }, 15_000);
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
    const early = (code: number | null): void => {
      clearTimeout(timer);
      reject(new Error(`clouddb-emulator exited with ${code}:\n${out}\n${err}`));
    };
    child.once("exit", early);
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      const env = Object.fromEntries(
        out
          .split("\n")
          .filter((l) => /^CLOUDDB_[A-Z_]+=/.test(l))
          .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
      );
      if (!env.CLOUDDB_API_URL || !env.CLOUDDB_API_KEY || !env.CLOUDDB_PROJECT_ID || !env.CLOUDDB_EMULATOR_URL) return;
      clearTimeout(timer);
      child.removeListener("exit", early);
      resolve({ env, stop });
    });
  });
}

/**
 * Starts bin `name` of the project at `dir` and returns the first line it prints on
 * standard output (at most 15 s), then ends it: what a plugin prints first is its port.
 */
export function firstLine(dir: string, name: string, args: string[] = []): Promise<string> {
  const child = spawn(binPath(dir, name), args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  return new Promise<string>((resolve, reject) => {
    let out = "";
    let err = "";
    const timer = setTimeout(() => reject(new Error(`${name} printed no line within 15 s: ${err}`)), 15_000);
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) {
        clearTimeout(timer);
        resolve(out.split("\n")[0]);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code}) before printing a line: ${err}`));
    });
  }).finally(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
}
