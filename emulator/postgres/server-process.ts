/**
 * One running `postgres` server, supervised so that it never outlives the emulator: it
 * runs under a small `sh` supervisor whose standard input is a pipe from the emulator.
 * When that pipe closes, because the emulator stops it or because the emulator died
 * (even by `kill -9`), the supervisor asks the server for a fast shutdown (SIGINT).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, openSync, promises as fs } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import type { PostgresBinaries } from "./binaries";
import { PostgresError } from "./errors";
import { toolEnvironment } from "./run-tool";
import type { ServerAccount } from "./server-account";
import type { TlsFiles } from "./tls";

/**
 * The supervisor: starts the server (`"$@"`) in the background, and a watcher that
 * waits for end-of-file on the emulator's pipe (kept on fd 3) and then signals the
 * server. It exits with the server's status.
 */
const SUPERVISOR = [
  "exec 3<&0 0</dev/null",
  '"$@" 3<&- &',
  "pg=$!",
  '( read -r _ <&3; kill -INT "$pg" 2>/dev/null ) &',
  "watcher=$!",
  "exec 3<&-",
  'wait "$pg"; code=$?',
  'kill "$watcher" 2>/dev/null',
  'exit "$code"',
].join("\n");

/** What a server needs to start. */
export interface ServerLaunch {
  binaries: PostgresBinaries;
  account: ServerAccount;
  /** The cluster's data directory (PGDATA). */
  dataDir: string;
  /** TCP port on 127.0.0.1. */
  port: number;
  /** Directory of the Unix socket the emulator administers the server through. */
  socketDir: string;
  tls: TlsFiles;
  /** File the server's output is appended to. */
  logFile: string;
}

/** How long a server may take to accept connections, and to stop. */
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 20_000;

/** The lines of `postmaster.pid`, or undefined when there is none. */
async function pidFile(dataDir: string): Promise<string[] | undefined> {
  try {
    return (await fs.readFile(`${dataDir}/postmaster.pid`, "utf8")).split("\n");
  } catch {
    return undefined;
  }
}

/** True while a server process of `dataDir` (by its pid file) is alive (Linux `/proc`). */
async function leftoverAlive(dataDir: string): Promise<number | undefined> {
  const pid = Number((await pidFile(dataDir))?.[0]);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    const cmdline = await fs.readFile(`/proc/${pid}/cmdline`, "utf8");
    return cmdline.includes(dataDir) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** The last lines of the server log, for an error message. */
async function logTail(logFile: string): Promise<string> {
  try {
    return (await fs.readFile(logFile, "utf8")).trim().split("\n").slice(-5).join(" | ");
  } catch {
    return "(no log)";
  }
}

/** A started server. */
export class ServerProcess {
  private exitedFlag = false;
  private readonly exit: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    private readonly dataDir: string,
  ) {
    this.exit = new Promise((resolve) => child.once("exit", () => resolve()));
    void this.exit.then(() => (this.exitedFlag = true));
  }

  /**
   * Starts a server and resolves once it accepts connections. Waits first for a server a
   * previous emulator left behind on the same directory to finish its shutdown.
   * @throws PostgresError (`start`) with the end of the server log
   */
  static async start(launch: ServerLaunch): Promise<ServerProcess> {
    const waitUntil = Date.now() + STOP_TIMEOUT_MS;
    while ((await leftoverAlive(launch.dataDir)) !== undefined && Date.now() < waitUntil) await sleep(100);
    const startedAt = Math.floor(Date.now() / 1000) - 1;
    const log = openSync(launch.logFile, "a", 0o600);
    let child: ChildProcess;
    try {
      child = spawn(
        "/bin/sh",
        [
          "-c",
          SUPERVISOR,
          "clouddb-postgres-supervisor",
          launch.binaries.postgres,
          "-D",
          launch.dataDir,
          "-p",
          String(launch.port),
          "-k",
          launch.socketDir,
          "-c",
          `ssl_cert_file=${launch.tls.certFile}`,
          "-c",
          `ssl_key_file=${launch.tls.keyFile}`,
        ],
        {
          cwd: launch.dataDir,
          env: toolEnvironment(),
          detached: true,
          stdio: ["pipe", log, log],
          ...(launch.account.switchTo ? { uid: launch.account.switchTo.uid, gid: launch.account.switchTo.gid } : {}),
        },
      );
    } finally {
      closeSync(log);
    }
    child.stdin!.on("error", () => undefined);
    const server = new ServerProcess(child, launch.dataDir);
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      const lines = await pidFile(launch.dataDir);
      const fresh = lines !== undefined && Number(lines[2]) >= startedAt && Number(lines[3]) === launch.port;
      if (fresh && lines[7]?.trim() === "ready" && !server.exitedFlag) return server;
      if (server.exitedFlag || Date.now() > deadline) {
        await server.stop();
        throw new PostgresError(
          "start",
          `the server on port ${launch.port} ${server.exitedFlag ? "exited" : "did not accept connections in time"}: ${await logTail(launch.logFile)}`,
        );
      }
      await sleep(25);
    }
  }

  /** True once the server (its supervisor) has exited. */
  get exited(): boolean {
    return this.exitedFlag;
  }

  /** Calls `listener` when the server exits, for whatever reason. */
  onExit(listener: () => void): void {
    void this.exit.then(listener);
  }

  /**
   * Fast shutdown (open connections are ended) and waits for the exit. A server that does
   * not stop in time gets SIGQUIT (immediate shutdown), its supervisor SIGKILL.
   */
  async stop(): Promise<void> {
    if (this.exitedFlag) return;
    this.child.stdin?.end();
    const stopped = await Promise.race([this.exit.then(() => true), sleep(STOP_TIMEOUT_MS, false, { ref: false })]);
    if (stopped) return;
    const pid = await leftoverAlive(this.dataDir);
    if (pid !== undefined) process.kill(pid, "SIGQUIT");
    this.child.kill("SIGKILL");
    await this.exit;
  }
}
