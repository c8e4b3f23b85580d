/**
 * Many lookups in one list answer, each in constant time: the answer is indexed by its
 * items' identifier the first time it is looked in, and the index lives as long as the
 * answer. One answer of the service list serves every wait of a tick (pollHub.ts) and every
 * read of a refresh (readCache.ts); looking each up by a linear search cost waits × items.
 * The result is what `lookUp` (listReading.ts) gives: the first item of that id, else the
 * item set aside as unreadable, else absent.
 */
import type { ItemLookup, ListReading } from "./listReading";

const indexes = new WeakMap<ListReading<unknown>, { field: string; byId: Map<string, ItemLookup<unknown>> }>();

function indexOf<T>(reading: ListReading<T>, field: string): Map<string, ItemLookup<T>> {
  const known = indexes.get(reading);
  if (known !== undefined && known.field === field) return known.byId as Map<string, ItemLookup<T>>;
  const byId = new Map<string, ItemLookup<T>>();
  for (const item of reading.items) {
    const id = (item as Record<string, unknown>)[field];
    if (typeof id === "string" && !byId.has(id)) byId.set(id, { found: item });
  }
  for (const rejected of reading.rejected) {
    if (rejected.id !== undefined && !byId.has(rejected.id)) byId.set(rejected.id, { rejected: rejected.error });
  }
  indexes.set(reading, { field, byId });
  return byId;
}

/**
 * What `reading` says about the item whose `field` (`service_id`, `id`) is `id`, in constant
 * time after the first lookup in that answer. Never throws.
 */
export function lookUpById<T>(reading: ListReading<T>, field: string, id: string): ItemLookup<T> {
  return indexOf(reading, field).get(id) ?? { absent: true };
}
