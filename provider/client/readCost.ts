/**
 * What waiting reads cost, and when the shared list pays (pollHub.ts chooses each tick's reads
 * by it). A list costs its length, however few waits it serves: one create in a project of
 * 5,000 services would download 5,000 services a poll. So a tick reads the source's list when
 * it costs less than a read of each waited-for resource alone (many waits on a short list), else
 * each wait that is due reads its own resource (few waits, or a long list). Before any answer of
 * the list was seen its length is unknown: the list is read, once, when {@link POLL_COST.learnAt}
 * waits share it. Once the API limits the key's rate, a request is scarcer than the items it
 * carries, and counts as {@link POLL_COST.limitedRequestItems} of them: the list serves two
 * waits on a short list, but ten stacks' worth of services is not read for one stack's few
 * waits (in a fleet of stacks sharing a project, each stack reading the whole project's list
 * downloaded 13 to 15 times the bytes of the first version per service).
 */

/** What a poll costs, in items of a list answer (exported for tests and the README). */
export const POLL_COST = {
  /**
   * What one request costs beside the items it carries, in items: its headers both ways, a
   * round trip and a turn at the pacer, against the bytes and the parsing of one item.
   */
  requestItems: 4,
  /** What one request costs once the API limits the rate: a turn under the limit, which another request of the key then lacks. */
  limitedRequestItems: 20,
  /** While the list's length is unknown (no answer seen yet), the list is read once this many waits share it. */
  learnAt: 4,
  /**
   * ...or, once the API limits the rate, this many: as many as would pay for a list of 400
   * items, so that a few waits never read a project other stacks fill, only to learn its length.
   */
  limitedLearnAt: 20,
} as const;

/**
 * Whether one request of a list of `listItems` items (undefined: not known yet) costs no
 * more than `waits` requests of one item each, a request counting as
 * {@link POLL_COST.requestItems} items, or {@link POLL_COST.limitedRequestItems} when the API
 * limits the rate (`limited`). Pure; never throws.
 */
export function listPays(waits: number, listItems: number | undefined, limited = false): boolean {
  if (listItems === undefined) return waits >= (limited ? POLL_COST.limitedLearnAt : POLL_COST.learnAt);
  const request = limited ? POLL_COST.limitedRequestItems : POLL_COST.requestItems;
  return waits * (request + 1) >= request + listItems;
}
