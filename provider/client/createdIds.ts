/**
 * What one client knows about resource ids, for create recovery: which ids a create of
 * this client was given (they belong to that create, never to another's recovery), and
 * when each id was first seen in a list answer (a resource seen before a create was sent
 * existed before it, so that create did not make it).
 */

/** Entries kept per kind of memory before the oldest are forgotten. */
const CAPACITY = 20_000;

function key(noun: string, id: string): string {
  return `${noun}\u0000${id}`;
}

function bounded(map: Map<string, number>): void {
  if (map.size <= CAPACITY) return;
  for (const k of map.keys()) {
    map.delete(k);
    if (map.size <= CAPACITY * 0.9) return;
  }
}

/** The ids one client has been given by creates and has seen in answers. */
export class CreatedIds {
  private readonly owned = new Map<string, number>();
  private readonly firstSeen = new Map<string, number>();

  /** Records that a create of this client made (or took over) `id`. Never throws. */
  own(noun: string, id: string): void {
    this.owned.set(key(noun, id), Date.now());
    bounded(this.owned);
  }

  /** True when a create of this client was given `id`. */
  isOwned(noun: string, id: string): boolean {
    return this.owned.has(key(noun, id));
  }

  /** Records that an answer received at `receivedAt` (client clock) showed `id`. Never throws. */
  sight(noun: string, id: string, receivedAt: number): void {
    const k = key(noun, id);
    const before = this.firstSeen.get(k);
    if (before === undefined || receivedAt < before) this.firstSeen.set(k, receivedAt);
    bounded(this.firstSeen);
  }

  /** True when an answer received before `t` (client clock) already showed `id`. */
  seenBefore(noun: string, id: string, t: number): boolean {
    const seen = this.firstSeen.get(key(noun, id));
    return seen !== undefined && seen < t;
  }
}
