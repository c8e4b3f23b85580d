/**
 * Fair turns for writes among the clients sharing a key's schedule (fairTurns.ts): a client
 * that took turns ahead of the others in the slow start sits out while they catch up, but
 * never leaves a turn unused, and a client that starts late does not take back the turns it
 * missed.
 */
import { FAIR_AHEAD } from "../../provider/client/shaping/fairTurns";
import { claimSlots } from "../../provider/client/shaping/keySchedule";
import { newSchedule, type KeySchedule } from "../../provider/client/shaping/schedule";
import { Pacer } from "../../provider/client/shaping/pacer";
import { SharedSchedule } from "../../provider/client/shaping/sharedSchedule";
import { pacingDirPerTest } from "./pacingDir";

/** A schedule in its slow start, where `a` claimed `n` turns for writes alone, one at a time (as the pacer does then). */
function aheadInSlowStart(n: number): KeySchedule {
  const s = newSchedule(0);
  for (let i = 0; i < n; i++) claimSlots(s, i * 10, "a", 1, true);
  return s;
}

/** The limit showed: 10 requests a second, the rate held there. */
function limited(s: KeySchedule): void {
  s.slowStart = false;
  s.rate = 10;
  s.limit = 10;
}

describe("fair turns for writes", () => {
  it("a client that took turns ahead in the slow start sits out while the others, wanting turns, catch up", () => {
    const s = aheadInSlowStart(4);
    let now = 100;
    claimSlots(s, now, "b", 1, true);
    claimSlots(s, now, "c", 1, true);
    // The limit shows, and b and c's claims fill the schedule.
    limited(s);
    const given: Record<string, number> = { a: 4, b: 1, c: 1 };
    const order: string[] = [];
    for (let round = 0; round < 6; round++) {
      now += 300;
      for (const m of ["b", "c", "a"]) {
        const slots = claimSlots(s, now, m, 1, true);
        given[m] += slots.length;
        if (slots.length > 0) order.push(m);
      }
    }
    // a got no turn until b and c were within FAIR_AHEAD - 1 of it, then its turns in round robin.
    expect(order.slice(0, 4)).toEqual(["b", "c", "b", "c"]);
    expect(Math.max(...Object.values(given)) - Math.min(...Object.values(given))).toBeLessThanOrEqual(FAIR_AHEAD);
    expect(order).toContain("a");
  });

  it("leaves no turn unused for fairness: with no claims of others ahead in the schedule, the client ahead gets its turn", () => {
    const s = aheadInSlowStart(4);
    claimSlots(s, 100, "b", 1, true);
    limited(s);
    // b's turn has passed and nobody else claimed since: the schedule is free now.
    expect(claimSlots(s, 1_000, "a", 1, true)).toEqual([1_000]);
  });

  it("does not hold a client for one that stopped claiming turns for writes", () => {
    const s = aheadInSlowStart(4);
    claimSlots(s, 100, "b", 1, true);
    limited(s);
    // c's claims fill the schedule ahead; b has not claimed for writes for seconds (its writes are done).
    for (let t = 3_000; t < 3_500; t += 100) claimSlots(s, t, "c", 2, true);
    expect(s.next - 3_500).toBeGreaterThan(100);
    expect(claimSlots(s, 3_500, "a", 1, true)).toHaveLength(1);
  });

  it("counts a client that first claims after the slow start from the fewest turns of those writing", () => {
    const s = aheadInSlowStart(4);
    claimSlots(s, 100, "b", 1, true);
    limited(s);
    claimSlots(s, 200, "late", 1, true);
    expect(s.writeTurns?.late.n).toBe(Math.min(s.writeTurns!.a.n, s.writeTurns!.b.n) + 1);
    // A poll's claim is not a turn for writes, and holds nobody.
    claimSlots(s, 200, "poller", 1);
    expect(s.writeTurns?.poller).toBeUndefined();
  });
});

describe("a client's pacer sitting out", () => {
  const pacingDir = pacingDirPerTest();

  it("claims again once the turns given to others have passed, and sends then, without claiming in a loop meanwhile", async () => {
    const shared = new SharedSchedule(pacingDir(), "https://api.example.com/v1", "k");
    const other = new SharedSchedule(pacingDir(), "https://api.example.com/v1", "k");
    const start = Date.now();
    // This client is 5 turns for writes ahead of another writing client whose turns fill the next 600 ms.
    await shared.update((s) => limited(s));
    await other.update((s, now) => claimSlots(s, now, other.member, 6, true));
    await shared.update((s, now) => {
      s.writeTurns = { [shared.member]: { n: 5, at: now }, [other.member]: { n: 0, at: now } };
    });
    const updates = jest.spyOn(shared, "update");
    const pacer = new Pacer(Date.now, shared);
    try {
      expect(await pacer.acquire("write")).toBe(true);
      expect(Date.now() - start).toBeGreaterThanOrEqual(500);
      // One claim that gave no turn, one that gave it (and perhaps one more whose lock was busy).
      expect(updates.mock.calls.length).toBeLessThanOrEqual(3);
    } finally {
      pacer.close();
    }
  });
});
