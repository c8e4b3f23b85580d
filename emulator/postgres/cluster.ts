/**
 * The PostgreSQL cluster of one service: its own data directory and server, brought step
 * by step toward what the service wants (running with the service's password, stopped,
 * or removed). One step runs at a time; a failed step is logged and retried with backoff.
 */
import { existsSync, promises as fs } from "node:fs";
import path from "node:path";
import type { DatabaseState, DatabaseWish } from "../model/databases";
import type { PostgresBinaries } from "./binaries";
import { PostgresError, scrub } from "./errors";
import { freePort, isPortFree } from "./ports";
import { runTool } from "./run-tool";
import type { ServerAccount } from "./server-account";
import { ServerProcess } from "./server-process";
import type { TlsFiles } from "./tls";

/** What every cluster of a fleet shares. */
export interface ClusterContext {
  binaries: PostgresBinaries;
  account: ServerAccount;
  tls: TlsFiles;
  /** Directory of the administration sockets. */
  socketDir: string;
  /** Copies the fleet's template cluster (made once with `initdb`) to `target`. */
  copyTemplate(target: string): Promise<void>;
  /** Ports in use by the fleet, not to be moved to. */
  takenPorts(): Set<number>;
  /** Records that a service's server moved to another port (its own was taken). */
  relocate(serviceId: string, port: number): void;
  /** Reports a failure (already scrubbed of passwords). */
  log(line: string): void;
}

/** The database and role every service has (CONTRACT "Connecting to a service"). */
export const DATABASE_NAME = "tsdb";
/** The admin role of every service. */
export const ADMIN_ROLE = "tsdbadmin";

/** `value` as an SQL string literal (standard_conforming_strings is on). */
function literal(value: string): string {
  return `'${value.split("'").join("''")}'`;
}

/** Creates the role and the database when missing, and sets the role's password. */
function setupSql(password: string): string {
  return [
    `SELECT NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${ADMIN_ROLE}') AS missing_role \\gset`,
    "\\if :missing_role",
    `CREATE ROLE ${ADMIN_ROLE} LOGIN CREATEDB CREATEROLE;`,
    "\\endif",
    `ALTER ROLE ${ADMIN_ROLE} WITH LOGIN PASSWORD ${literal(password)};`,
    `SELECT NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = '${DATABASE_NAME}') AS missing_db \\gset`,
    "\\if :missing_db",
    `CREATE DATABASE ${DATABASE_NAME} OWNER ${ADMIN_ROLE};`,
    "\\endif",
    "",
  ].join("\n");
}

const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 8_000;

/** One service's cluster under `dir` (`dir/data` is PGDATA, `dir/server.log` its log). */
export class Cluster {
  private server: ServerProcess | undefined;
  private appliedPassword: string | undefined;
  private working: Promise<void> | undefined;
  private busy = false;
  private closed = false;
  private retryMs = RETRY_FIRST_MS;
  private retryTimer: NodeJS.Timeout | undefined;

  /**
   * @param dir - the cluster's directory.
   * @param wish - what the service wants (updated by {@link want}).
   * @param context - what the fleet shares.
   */
  constructor(
    readonly dir: string,
    private wish: DatabaseWish,
    private readonly context: ClusterContext,
  ) {}

  private get dataDir(): string {
    return path.join(this.dir, "data");
  }

  private get exists(): boolean {
    return existsSync(path.join(this.dataDir, "PG_VERSION"));
  }

  /** The port the cluster's server listens on (or will). */
  get port(): number {
    return this.wish.endpoint.port;
  }

  /** What the database is doing, as service statuses wait for it. */
  state(): DatabaseState {
    const server = this.server !== undefined && !this.server.exited;
    if (server && this.appliedPassword !== undefined && this.wish.want === "running") return "running";
    if (this.busy || server) return "busy";
    return this.exists ? "stopped" : "absent";
  }

  /** True once the cluster is what the service wants (and nothing is under way). */
  get settled(): boolean {
    return this.working === undefined;
  }

  /** Sets what the service wants and works toward it; resolves when there (or after a failed step). */
  want(wish: DatabaseWish): Promise<void> {
    this.wish = { ...wish, endpoint: { ...wish.endpoint } };
    return this.kick();
  }

  /** True when the server runs but does not have the wanted password yet. */
  get passwordPending(): boolean {
    return this.server !== undefined && !this.server.exited && this.appliedPassword !== this.wish.password;
  }

  /** Starts working toward the wish unless already working; resolves when done. */
  kick(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.working ??= this.converge().finally(() => {
      this.working = undefined;
    });
    return this.working;
  }

  /** Stops the server (if running) and works no more. The data stays. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    await this.working;
    await this.stop();
  }

  private async converge(): Promise<void> {
    clearTimeout(this.retryTimer);
    try {
      for (let step = this.next(); step !== undefined && !this.closed; step = this.next()) {
        this.busy = step !== "password";
        await this[step]();
        this.busy = false;
      }
      this.retryMs = RETRY_FIRST_MS;
    } catch (error) {
      this.busy = false;
      const secrets = [this.wish.password, this.appliedPassword ?? ""];
      const message = PostgresError.isInstance(error) ? error.message : String(error);
      this.context.log(`service ${this.wish.serviceId}: ${scrub(message, secrets)}; retrying in ${this.retryMs} ms`);
      this.retryTimer = setTimeout(() => void this.kick(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
    }
  }

  /** The next step toward the wish, or undefined when there. */
  private next(): "init" | "start" | "password" | "stop" | "remove" | undefined {
    const running = this.server !== undefined && !this.server.exited;
    if (!running && this.server !== undefined) this.server = undefined;
    switch (this.wish.want) {
      case "absent":
        if (running) return "stop";
        return existsSync(this.dir) ? "remove" : undefined;
      case "stopped":
        if (running) return "stop";
        return this.exists ? undefined : "init";
      case "running":
        if (!this.exists) return "init";
        if (!running) return "start";
        return this.appliedPassword === this.wish.password ? undefined : "password";
    }
  }

  private async init(): Promise<void> {
    await fs.rm(this.dir, { recursive: true, force: true });
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const tmp = `${this.dataDir}.tmp`;
    await this.context.copyTemplate(tmp);
    await fs.rename(tmp, this.dataDir);
    if (this.context.account.switchTo) await fs.chown(this.dir, this.context.account.switchTo.uid, this.context.account.switchTo.gid);
  }

  private async start(): Promise<void> {
    if (!(await isPortFree(this.port))) {
      const moved = await freePort(this.context.takenPorts());
      this.context.log(`service ${this.wish.serviceId}: port ${this.port} is taken, its database moves to ${moved}`);
      this.wish.endpoint.port = moved;
      this.context.relocate(this.wish.serviceId, moved);
    }
    this.appliedPassword = undefined;
    const server = await ServerProcess.start({
      binaries: this.context.binaries,
      account: this.context.account,
      dataDir: this.dataDir,
      port: this.port,
      socketDir: this.context.socketDir,
      tls: this.context.tls,
      logFile: path.join(this.dir, "server.log"),
    });
    this.server = server;
    server.onExit(() => {
      if (this.server !== server || this.closed) return;
      this.context.log(`service ${this.wish.serviceId}: its database server exited; restarting it if wanted`);
      void this.kick();
    });
    await this.password();
  }

  /** Runs the setup (role, database, password) through the administration socket. */
  private async password(): Promise<void> {
    const password = this.wish.password;
    await runTool(
      "setup",
      this.context.binaries.psql,
      [
        "-X",
        "-q",
        "-v",
        "ON_ERROR_STOP=1",
        "-h",
        this.context.socketDir,
        "-p",
        String(this.port),
        "-U",
        "postgres",
        "-d",
        "postgres",
        "-f",
        "-",
      ],
      { input: setupSql(password), secrets: [password] },
    );
    this.appliedPassword = password;
  }

  private async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.appliedPassword = undefined;
    await server?.stop();
  }

  private async remove(): Promise<void> {
    try {
      await fs.rm(this.dir, { recursive: true, force: true });
    } catch (error) {
      throw new PostgresError("remove", `cannot remove ${this.dir}: ${(error as Error).message}`);
    }
  }
}
