/**
 * The fleet model's turns on the common clock's grid (turnGrid.ts), and a share's slots moved onto
 * them (`claimTurns`, `refusedOnTurn`), as the model (fleetSim.ts `turnGrid`) runs them.
 */
import { claimSlots, refused } from "../../provider/client/shaping/keySchedule";
import { newSchedule } from "../../provider/client/shaping/schedule";
import { seeded } from "./fleetSim";
import { claimTurns, cycleMs, GRID, type GridTurns, redrawn, refusedOnTurn, turnsFor, turnTimes } from "./turnGrid";

const T0 = 1_000_000;
/** The cycle of a limit whose window is a second. */
const CYCLE = cycleMs(1);

describe("turns on the common clock's grid", () => {
  it("are a few frames of the limit's window and a margin, as many a cycle as the rate asks, one at least", () => {
    expect(CYCLE).toBe(GRID.cycleFrames * (1_000 + GRID.marginMs));
    expect(turnsFor(undefined, 0.5, CYCLE, seeded(1)).at).toHaveLength(Math.round((0.5 * CYCLE) / 1_000));
    expect(turnsFor(undefined, 0.01, CYCLE, seeded(1)).at).toHaveLength(1);
  });

  it("keep the turns held while the cycle is the same: a cut drops the turns drawn last, a growth draws one more", () => {
    const held = { cycleMs: CYCLE, at: [100, 900, 2_500] };
    expect(turnsFor(held, 1_000 / CYCLE, CYCLE, seeded(1)).at).toEqual([100]);
    const grown = turnsFor(held, 4_000 / CYCLE, CYCLE, seeded(1)).at;
    expect(grown.slice(0, 3)).toEqual([100, 900, 2_500]);
    expect(grown).toHaveLength(4);
    // Another window, another cycle: every turn drawn again.
    expect(turnsFor(held, 3_000 / cycleMs(2), cycleMs(2), () => 0).at).toEqual([0, 0, 0]);
  });

  it("give the next times of the turns, in order, from any moment of the cycle", () => {
    const turns = { cycleMs: 4_000, at: [3_000, 500] };
    expect(turnTimes(turns, 8_600, 4)).toEqual([11_000, 12_500, 15_000, 16_500]);
    expect(turnTimes(turns, 8_500, 1)).toEqual([8_500]);
  });

  it("draw again the turn nearest a refused request, the cycle read round, and keep the others", () => {
    const turns = { cycleMs: 4_000, at: [100, 1_500, 3_900] };
    // Sent at 8_010 (10 ms into a cycle): 3_900 is 110 ms before it across the cycle's end, 100 is 90 ms after.
    expect(redrawn(turns, 8_010, () => 0.5).at).toEqual([1_500, 3_900, 2_000]);
    expect(redrawn(turns, 7_960, () => 0.5).at).toEqual([100, 1_500, 2_000]);
  });
});

describe("a share's slots on the grid (claimTurns)", () => {
  /** A share of the key at `rate` a second. */
  function share(rate: number) {
    const s = newSchedule(T0);
    Object.assign(s, { slowStart: false, share: true, limit: rate, rate, last429At: T0 - 10_000 });
    return s;
  }

  it("fall on the share's turns, cycle after cycle, where the rate alone spaces them evenly from now", () => {
    const random = seeded(3);
    const grid: GridTurns = new WeakMap();
    const s = share(0.5);
    const slots = claimTurns(grid, s, T0, "a", 3, random);
    const turns = grid.get(s)!;
    expect(slots.map((t) => turns.at.includes(t % CYCLE))).toEqual([true, true, true]);
    expect(s.slots.slice(-3)).toEqual(slots);
    // The next claim goes on from the last slot's turn.
    const next = claimTurns(grid, s, T0 + 10, "a", 1, random)[0];
    expect(next).toBe(turnTimes(turns, slots[2] + 1, 1)[0]);
    const even = claimSlots(share(0.5), T0, "a", 3, true);
    expect(even).toEqual([T0, T0 + 2_000, T0 + 4_000]);
  });

  it("keep every turn but the one a 429 met, which is drawn again", () => {
    const grid: GridTurns = new WeakMap();
    const s = share(1);
    const slots = claimTurns(grid, s, T0, "a", 4, seeded(5));
    const before = [...grid.get(s)!.at];
    const met = slots[1] % CYCLE;
    refusedOnTurn(grid, s, slots[1], () => 0.999);
    refused(s, slots[1] + 40, 1, true, slots[1], undefined, () => 0.999);
    const after = grid.get(s)!.at;
    expect(after).toHaveLength(before.length);
    expect(after).not.toContain(met);
    expect(after.slice(0, -1)).toEqual(before.filter((a) => a !== met));
  });

  it("are none while the rate alone paces the schedule (a share in its slow start, or not a share): the rate's slots, no turns held", () => {
    const starting = () => Object.assign(newSchedule(T0), { share: true });
    const paced = () => Object.assign(newSchedule(T0), { slowStart: false, limit: 1, rate: 1, last429At: T0 - 10_000 });
    for (const [s, same] of [
      [starting(), starting()],
      [paced(), paced()],
    ]) {
      const grid: GridTurns = new WeakMap();
      expect(claimTurns(grid, s, T0, "a", 2, seeded(1))).toEqual(claimSlots(same, T0, "a", 2, true));
      expect(grid.has(s)).toBe(false);
    }
  });
});
