/**
 * Reads of the machine's list timed to when its last service is due (listReadiness.ts): the
 * estimate from the list's own `created` times, given only when it is tight, and the read of
 * the schedule's file moved to meet it, by less than the list's gap (or, when it is due within
 * the gap after the last read, brought to it).
 */
import { alignedRead, lastDueAfterMs, TIGHT_MS } from "../../provider/client/shaping/listReadiness";
import { LIST_COST, SharedLists } from "../../provider/client/shaping/sharedLists";
import { SharedSchedule } from "../../provider/client/shaping/sharedSchedule";
import { pacingDirPerTest } from "./pacingDir";

const T0 = Date.parse("2026-11-27T12:00:00Z");
/** A service of a list, created `ms` after T0 (microseconds, as the API lists them). */
const service = (i: number, ms: number, status: string): Record<string, unknown> => ({
  service_id: `svc${String(i).padStart(7, "0")}`,
  created: new Date(T0 + ms).toISOString().replace("Z", "123Z"),
  status,
});

/** A list read 10 s into creations 100 ms apart that take 7 s: the first 30 READY, the next 70 on their way. */
function midCreation(): Record<string, unknown>[] {
  return Array.from({ length: 100 }, (_, i) => service(i, i * 100, i < 30 ? "READY" : i < 50 ? "CONFIGURING" : "QUEUED"));
}

describe("when a list's last service is due", () => {
  it("is its distance in creation from the youngest READY one: every service on its way is due by then", () => {
    // The youngest on its way was created at 9.9 s, the youngest READY at 2.9 s: due within 7 s of the read.
    expect(lastDueAfterMs(midCreation())).toBe(7_000);
  });

  it("is not told when the estimate is loose or says nothing of creation", () => {
    const readyLongAgo = [service(0, -3_600_000, "READY"), service(1, 0, "QUEUED"), service(2, 500, "QUEUED")];
    expect(lastDueAfterMs(readyLongAgo)).toBeUndefined();
    // An old service resized: on its way again, created long before the youngest READY one.
    expect(lastDueAfterMs([...midCreation(), service(100, -86_400_000, "CONFIGURING")])).toBeUndefined();
    // Creations that took different times: one on its way created before a READY one.
    expect(lastDueAfterMs([service(0, 0, "QUEUED"), service(1, 100, "READY")])).toBeUndefined();
    expect(lastDueAfterMs([service(0, 0, "READY"), service(1, TIGHT_MS + 1, "QUEUED")])).toBeUndefined();
    expect(lastDueAfterMs([service(0, 0, "QUEUED")])).toBeUndefined();
    expect(lastDueAfterMs({ items: [] })).toBeUndefined();
    expect(lastDueAfterMs([{ status: "READY", created: "yesterday" }, null, 7])).toBeUndefined();
  });

  it("moves a read later by less than its gap, so that one read meets it; or brings it to the due time within the gap after the last read", () => {
    expect(alignedRead(1_000, 3_000, 8_500)).toBe(2_500);
    expect(alignedRead(1_000, 3_000, 3_900)).toBe(3_900);
    // The last read at -2,000: its last service due at 900, within the gap after it.
    expect(alignedRead(1_000, 3_000, 900)).toBe(900);
    // Due before the last read: nothing is waited for.
    expect(alignedRead(1_000, 3_000, -2_500)).toBe(1_000);
    expect(alignedRead(1_000, 3_000, undefined)).toBe(1_000);
  });
});

describe("the machine's read of a list after the writes", () => {
  const pacingDir = pacingDirPerTest();

  it("comes when the last service of the list read before is due, not at the gap's end", async () => {
    const lists = new SharedLists(new SharedSchedule(pacingDir(), "https://api.example.com/v1", "k"), pacingDir());
    const key = "services p";
    expect(await lists.take(key)).toBe(true);
    const sentAt = Date.now();
    await lists.done(key, { sentAt, body: midCreation() });
    const gap = 100 * LIST_COST.msPerItem;
    const due = sentAt + 7_000 + LIST_COST.dueMarginMs;
    // 7,050 ms after the read, less three gaps of 1,500 ms: no later than the gap's end would have been.
    expect(await lists.take(key)).toBe(due - 3 * gap);
    expect(due - 3 * gap).toBeGreaterThan(sentAt + gap);
    // A later read whose list tells nothing (all READY) keeps the time known.
    const later = sentAt + 2_600;
    await lists.done(key, { sentAt: later, body: midCreation().map((item) => ({ ...item, status: "READY" })) });
    expect(await lists.take(key)).toBe(due - gap);
  });

  it("comes when the last service is due within the gap after the read before, not at the gap's end", async () => {
    const lists = new SharedLists(new SharedSchedule(pacingDir(), "https://api.example.com/v1", "k"), pacingDir());
    const key = "services p";
    expect(await lists.take(key)).toBe(true);
    // A list of 500 (a gap of 7.5 s), read as its last services were created: the youngest on its way 1 s younger than the youngest READY one.
    const tail = Array.from({ length: 500 }, (_, i) => service(i, i * 10, i < 400 ? "READY" : "QUEUED"));
    const sentAt = Date.now();
    await lists.done(key, { sentAt, body: tail });
    expect(lastDueAfterMs(tail)).toBe(1_000);
    expect(await lists.take(key)).toBe(sentAt + 1_000 + LIST_COST.dueMarginMs);
    expect(sentAt + 1_000 + LIST_COST.dueMarginMs).toBeLessThan(sentAt + 500 * LIST_COST.msPerItem);
    // The read then finds them READY: the next waits for the gap after it.
    const then = sentAt + 1_050;
    await lists.done(key, { sentAt: then, body: tail.map((item) => ({ ...item, status: "READY" })) });
    expect(await lists.take(key)).toBe(then + 500 * LIST_COST.msPerItem);
  });
});
