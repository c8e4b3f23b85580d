/**
 * A short-lived cache of list answers, keyed by project, used to serve `getService` from
 * one shared `listServices` call (refresh economy). Concurrent callers share one in-flight
 * list. `invalidate()` drops everything, and a list that was in flight while it was
 * called is not stored (it may predate the write).
 */

interface Entry<V> {
  at: number;
  items: Promise<V>;
  generation: number;
}

/** Cache of list answers (`V`, e.g. a `ListReading<Service>`) per key, at most `maxAgeMs` old. */
export class ListCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private generation = 0;

  /** @param maxAgeMs - answers older than this are not used; 0 disables the cache. */
  constructor(private readonly maxAgeMs: number) {}

  /** True when the cache is on (`maxAgeMs > 0`). */
  get enabled(): boolean {
    return this.maxAgeMs > 0;
  }

  /**
   * Returns the cached list for `key` if it is fresh, else calls `load` once for all
   * concurrent callers. A failed load is not cached; its error reaches every waiting caller.
   */
  async get(key: string, load: () => Promise<V>): Promise<V> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit !== undefined && hit.generation === this.generation && now - hit.at <= this.maxAgeMs) {
      return hit.items;
    }
    const generation = this.generation;
    const entry: Entry<V> = { at: now, items: load(), generation };
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
