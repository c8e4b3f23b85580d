/** Starting the emulator in-process: model, persistence, databases, control state and HTTP server. */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { apiRouter } from "./http/api-routes";
import { controlRouter } from "./http/control-routes";
import { Faults } from "./http/faults";
import { AnswerMemory } from "./http/gateway";
import { RateLimiter } from "./http/rate-limiter";
import { RequestLog } from "./http/request-log";
import { Rewrites } from "./http/rewrites";
import { BASE_PATH, createRequestListener } from "./http/server";
import { OffsetClock } from "./model/clock";
import { ClouddbModel } from "./model/clouddb-model";
import { Credentials } from "./model/credentials";
import { newShortId } from "./model/ids";
import { DEFAULT_HOST, DEFAULT_OAUTH_TOKEN, DEFAULT_PAT, validateOptions, type EmulatorOptions } from "./options";
import { SNAPSHOT_VERSION, type Snapshot } from "./persistence/snapshot";
import { SnapshotFile } from "./persistence/snapshot-file";
import { PostgresFleet } from "./postgres/fleet";

/** A running emulator. */
export interface RunningEmulator {
  /** `http://HOST:PORT`; the control path lives under it. */
  readonly url: string;
  /** `http://HOST:PORT/public/api/v1`. */
  readonly baseUrl: string;
  /** The port listened on. */
  readonly port: number;
  /** Default project, reachable by {@link pat} and {@link oauthToken}. */
  readonly projectId: string;
  /** Second project, reachable by {@link oauthToken} only. */
  readonly secondProjectId: string;
  /** The personal access token. */
  readonly pat: string;
  /** The OAuth user token. */
  readonly oauthToken: string;
  /** Stops listening, drops open connections, stops the database servers and waits for pending writes. */
  close(): Promise<void>;
}

function urlHost(host: string): string {
  if (host === "0.0.0.0" || host === "::") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}

/**
 * Starts the emulator.
 * @throws EmulatorOptionsError for bad options; SnapshotFormatError when `dataDir` holds
 *   unreadable state; PostgresError when `postgres` is asked for but PostgreSQL cannot
 *   be run; the listen error (e.g. `EADDRINUSE`).
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  validateOptions(options);
  const stored = options.dataDir === undefined ? undefined : SnapshotFile.load(options.dataDir);
  const projectId = options.projectId ?? stored?.projectId ?? newShortId();
  let secondProjectId = stored?.secondProjectId ?? newShortId();
  while (secondProjectId === projectId) secondProjectId = newShortId();
  const credentials = new Credentials({
    projectId,
    secondProjectId,
    pat: options.pat ?? DEFAULT_PAT,
    oauthToken: options.oauthToken ?? DEFAULT_OAUTH_TOKEN,
    createdAt: stored?.credentialsCreatedAt ?? Date.now(),
  });
  const frozenAt = Date.now();
  const clock = new OffsetClock(stored?.clockOffsetMs ?? 0, options.frozenClock === true ? () => frozenAt : Date.now);
  const fleet = options.postgres ? await PostgresFleet.open(options.dataDir === undefined ? {} : { dataDir: options.dataDir }) : undefined;
  const model = new ClouddbModel({
    clock,
    clockScale: options.clockScale ?? 1,
    ...(stored ? { state: stored.model } : {}),
    ...(fleet ? { databases: fleet } : {}),
  });
  const syncDatabases = (): Promise<void> => fleet?.reconcile(model.databaseWishes()) ?? Promise.resolve();

  const capture = (): Snapshot => ({
    version: SNAPSHOT_VERSION,
    projectId,
    secondProjectId,
    credentialsCreatedAt: credentials.settings.createdAt,
    clockOffsetMs: clock.offset,
    model: model.snapshot(),
  });
  const snapshotFile = options.dataDir === undefined ? undefined : new SnapshotFile(options.dataDir, capture);
  fleet?.onRelocate((serviceId, endpoint) => {
    if (model.relocateDatabase(serviceId, endpoint)) void snapshotFile?.save().catch(() => undefined);
  });
  try {
    await snapshotFile?.save();
  } catch (error) {
    await fleet?.close();
    throw error;
  }
  void syncDatabases();

  const faults = new Faults();
  const rewrites = new Rewrites();
  const rateLimiter = new RateLimiter();
  const log = new RequestLog();
  const answers = new AnswerMemory();
  let latencyMs = 0;
  let dateOffsetMs = 0;
  let dateFlipMs = 0;
  let answered = 0;
  const listener = createRequestListener({
    credentials,
    api: apiRouter(model, credentials),
    control: controlRouter({
      model,
      clock,
      reportedClock: model.reportedClock,
      faults,
      rewrites,
      rateLimiter,
      log,
      setLatency: (ms) => {
        latencyMs = ms;
      },
      dateOffset: {
        get: () => dateOffsetMs,
        set: (ms) => {
          dateOffsetMs = ms;
        },
        flip: () => dateFlipMs,
        setFlip: (ms) => {
          dateFlipMs = ms;
        },
      },
      reset: async () => {
        model.reset();
        faults.clear();
        rewrites.clear();
        model.reportedClock.setOffset(0);
        rateLimiter.setLimit(0);
        log.clear();
        answers.clear();
        latencyMs = 0;
        dateOffsetMs = 0;
        dateFlipMs = 0;
        await syncDatabases();
        await fleet?.settle();
      },
    }),
    faults,
    rewrites,
    rateLimiter,
    log,
    answers,
    latencyMs: () => latencyMs,
    serverTime: () => model.reportedClock.now(),
    // Every second API answer runs `dateFlipMs` further: gateways whose clocks disagree, taking turns.
    dateOffsetMs: () => dateOffsetMs + (++answered % 2 === 0 ? dateFlipMs : 0),
    persist: async () => {
      await snapshotFile?.save();
      await syncDatabases();
    },
    durable: () => snapshotFile?.drain() ?? Promise.resolve(),
  });

  const server = http.createServer(listener);
  const host = options.host ?? DEFAULT_HOST;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 0, host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    await fleet?.close();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  const url = `http://${urlHost(host)}:${port}`;
  return {
    url,
    baseUrl: `${url}${BASE_PATH}`,
    port,
    projectId,
    secondProjectId,
    pat: credentials.settings.pat,
    oauthToken: credentials.settings.oauthToken,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await fleet?.close();
      await snapshotFile?.drain();
    },
  };
}
