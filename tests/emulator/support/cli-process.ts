/** Runs `clouddb-emulator` (the CLI source) as a child process, as a user would. */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import type { RunningEmulator } from "../../../emulator";

const ROOT = path.resolve(__dirname, "../../..");
const REGISTER = path.join(__dirname, "register-typescript.js");
const CLI = path.join(ROOT, "emulator", "cli.ts");

/** A CLI child process and what it printed. */
export interface CliEmulator {
  child: ChildProcess;
  /** The `KEY=value` lines, by key, in print order. */
  printed: Record<string, string>;
  /** The first line printed. */
  firstLine: string;
  /** The same fields as the in-process API, for {@link EmulatorApi}. */
  emu: RunningEmulator;
  /** Sends SIGKILL and waits for the exit. */
  kill9(): Promise<void>;
}

/** Starts the CLI with `args` and resolves once it has printed its six lines. */
export function startCli(args: string[]): Promise<CliEmulator> {
  const child = spawn(process.execPath, ["-r", REGISTER, CLI, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    const timer = setTimeout(() => reject(new Error(`CLI did not start: ${out}${err}`)), 60_000);
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("exit", (code) => reject(new Error(`CLI exited with ${code}: ${err}`)));
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (!out.includes("CLOUDDB_EMULATOR_URL=") || !out.endsWith("\n")) return;
      clearTimeout(timer);
      const lines = out.trim().split("\n");
      const printed = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]));
      const exited = new Promise<void>((r) => child.once("exit", () => r()));
      resolve({
        child,
        printed,
        firstLine: lines[0],
        emu: {
          url: printed.CLOUDDB_EMULATOR_URL,
          baseUrl: printed.CLOUDDB_API_URL,
          port: Number(new URL(printed.CLOUDDB_EMULATOR_URL).port),
          projectId: printed.CLOUDDB_PROJECT_ID,
          secondProjectId: printed.CLOUDDB_SECOND_PROJECT_ID,
          pat: printed.CLOUDDB_API_KEY,
          oauthToken: printed.CLOUDDB_OAUTH_TOKEN,
          close: async () => {
            child.kill("SIGTERM");
            await exited;
          },
        },
        async kill9() {
          child.kill("SIGKILL");
          await exited;
        },
      });
    });
  });
}
