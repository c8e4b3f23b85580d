/**
 * `--postgres`: a real PostgreSQL cluster behind every service, one per service, each
 * with its own data directory and server on a port of 127.0.0.1. The model says what
 * each service wants (running, stopped, absent; its password) and the fleet brings the
 * clusters there in the background, so API answers stay fast; statuses wait for it.
 *
 * Layout under the root (`<data dir>/postgres`, or a temporary directory removed on close):
 * `tls/` the shared certificate, `template/` a cluster made once with `initdb` that new
 * clusters are copied from, `clusters/<service_id>/{data,server.log}`. Administration
 * sockets live in a short temporary directory of their own (see scratch-dirs.ts).
 */
import { existsSync, promises as fs, readdirSync } from "node:fs";
import path from "node:path";
import type { DatabaseHosting, DatabaseState, DatabaseWish } from "../model/databases";
import type { EndpointBody } from "../model/views";
import { locatePostgres, type PostgresBinaries } from "./binaries";
import { Cluster, type ClusterContext } from "./cluster";
import { pickPort } from "./ports";
import { runTool } from "./run-tool";
import { makeScratchDir, ROOT_PREFIX, SOCKET_PREFIX, sweepScratchDirs } from "./scratch-dirs";
import { ensureReachable, handOver, serverAccount, type ServerAccount } from "./server-account";
import { ensureCertificate } from "./tls";

/** Host of every database endpoint. */
export const DATABASE_HOST = "127.0.0.1";

/** Options of {@link PostgresFleet.open}. */
export interface PostgresFleetOptions {
  /** The emulator's data directory; clusters live in `<dataDir>/postgres`. @default a temporary directory, removed on close */
  dataDir?: string;
  /** Where failures are reported. @default a line on stderr */
  log?: (line: string) => void;
}

/** Settings written into the template's `postgresql.conf`. */
const SERVER_SETTINGS = [
  "# clouddb-emulator",
  "listen_addresses = '127.0.0.1'",
  "ssl = on",
  "password_encryption = 'scram-sha-256'",
  "max_connections = 25",
  "shared_buffers = 16MB",
  "logging_collector = off",
  "log_statement = 'none'",
  "log_min_error_statement = panic   # never echo a statement: it may carry a password",
  "",
].join("\n");

/** Who may connect: the emulator over its private socket; everyone else over TLS with a password. */
const HBA = [
  "# clouddb-emulator: the emulator administers through a socket only its server account can reach;",
  "# clients need TLS and a SCRAM password. Anything else (plain TCP) matches no line and is refused.",
  "local all postgres trust",
  "hostssl all all 127.0.0.1/32 scram-sha-256",
  "",
].join("\n");

/** Real PostgreSQL clusters behind services. */
export class PostgresFleet implements DatabaseHosting {
  private readonly clusters = new Map<string, Cluster>();
  private readonly reserved = new Set<number>();
  private template: Promise<void> | undefined;
  private closed = false;
  private relocated: (serviceId: string, endpoint: EndpointBody) => void = () => undefined;

  private constructor(
    private readonly root: string,
    private readonly temporaryRoot: boolean,
    private readonly context: ClusterContext,
    private readonly binaries: PostgresBinaries,
    private readonly account: ServerAccount,
  ) {}

  /**
   * Finds PostgreSQL, prepares the directories and the certificate, and takes over the
   * clusters already in the data directory (stopped until {@link reconcile} says otherwise).
   * @throws PostgresError when PostgreSQL or openssl is missing, or the server account
   *   cannot reach the directory
   */
  static async open(options: PostgresFleetOptions = {}): Promise<PostgresFleet> {
    const binaries = locatePostgres();
    const account = serverAccount();
    await sweepScratchDirs();
    const temporaryRoot = options.dataDir === undefined;
    const root = temporaryRoot ? makeScratchDir(ROOT_PREFIX) : path.join(path.resolve(options.dataDir!), "postgres");
    const own = temporaryRoot ? root : path.resolve(options.dataDir!);
    await fs.mkdir(path.join(root, "clusters"), { recursive: true, mode: 0o700 });
    for (const dir of [root, path.join(root, "clusters")]) await handOver(account, dir);
    await ensureReachable(account, path.join(root, "clusters"), own);
    const tls = await ensureCertificate(path.join(root, "tls"), binaries, account);
    const socketDir = makeScratchDir(SOCKET_PREFIX);
    await handOver(account, socketDir);
    const log = options.log ?? ((line: string) => process.stderr.write(`clouddb-emulator: ${line}\n`));
    let fleet: PostgresFleet | undefined;
    const context: ClusterContext = {
      binaries,
      account,
      tls,
      socketDir,
      copyTemplate: (target) => fleet!.copyTemplate(target),
      takenPorts: () => fleet!.takenPorts(),
      relocate: (serviceId, port) => fleet!.relocated(serviceId, { host: DATABASE_HOST, port }),
      log,
    };
    fleet = new PostgresFleet(root, temporaryRoot, context, binaries, account);
    for (const id of readdirSync(path.join(root, "clusters"))) {
      fleet.clusters.set(id, new Cluster(path.join(root, "clusters", id), absentWish(id), context));
    }
    return fleet;
  }

  /** Sets who is told when a service's server had to move to another port (its own was taken). */
  onRelocate(listener: (serviceId: string, endpoint: EndpointBody) => void): void {
    this.relocated = listener;
  }

  /** An endpoint on 127.0.0.1 with a port no other cluster of the fleet has. */
  allocate(): EndpointBody {
    const port = pickPort(this.takenPorts());
    this.reserved.add(port);
    return { host: DATABASE_HOST, port };
  }

  /** What the database of a service is doing. */
  stateOf(serviceId: string): DatabaseState {
    return this.clusters.get(serviceId)?.state() ?? "absent";
  }

  /**
   * Brings every cluster toward its service's wish (clusters of services not in `wishes`
   * are removed). Starting, stopping and removing go on in the background; the promise
   * resolves once running servers have their wanted password, so an answer to
   * updatePassword is sent only when the new password works.
   */
  reconcile(wishes: readonly DatabaseWish[]): Promise<void> {
    if (this.closed) return Promise.resolve();
    const pending: Promise<void>[] = [];
    const wanted = new Set<string>();
    for (const wish of wishes) {
      wanted.add(wish.serviceId);
      this.reserved.delete(wish.endpoint.port);
      let cluster = this.clusters.get(wish.serviceId);
      if (!cluster) {
        cluster = new Cluster(path.join(this.root, "clusters", wish.serviceId), wish, this.context);
        this.clusters.set(wish.serviceId, cluster);
      }
      const done = cluster.want(wish);
      if (cluster.passwordPending) pending.push(done);
    }
    for (const [id, cluster] of this.clusters) {
      if (wanted.has(id)) continue;
      void cluster.want(absentWish(id, cluster.port)).then(() => this.forget(id, cluster));
    }
    return Promise.all(pending).then(() => undefined);
  }

  /** Resolves once no cluster has work under way (e.g. after a reset removed them all). */
  async settle(): Promise<void> {
    while (!this.closed && [...this.clusters.values()].some((c) => !c.settled)) {
      await Promise.all([...this.clusters.values()].map((c) => c.kick()));
      for (const [id, cluster] of this.clusters) this.forget(id, cluster);
    }
  }

  /** Stops every server (their data stays, unless the root is temporary) and removes the sockets. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.clusters.values()].map((c) => c.close()));
    await this.template?.catch(() => undefined);
    await fs.rm(this.context.socketDir, { recursive: true, force: true });
    if (this.temporaryRoot) await fs.rm(this.root, { recursive: true, force: true });
  }

  private forget(id: string, cluster: Cluster): void {
    if (this.clusters.get(id) === cluster && cluster.settled && cluster.state() === "absent" && !existsSync(cluster.dir)) {
      this.clusters.delete(id);
    }
  }

  private takenPorts(): Set<number> {
    return new Set([...this.reserved, ...[...this.clusters.values()].map((c) => c.port)]);
  }

  /** Copies the template cluster (made on first use) to `target`, keeping owners and modes. */
  private async copyTemplate(target: string): Promise<void> {
    this.template ??= this.makeTemplate().catch((error: unknown) => {
      this.template = undefined;
      throw error;
    });
    await this.template;
    await runTool("initdb", "cp", ["-a", path.join(this.root, "template"), target]);
  }

  /** Runs `initdb` once into `template/` and configures it (TLS, SCRAM, small footprint). */
  private async makeTemplate(): Promise<void> {
    const dir = path.join(this.root, "template");
    if (existsSync(path.join(dir, "PG_VERSION"))) return;
    const tmp = `${dir}.tmp`;
    await fs.rm(tmp, { recursive: true, force: true });
    await runTool(
      "initdb",
      this.binaries.initdb,
      ["-D", tmp, "-U", "postgres", "--auth-local=trust", "--auth-host=reject", "-E", "UTF8", "--locale=C", "--no-instructions"],
      { as: this.account, cwd: this.root },
    );
    await fs.appendFile(path.join(tmp, "postgresql.conf"), `\n${SERVER_SETTINGS}`);
    await fs.writeFile(path.join(tmp, "pg_hba.conf"), HBA);
    await fs.rename(tmp, dir);
  }
}

/** The wish of a cluster whose service is gone. */
function absentWish(serviceId: string, port = 0): DatabaseWish {
  return { serviceId, endpoint: { host: DATABASE_HOST, port }, password: "", want: "absent" };
}
