/**
 * The read cache: `getService` and `getReplicaSet` served from one shared `listServices`
 * answer per project (refresh economy: a refresh of N resources costs one list). An answer
 * serves every read that comes within `listCacheMs` of the read before it (the reads of
 * one refresh, however long the engine takes to ask for them all), for at most
 * {@link LIST_CACHE_BURST_MS}. Concurrent callers share one in-flight list. Every write
 * through the client drops it, and a list that was in flight during a write is not stored
 * (it may predate the write). Each read finds its item through an index of the answer
 * (listIndex.ts), so a refresh's reads cost the list's length once, not once each.
 */
import { lookUpById } from "./listIndex";
import { type ListReading, lookUp, notListed } from "./listReading";
import type { Operations } from "./operations";
import type { ReadReplicaSet, Service } from "../../contract";

/** The longest an answer of the read cache serves a burst of reads, from when it was asked for. */
export const LIST_CACHE_BURST_MS = 60_000;

interface Entry<V> {
  /** When it was asked for. */
  at: number;
  /** When it last served a read (or was asked for). */
  usedAt: number;
  items: Promise<V>;
  generation: number;
}

/**
 * Cache of list answers (`V`, e.g. a `ListReading<Service>`) per key: an answer serves reads
 * while each comes within `maxAgeMs` of the one before, at most {@link LIST_CACHE_BURST_MS}.
 */
export class ListCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private generation = 0;

  /** @param maxAgeMs - an answer serves a read at most this long after the read before; 0 disables the cache. */
  constructor(private readonly maxAgeMs: number) {}

  /** True when the cache is on (`maxAgeMs > 0`). */
  get enabled(): boolean {
    return this.maxAgeMs > 0;
  }

  /**
   * Returns the cached list for `key` if it still serves reads, else calls `load` once for
   * all concurrent callers. A failed load is not cached; its error reaches every waiting caller.
   */
  async get(key: string, load: () => Promise<V>): Promise<V> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (
      hit !== undefined &&
      hit.generation === this.generation &&
      now - hit.usedAt <= this.maxAgeMs &&
      now - hit.at <= LIST_CACHE_BURST_MS
    ) {
      hit.usedAt = now;
      return hit.items;
    }
    const generation = this.generation;
    const entry: Entry<V> = { at: now, usedAt: now, items: load(), generation };
    this.entries.set(key, entry);
    try {
      await entry.items;
    } catch (err) {
      if (this.entries.get(key) === entry) this.entries.delete(key);
      throw err;
    }
    if (this.generation !== generation && this.entries.get(key) === entry) this.entries.delete(key);
    return entry.items;
  }

  /** Drops every cached answer (called on every write). Never throws. */
  invalidate(): void {
    this.generation++;
    this.entries.clear();
  }
}

/** The cached reads of one client (see the module comment). */
export class CachedReads {
  private readonly cache: ListCache<ListReading<Service>>;

  /**
   * @param ops - the client's operation runner.
   * @param maxAgeMs - `listCacheMs`; 0 turns the cache off.
   */
  constructor(
    private readonly ops: Operations,
    maxAgeMs: number,
  ) {
    this.cache = new ListCache(maxAgeMs);
  }

  /** Drops every cached answer. Never throws. */
  invalidate(): void {
    this.cache.invalidate();
  }

  private services(project: string, caller: string): Promise<ListReading<Service>> {
    return this.cache.get(project, () => this.ops.call("listServices", { project }, undefined, { caller }));
  }

  /**
   * A service: from the cached list unless `fresh` or the cache is off, else (and when the
   * list does not show it, to confirm a 404) by its GET.
   * @throws NotFoundError when it does not exist; ResponseValidationError naming the field
   * and value when the API shows it in a shape the client cannot rely on.
   */
  async service(project: string, serviceId: string, fresh: boolean): Promise<Service> {
    if (this.cache.enabled && !fresh) {
      const hit = lookUpById(await this.services(project, "getService"), "service_id", serviceId);
      if ("found" in hit) return structuredClone(hit.found);
      if ("rejected" in hit) throw hit.rejected;
    }
    return this.ops.call("getService", { project, service: serviceId });
  }

  /**
   * A replica set: as its service in the cached list shows it unless `fresh` or the cache is
   * off, else (and when the service does not show it) from the service's replica set list.
   * @throws NotFoundError when the service or the set does not exist; ResponseValidationError
   * naming the field and value when the API lists the set in a shape the client cannot rely on.
   */
  async replicaSet(project: string, serviceId: string, replicaSetId: string, fresh: boolean): Promise<ReadReplicaSet> {
    if (this.cache.enabled && !fresh) {
      const service = lookUpById(await this.services(project, "getReplicaSet"), "service_id", serviceId);
      const hit = "found" in service ? service.found.read_replica_sets?.find((r) => r.id === replicaSetId) : undefined;
      if (hit !== undefined) return structuredClone(hit);
    }
    const sets = await this.ops.call("listReplicaSets", { project, service: serviceId }, undefined, { caller: "getReplicaSet" });
    const hit = lookUp(sets, replicaSetId, (r) => r.id);
    if ("found" in hit) return hit.found;
    if ("rejected" in hit) throw hit.rejected;
    throw notListed("getReplicaSet", `Replica set ${replicaSetId} is not among the replica sets of service ${serviceId}`);
  }
}
