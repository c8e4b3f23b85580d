/**
 * What waiting reads cost, and when the shared list pays (pollHub.ts chooses each tick's reads
 * by it). A list costs its length, however few waits it serves: one create in a project of
 * 5,000 services would download 5,000 services a poll. So a tick reads the source's list only
 * when it downloads no more than a read of each waited-for resource alone (many waits on a
 * short list), else each wait that is due reads its own resource (few waits, or a long list).
 * That holds when the API limits the key's rate too: a list read there saves requests, but in a
 * fleet of stacks sharing a project each stack's list carries the other stacks' services, and
 * weighing a request as 20 items made 20 stacks on 20 machines download 12.8 KB a service
 * (the first version 1.6 KB) for no fewer refusals. Before any answer of the list was seen its
 * length is unknown: the list is read, once, when {@link POLL_COST.learnAt} waits share it, or
 * {@link POLL_COST.limitedLearnAt} once the API limits the rate.
 *
 * On the grid of a fleet told its size (fleetSlots.ts) a request is a slot of the machine's own,
 * one a cycle (2.3 s for 20 machines at 10 requests a second): a list that serves `waits` saves
 * the stack a slot for each wait but one, each slot worth {@link POLL_COST.slotItems} items
 * (docs/performance/fleets.md, "On the grid, a list for two waits": the fleet's figures).
 */
import type { RequestPrice } from "./shaping/pacerTypes";

/** What a poll costs, in items of a list answer (exported for tests and the README). */
export const POLL_COST = {
  /**
   * What one request costs beside the items it carries, in items: its headers both ways, a
   * round trip and a turn at the pacer, against the bytes and the parsing of one item.
   */
  requestItems: 4,
  /** While the list's length is unknown (no answer seen yet), the list is read once this many waits share it. */
  learnAt: 4,
  /**
   * ...or, once the API limits the rate, this many, so that a few waits never read a project
   * other stacks fill only to learn its length (a fleet's stacks are rate-limited together).
   */
  limitedLearnAt: 20,
  /**
   * Once the API limits the rate (other clients of the key write too), a list's length learned
   * longer ago than this many ms is taken as unknown again: other stacks' creates may have grown
   * the project since (a fleet's list, 20 services long when a stack read its look-alikes, is
   * 200 long when its first wait polls); and so is one learned at any time while the client's
   * own writes wait for their turns (pollHub.ts: its poll is sent after them). Two seconds: a
   * fleet at a limit of 10 a second adds up to 20 services in them, which already doubles what
   * ten waits' list costs; at 10 s, 20 stacks on 20 machines read five lists of 55 to 100
   * services a run, a kilobyte a service, for polls their own reads served in 500 bytes each.
   */
  limitedLengthFreshMs: 2_000,
  /**
   * On a told fleet's grid (a request a slot of the machine's), what a slot saved is worth, in
   * items of a list (about 400 KB of the emulator's services): a fleet's project of 200 services
   * is read for two waits, one of 5,000 for six.
   */
  slotItems: 1_000,
} as const;

/**
 * Whether one request of a list of `listItems` items (undefined: not known yet) downloads no
 * more than `waits` requests of one item each, a request counting as
 * {@link POLL_COST.requestItems} items; while the length is unknown, whether enough waits share
 * the list to learn it (fewer when the API does not limit the rate: `price` `free`). On a told
 * fleet's grid (`price` `slot`), whether it saves a slot at least and the slots it saves are
 * worth its length, if known. Pure; never throws.
 */
export function listPays(waits: number, listItems: number | undefined, price: RequestPrice = "free"): boolean {
  const slotsSaved = waits - 1;
  if (price === "slot") return slotsSaved >= 1 && slotsSaved * POLL_COST.slotItems >= (listItems ?? 0);
  if (listItems === undefined) return waits >= (price === "limited" ? POLL_COST.limitedLearnAt : POLL_COST.learnAt);
  return waits * (POLL_COST.requestItems + 1) >= POLL_COST.requestItems + listItems;
}
