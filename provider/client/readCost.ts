/**
 * What waiting reads cost, and when the shared list pays (pollHub.ts chooses each tick's reads
 * by it). A list costs its length, however few waits it serves: one create in a project of
 * 5,000 services would download 5,000 services a poll. So a tick reads the source's list when
 * it costs less than a read of each waited-for resource alone (many waits on a short list), else
 * each wait that is due reads its own resource (few waits, or a long list). Before any answer of
 * the list was seen its length is unknown: the list is read, once, when {@link POLL_COST.learnAt}
 * waits share it. Once the API has answered the client 429, requests are what is scarce: the
 * list serves any two waits or more (one request where they would make one each).
 */

/** What a poll costs, in items of a list answer (exported for tests and the README). */
export const POLL_COST = {
  /**
   * What one request costs beside the items it carries, in items: its headers both ways, a
   * round trip and a turn at the pacer, against the bytes and the parsing of one item.
   */
  requestItems: 4,
  /** While the list's length is unknown (no answer seen yet), the list is read once this many waits share it. */
  learnAt: 4,
} as const;

/**
 * Whether one request of a list of `listItems` items (undefined: not known yet) costs no
 * more than `waits` requests of one item each (see {@link POLL_COST}); when the API limits
 * the rate (`limited`), whether it saves requests. Pure; never throws.
 */
export function listPays(waits: number, listItems: number | undefined, limited = false): boolean {
  if (limited) return waits >= 2;
  if (listItems === undefined) return waits >= POLL_COST.learnAt;
  return waits * (POLL_COST.requestItems + 1) >= POLL_COST.requestItems + listItems;
}
