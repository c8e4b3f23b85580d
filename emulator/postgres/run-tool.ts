/** Running a PostgreSQL tool (`initdb`, `psql`, `openssl`, `cp`) to completion. */
import { spawn } from "node:child_process";
import path from "node:path";
import { PostgresError, scrub, type PostgresStep } from "./errors";
import type { ServerAccount } from "./server-account";

/** How to run a tool. */
export interface ToolOptions {
  /** Run as this account's user (when the emulator must switch); else as this process. */
  as?: ServerAccount;
  /** Text written to the tool's standard input (how secrets reach `psql`: never in arguments). */
  input?: string;
  /** Working directory. @default the process's */
  cwd?: string;
  /** Strings removed from any error message (the passwords in `input`). @default none */
  secrets?: readonly string[];
  /** Milliseconds before the tool is killed. @default 60000 */
  timeoutMs?: number;
}

/**
 * The environment of every tool and server: `PATH` and the C locale, none of the
 * caller's `PG*` variables (they would redirect `psql`).
 */
export function toolEnvironment(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", LC_ALL: "C", LANG: "C" };
}

/**
 * Runs `file` with `args` and resolves with its standard output.
 * @throws PostgresError (`step`) when it cannot start, fails or times out; the message
 *   carries its scrubbed standard error.
 */
export function runTool(step: PostgresStep, file: string, args: readonly string[], options: ToolOptions = {}): Promise<string> {
  const secrets = options.secrets ?? [];
  return new Promise((resolve, reject) => {
    const child = spawn(file, [...args], {
      cwd: options.cwd,
      env: toolEnvironment(),
      stdio: ["pipe", "pipe", "pipe"],
      ...(options.as?.switchTo ? { uid: options.as.switchTo.uid, gid: options.as.switchTo.gid } : {}),
    });
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.stdin.on("error", () => undefined);
    child.stdin.end(options.input ?? "");
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new PostgresError(step, `cannot run ${path.basename(file)}: ${error.message}`));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve(stdout);
      const how = signal === null ? `exited with ${code}` : `was killed (${signal})`;
      reject(new PostgresError(step, `${path.basename(file)} ${how}: ${scrub(stderr.trim(), secrets) || "(no output)"}`));
    });
  });
}
