/**
 * The fleet model's self-organizing slots (slotCycle.ts): a flow sends only in the slots it owns,
 * keeps a slot while accepted and moves out of one a 429 met, sizes its cycle from the flows the
 * `RateLimit` fields reveal; and, in the model (fleetSim.ts `pacer`), flows told the cycle
 * de-collide their moments.
 */
import { seeded, simulateFleet } from "./fleetSim";
import { cycleFor, ownedFor, slotCycle, SLOTS, type SlotFlow } from "./slotCycle";
import { onSlots } from "./slotFigures";

const fields = (remaining: number) => ({ perSecond: 10, windowSeconds: 1, remaining, resetSeconds: 1 });

/** When `flow` first lets a request leave from `from` on (local ms), asked every ms. */
function firstSend(flow: SlotFlow, from = 0): number {
  let now = from;
  while (!flow.due(now)) now++;
  return now;
}

/** The local times (ms) in [from, to) at which `flow` lets a request leave, asked every ms. */
function sends(flow: SlotFlow, from: number, to: number): number[] {
  const out: number[] = [];
  for (let now = from; now < to; now++) if (flow.due(now)) out.push(now);
  return out;
}

describe("self-organizing slots", () => {
  it("size a cycle for one slot a flow and the spare ones, and give each flow an equal part of the rest", () => {
    expect(cycleFor(20)).toBe(22);
    expect(cycleFor(1)).toBe(2);
    expect(cycleFor(50)).toBe(56);
    // A lone flow owns all but the spare slot; 20 flows one each; never none.
    expect(ownedFor(20, 1)).toBe(19);
    expect(ownedFor(22, 20)).toBe(1);
    expect(ownedFor(22, 40)).toBe(1);
  });

  it("send only in an owned slot, at most one request a slot, at its start", () => {
    const flow = slotCycle({ limit: 10, knownCycle: 22, random: seeded(1) });
    const times = sends(flow, 0, 3 * flow.cycle * flow.slotMs);
    expect(times).toHaveLength(3);
    for (const t of times) {
      expect(flow.owned).toContain(Math.floor(t / flow.slotMs) % flow.cycle);
      expect(t % flow.slotMs).toBeLessThan(flow.slotMs * SLOTS.sendWithin);
    }
    expect(times[1] - times[0]).toBeCloseTo(flow.cycle * flow.slotMs, -1);
  });

  it("keep a slot while its requests are accepted and move out of one a 429 met", () => {
    const flow = slotCycle({ limit: 10, knownCycle: 22, random: seeded(2) });
    const first = firstSend(flow);
    const slot = flow.owned[0];
    flow.answered({ now: first + 40, sentAt: first, status: 200, fields: fields(3) });
    expect(flow.owned).toEqual([slot]);
    const second = firstSend(flow, first + 1);
    flow.answered({ now: second + 40, sentAt: second, status: 429, fields: fields(0) });
    expect(flow.owned).toHaveLength(1);
    expect(flow.owned[0]).not.toBe(slot);
  });

  it("grow the cycle to the flows an accepted answer's fields reveal, and a lone flow takes all but the spare slots", () => {
    // 9 of the window's 10 taken by others at one request every 2.1 s each: about 20 flows.
    const crowded = slotCycle({ limit: 10, random: seeded(3) });
    const t = firstSend(crowded);
    crowded.answered({ now: t + 40, sentAt: t, status: 200, fields: fields(0) });
    expect(crowded.flows).toBeGreaterThan(15);
    expect(crowded.cycle).toBe(cycleFor(crowded.flows));
    expect(crowded.owned).toHaveLength(1);
    // Alone: nothing used but its own request; a window later it owns all but the spare slot.
    const lone = slotCycle({ limit: 10, random: seeded(3) });
    const u = firstSend(lone);
    lone.answered({ now: u + 40, sentAt: u, status: 200, fields: fields(9) });
    expect(lone.owned).toHaveLength(1);
    sends(lone, u + 1, u + 1_200);
    expect(lone.owned).toHaveLength(lone.cycle - 1);
  });

  it("give up the slots beyond the first for a cycle when a window was full of others' requests", () => {
    const flow = slotCycle({ limit: 10, random: seeded(4) });
    const t = firstSend(flow);
    flow.answered({ now: t + 40, sentAt: t, status: 200, fields: fields(9) });
    const later = sends(flow, t + 1, t + 1_200);
    expect(flow.owned.length).toBeGreaterThan(1);
    const last = later[later.length - 1];
    flow.answered({ now: last + 40, sentAt: last, status: 200, fields: fields(0) });
    expect(flow.owned).toHaveLength(1);
  });

  it("told the cycle, 20 flows on 20 machines de-collide their moments: few 429s, near the earliest, fair", () => {
    const run = simulateFleet(20, 20, { seed: 1, ...onSlots(1, { knownCycle: cycleFor(20) }) });
    const done = Math.max(...run.doneMs);
    expect(run.limited / (run.limited + run.accepted)).toBeLessThanOrEqual(0.1);
    expect(done / 40_000).toBeLessThanOrEqual(1.3);
    expect(done / Math.min(...run.doneMs)).toBeLessThanOrEqual(1.3);
  });
});
