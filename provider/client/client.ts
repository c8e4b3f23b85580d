/**
 * {@link ClouddbClient}: {@link ClouddbClient.perform} runs every operation of the API
 * description (contract/api) by its name, typed from it; beside it the waiters and
 * `getReplicaSet` (one set of a service's list: the API has no single-set GET).
 * operations.ts runs an operation, createRecovery.ts the creates, resourceWaits.ts the
 * waits, readCache.ts serves `getService` and `getReplicaSet`.
 */
import { type ClouddbClientOptions, type ResolvedConfig, resolveConfig } from "./config";
import { CreatedIds } from "./createdIds";
import { Creates, recoveryOf } from "./createRecovery";
import { Operations, type ReplyOf } from "./operations";
import type { ListReading } from "./listReading";
import { CachedReads } from "./readCache";
import { CancelledError } from "./clientErrors";
import { registerSecret } from "./redact";
import { API, type OperationSpec, type Operation, type ParamsOf, type Peering, type ReadReplicaSet, type Service } from "../../contract";
import type { AnyCallArgs, PerformArgs, ReadOptions } from "./callArgs";
import {
  ResourceWaits,
  type WaitForPeeringOptions,
  type WaitForReplicaSetOptions,
  type WaitForServiceOptions,
  type WaitOptions,
} from "./resourceWaits";
import { Pacer } from "./shaping/pacer";
import { readForMachine } from "./shaping/machineReads";
import { SharedLists } from "./shaping/sharedLists";
import { SharedSchedule } from "./shaping/sharedSchedule";
import { type MsInterval, ServerClock } from "./serverClock";
import { TransitionDurations } from "./transitionDurations";
import { HttpTransport } from "./transport";

/**
 * Typed client of the CloudDB API.
 *
 * Every method raises a `ClouddbError` subclass on failure: an `ApiError` subclass for an
 * error answer (after retries for 429/5xx), `NetworkError` when no answer came,
 * `ResponseValidationError` when a 2xx body is not what the client relies on, and
 * `ConfigurationError` when the project is not configured. Messages never contain the API
 * key or a known password. Retries: 429 always (after `Retry-After`), 5xx/network for
 * everything but creates, which first look for what the failed attempt made (see
 * createRecovery.ts); all within `retryDeadlineMs`.
 *
 * Call {@link ClouddbClient.close} when done, to release the connection pool.
 */
export class ClouddbClient {
  /** The resolved configuration (the API key included: do not log it). */
  private readonly config: ResolvedConfig;
  private readonly transport: HttpTransport;
  private readonly reads: CachedReads;
  private readonly ops: Operations;
  private readonly creates: Creates;
  private readonly waits: ResourceWaits;
  private readonly durations: TransitionDurations;
  /** The client's pacer: every request waits there for its turn (see pacer.ts). */
  private readonly pacer: Pacer;
  private readonly clock: ServerClock;
  /** The machine's shared list answers, when the client shares a schedule (sharedLists.ts). */
  private readonly lists: SharedLists | undefined;
  /** True once the client sent a write: from then on, another client's list answer may not show what it made (machineReads.ts). */
  private wrote = false;
  /** The reads of a project's services for the machine under way, by project and the age they take: calls that come meanwhile share them. */
  private readonly machineLists = new Map<string, Promise<ReplyOf<"listServices">>>();
  /** Aborts when the client stops (closed, or its options' `signal` aborted): every pause of the client takes its signal. */
  private readonly stopping = new AbortController();
  /** Once the client stops: its connection pool's closing. */
  private stopped: Promise<void> | undefined;

  /**
   * @throws ConfigurationError when the API URL or key is missing or invalid (options
   * first, then CLOUDDB_API_URL / CLOUDDB_API_KEY / CLOUDDB_PROJECT_ID).
   */
  constructor(options: ClouddbClientOptions = {}) {
    this.config = resolveConfig(options);
    const [clock, ids] = [new ServerClock(), new CreatedIds()];
    this.clock = clock;
    const dir = this.config.pacingDir;
    const shared = dir === undefined ? undefined : new SharedSchedule(dir, this.config.apiUrl, this.config.apiKey);
    this.pacer = new Pacer(Date.now, shared, this.config.fleet);
    this.transport = new HttpTransport(this.config, clock, this.pacer, this.stopping.signal);
    this.ops = new Operations(
      this.config,
      this.transport,
      ids,
      () => {
        this.wrote = true;
        this.reads.invalidate();
      },
      this.stopping.signal,
    );
    this.reads = new CachedReads(this.ops, this.config.listCacheMs);
    this.creates = new Creates(this.ops, ids);
    this.durations = new TransitionDurations(this.config.expectedDurations);
    const lists = shared === undefined || dir === undefined ? undefined : new SharedLists(shared, dir);
    this.lists = lists;
    this.waits = new ResourceWaits(this.ops, this.durations, this.pacer, lists);
    const signal = options.signal;
    if (signal?.aborted === true) void this.stop(signal.reason);
    else signal?.addEventListener("abort", () => void this.stop(signal.reason), { once: true });
  }

  /**
   * How long transitions took as this client measured them (and as `expectedDurations`
   * seeded them), by name, e.g. `{"service:QUEUED->READY": 10450}`: save them and pass them
   * as `expectedDurations` to a later client so its waits poll where readiness is likely.
   */
  learnedDurations(): Record<string, number> {
    return this.durations.snapshot();
  }

  /**
   * The last measurements of each transition (oldest first), by name, as this client keeps
   * them (those `expectedDurations` seeded included): save them and pass them as
   * `expectedDurations` to a later client, whose waits then expect their median, so one slow
   * run does not decide a later run's prior.
   */
  learnedSamples(): Record<string, number[]> {
    return this.durations.samples();
  }

  /**
   * The offset of the API's clock from this machine's (`server - client`, ms) as measured
   * from the `Date` headers of the answers so far, as an interval; undefined before any
   * answer. Compare the API's timestamps (`created`) with `Date.now() + offset`, never
   * with `Date.now()` alone.
   *
   * @internal a diagnostic of the client's clock (no ownership is decided by it); not part of the package's promise
   */
  serverClockOffset(): MsInterval | undefined {
    return this.clock.offsetMs;
  }

  /**
   * Releases the connection pool: waits under way and later ones end with WaitCancelledError,
   * pauses, requests not sent yet and later calls with CancelledError ("the client was
   * closed"); requests already sent get their answers first.
   */
  async close(): Promise<void> {
    await this.stop(new CancelledError("the client was closed"));
  }

  /** Stops the client for `reason` (an Error names why in what the waits end with). Idempotent: the first reason stays. */
  private stop(reason: unknown): Promise<void> {
    if (this.stopped === undefined) {
      const why = reason instanceof Error ? reason : new CancelledError(String(reason));
      this.stopping.abort(why);
      const closing = this.transport.close();
      this.waits.close(why);
      this.pacer.close();
      this.stopped = closing;
    }
    return this.stopped;
  }

  /**
   * Runs an operation of the API description, by its name: `args` holds its path parameters
   * but the project (`{ service: id }`), its request body as `body` when it takes one, and
   * the options of its kind (`projectId`, else the client's; `uniqueName` for a create whose
   * name is its own; `fresh` for a read). Every type comes from the description:
   *
   * ```ts
   * const svc = await client.perform("createService", { body: { name: "metrics" } });
   * await client.perform("resizeService", { service: svc.service_id, body: { cpu_millis: "1000", memory_gbs: "4" } });
   * const { items } = await client.perform("listVpcs");
   * ```
   *
   * A list answers its `ListReading` (`items`, and the items it could not read as
   * `rejected`). A create whose description declares `recover` is sent once and its lost
   * answer recovered (see createRecovery.ts; a recovered service has no
   * `initial_password`). `getService` is served by the read cache when `listCacheMs` > 0
   * (`fresh` skips it). A body field the description marks secret (`updateServicePassword`'s
   * `password`) is registered for redaction before the request.
   *
   * @throws an `ApiError` subclass for an error answer (after retries for 429/5xx; a 409 of
   * an action with `blockedBy` and `curableByWaiting`), NetworkError when no answer came,
   * ResponseValidationError when a 2xx body is not what the client relies on,
   * AmbiguousCreateError when a create's outcome cannot be settled, ConfigurationError when
   * the project is not configured.
   */
  async perform<O extends Operation>(operation: O, ...[args]: PerformArgs<O>): Promise<ReplyOf<O>> {
    const { body, projectId, uniqueName, watch, fresh, sharedMaxAgeMs, ...named } = (args ?? {}) as AnyCallArgs;
    const spec: OperationSpec = API[operation];
    const params = (spec.path.includes("{project}") ? { ...named, project: this.ops.project({ projectId }) } : named) as ParamsOf<O>;
    if (spec.secretField !== undefined) registerSecret((body as Readonly<Record<string, unknown>>)[spec.secretField]);
    if (operation === "getService") {
      const { project, service } = params as ParamsOf<"getService">;
      return (await this.reads.service(project, service, fresh === true)) as ReplyOf<O>;
    }
    if (operation === "listServices" && this.lists !== undefined && (!this.wrote || sharedMaxAgeMs !== undefined)) {
      const { project } = params as ParamsOf<"listServices">;
      const maxAgeMs = Math.max(0, sharedMaxAgeMs ?? 0);
      const key = JSON.stringify([project, maxAgeMs]);
      let read = this.machineLists.get(key);
      if (read === undefined) {
        read = this.servicesForMachine(this.lists, project, maxAgeMs).finally(() => this.machineLists.delete(key));
        this.machineLists.set(key, read);
      }
      return this.seen(operation, params, (await read) as ReplyOf<O>);
    }
    const recovery = recoveryOf(operation);
    return recovery === undefined
      ? this.seen(operation, params, await this.ops.call(operation, params, body))
      : this.creates.run(operation, recovery, params, body, { uniqueName, watch });
  }

  /** `reply`, after the waits learned what a list in it showed (resourceWaits.ts `sawList`). */
  private seen<O extends Operation>(operation: O, params: ParamsOf<O>, reply: ReplyOf<O>): ReplyOf<O> {
    if (API[operation].retry === "read" && reply !== null && typeof reply === "object" && "items" in reply) {
      this.waits.sawList(operation, params, reply as ListReading<unknown>);
    }
    return reply;
  }

  /**
   * A project's services for a client that has sent no write yet (or a caller that takes an
   * answer up to `maxAgeMs` older than its call): read once for the machine's clients of the key
   * that ask within that (machineReads.ts: a fleet's look-alike lists).
   */
  private async servicesForMachine(lists: SharedLists, project: string, maxAgeMs: number): Promise<ReplyOf<"listServices">> {
    let reply: ReplyOf<"listServices"> | undefined;
    const got = await readForMachine(
      lists,
      `services ${project}`,
      async () => {
        const attempt: { sentAt: number; body: unknown } = { sentAt: Date.now(), body: undefined };
        reply = await this.ops.call("listServices", { project }, undefined, {
          onAttempt: (a) => {
            attempt.sentAt = a.trace.sentAt ?? attempt.sentAt;
            attempt.body = a.body;
          },
        });
        return attempt;
      },
      this.stopping.signal,
      maxAgeMs,
    );
    return !got.shared && reply !== undefined ? reply : this.ops.answerOf("listServices", got.body, got.sentAt, "listServices", project);
  }

  /**
   * One replica set of a service. There is no single-set GET: with `listCacheMs` > 0 it is
   * served from the service as the shared `listServices` answer shows it (like
   * `getService`), else, or when that answer does not show it, from
   * `GET .../replicaSets`. `opts.fresh` skips the cache.
   * @throws NotFoundError when the service or the set does not exist; ResponseValidationError
   * (naming the field and value) when the API lists the set in a shape the client cannot rely on.
   */
  async getReplicaSet(serviceId: string, replicaSetId: string, opts?: ReadOptions): Promise<ReadReplicaSet> {
    return this.reads.replicaSet(this.ops.project(opts), serviceId, replicaSetId, opts?.fresh === true);
  }

  /**
   * Polls the service until its status is one of `until`.
   * @throws ResourceFailedError at once on a failure status (`UNSTABLE`) that is not
   * awaited, or on 404, with the last service seen; TimeoutError after `timeoutMs` (naming
   * the last status). 429/5xx/network failures of single polls are tolerated until the
   * timeout; any other error ends the wait at once.
   */
  async waitForService(serviceId: string, opts: WaitForServiceOptions): Promise<Service> {
    return this.waits.service(serviceId, opts);
  }

  /**
   * Polls the service until it answers 404 (or status `DELETED`).
   * @throws TimeoutError after `timeoutMs`, naming the last status seen.
   */
  async waitForServiceDeleted(serviceId: string, opts: WaitOptions): Promise<void> {
    return this.waits.serviceDeleted(serviceId, opts);
  }

  /**
   * Polls the service's replica sets (there is no single-set GET) until the set's status is
   * one of `until` (default `["active"]`).
   * @throws ResourceFailedError at once on `error` (unless awaited) or when the set or its
   * service is gone; TimeoutError after `timeoutMs`.
   */
  async waitForReplicaSet(serviceId: string, replicaSetId: string, opts: WaitForReplicaSetOptions): Promise<ReadReplicaSet> {
    return this.waits.replicaSet(serviceId, replicaSetId, opts);
  }

  /**
   * Polls the service's replica sets until the set is gone (or its service is).
   * @throws TimeoutError after `timeoutMs`, naming the last status seen.
   */
  async waitForReplicaSetDeleted(serviceId: string, replicaSetId: string, opts: WaitOptions): Promise<void> {
    return this.waits.replicaSetDeleted(serviceId, replicaSetId, opts);
  }

  /**
   * Polls the peering until its status is one of `until` (default `["active"]`).
   * @throws ResourceFailedError at once on `failed` (quoting `error_message`) or 404;
   * TimeoutError after `timeoutMs`.
   */
  async waitForPeering(vpcId: string, peeringId: string, opts: WaitForPeeringOptions): Promise<Peering> {
    return this.waits.peering(vpcId, peeringId, opts);
  }
}
