/**
 * Prints the fleet model's figures (fleetSim.ts) with each flow on self-organizing slots
 * (slotCycle.ts), fields on and off, beside the client's rules (`today`) in the same run, for the
 * cases issue 43 judges, seeds 1 to 3; and the slots with the cycle told (one slot a flow and the
 * spare ones), the bound of what a count could reach.
 * `npx ts-node --transpile-only tests/client/slotFigures.ts` (about two minutes).
 */
import { type SimOptions, seeded, sprinkled } from "./fleetSim";
import { line } from "./fleetFigures";
import { cycleFor, slotCycle, type SlotOptions } from "./slotCycle";

/** Options giving each flow its own slots (the model's limit of 10), its randomness seeded from the run's seed and its number. */
export function onSlots(seed: number, options: Partial<SlotOptions> = {}): SimOptions {
  let flow = 0;
  return { pacer: () => slotCycle({ limit: 10, random: seeded(seed * 1_000 + flow++), ...options }) };
}

if (require.main === module) {
  for (const fields of [true, false]) {
    const by = fields ? "fields" : "no fields";
    const slots = (seed: number, extra: Partial<SlotOptions> = {}): SimOptions => ({
      fields,
      ...onSlots(seed, { useFields: fields, ...extra }),
    });
    line(`today, K=20 machines, ${by}`, 20, 20, 40_000, () => ({ fields }));
    line(`slots, K=20 machines, ${by}`, 20, 20, 40_000, (seed) => slots(seed));
    line(`today, K=20 sprinkled, ${by}`, 20, 20, 40_000, (seed) => ({ fields, fault: sprinkled(seed) }));
    line(`slots, K=20 sprinkled, ${by}`, 20, 20, 40_000, (seed) => ({ ...slots(seed), fault: sprinkled(seed) }));
    line(`today, K=50 machines, ${by}`, 50, 10, 50_000, () => ({ fields }));
    line(`slots, K=50 machines, ${by}`, 50, 10, 50_000, (seed) => slots(seed));
    line(`today, 1 flow of 100, ${by}`, 1, 100, 10_000, () => ({ fields }));
    line(`slots, 1 flow of 100, ${by}`, 1, 100, 10_000, (seed) => slots(seed));
    line(`today, K=50 one machine, ${by}`, 50, 10, 50_000, () => ({ fields, oneMachine: true }));
  }
  line("slots told the cycle, K=20 machines", 20, 20, 40_000, (seed) => onSlots(seed, { knownCycle: cycleFor(20) }));
  line("slots told the cycle, K=20 sprinkled", 20, 20, 40_000, (seed) => ({
    ...onSlots(seed, { knownCycle: cycleFor(20) }),
    fault: sprinkled(seed),
  }));
  line("slots told the cycle, K=50 machines", 50, 10, 50_000, (seed) => onSlots(seed, { knownCycle: cycleFor(50) }));
}
