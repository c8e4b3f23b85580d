/**
 * When a list answer's newest services should be ready, told by the list itself: the machine's
 * list of a project is read at most every so often (sharedLists.ts, its bytes), so the last
 * stack of a fleet saw its last service up to that long after it was ready (3 s for a list of
 * 200). Aligning the reads so that one falls when the last service is due ends that wait.
 *
 * A list read while services are being created shows, by their `created` times (the API's
 * clock), how long creation takes: each service still on its way (`QUEUED`, `CONFIGURING`) was
 * created less than that long before the read, and each `READY` one at least that long before
 * it, if it became ready at all in that time. So the youngest service on its way is due, after
 * the read, within its creation's distance from the youngest `READY` one: differences of
 * `created` times alone, no clock of this machine's.
 *
 * Only a tight estimate is given: the oldest service on its way created after the youngest
 * `READY` one, and close to it (services created one after the other). Services ready long
 * ago, old services on their way again (a resize, a resume), or creations that take different
 * times, give none: reads then keep their usual gaps.
 */
import { hasStatusClass } from "../../../contract/statuses";

/** How far apart the youngest ready service and the oldest on its way may be created for an estimate (ms). */
export const TIGHT_MS = 1_000;

/** One item of a list, as far as the estimate reads it. */
interface Item {
  status?: unknown;
  created?: unknown;
}

/**
 * How long after the list's read (ms) its youngest service on its way is due `READY` at the
 * latest, by the `created` times of the list `body` (see the module comment); undefined when
 * it cannot tell closely. Pure; never throws.
 */
export function lastDueAfterMs(body: unknown): number | undefined {
  if (!Array.isArray(body)) return undefined;
  let youngestReady = -Infinity;
  let oldestMoving = Infinity;
  let youngestMoving = -Infinity;
  for (const item of body as Item[]) {
    const created = typeof item?.created === "string" ? Date.parse(item.created) : NaN;
    if (!Number.isFinite(created)) continue;
    if (hasStatusClass("service", item.status, "ready")) youngestReady = Math.max(youngestReady, created);
    else if (hasStatusClass("service", item.status, "transitional")) {
      oldestMoving = Math.min(oldestMoving, created);
      youngestMoving = Math.max(youngestMoving, created);
    }
  }
  const spread = oldestMoving - youngestReady;
  if (!Number.isFinite(spread) || spread < 0 || spread > TIGHT_MS) return undefined;
  return youngestMoving - youngestReady;
}

/**
 * The time of the next read of a list (epoch ms): `earliest` (the last read and the gap of
 * its bytes), moved later by less than `gapMs` so that reads `gapMs` apart from it meet
 * `dueAt`, when the list's last service is due; `dueAt` itself when it falls within the gap
 * after the last read (one read more, when the last service is due: the fleet's last stack is
 * not kept waiting for the gap's end, 5 to 7 s at 500 services); `earliest` when none is due
 * after the last read.
 */
export function alignedRead(earliest: number, gapMs: number, dueAt: number | undefined): number {
  if (dueAt === undefined || gapMs <= 0 || dueAt <= earliest - gapMs) return earliest;
  if (dueAt <= earliest) return dueAt;
  return dueAt - Math.floor((dueAt - earliest) / gapMs) * gapMs;
}
