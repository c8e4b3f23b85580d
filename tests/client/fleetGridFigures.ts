/**
 * Prints the fleet model's figures (fleetSim.ts) with each machine told the fleet's size (and,
 * "numbered", its own number in it), on
 * the client's own grid (keySchedule.ts `fitFleet`, fleetSlots.ts), beside the client untold in
 * the same run, for the cases issue 43 judges, seeds 1 to 3 (seeded and pure: the figures do
 * not move with the load). `npx ts-node --transpile-only tests/client/fleetGridFigures.ts`.
 */
import { sprinkled } from "./fleetSim";
import { line } from "./fleetFigures";

for (const fields of [false, true]) {
  const by = fields ? ", fields" : "";
  line(`untold, K=20 machines${by}`, 20, 20, 40_000, () => ({ fields }));
  line(`told 20 + limit, K=20 machines${by}`, 20, 20, 40_000, () => ({ fields, fleet: { machines: 20, limitPerSecond: 10 } }));
  line(`numbered 20 + limit, K=20 machines${by}`, 20, 20, 40_000, () => ({
    fields,
    fleet: { machines: 20, limitPerSecond: 10 },
    numbered: true,
  }));
  if (fields) line(`told 20 only, K=20 machines${by}`, 20, 20, 40_000, () => ({ fields, fleet: { machines: 20 } }));
  if (fields) line(`numbered 20 only, K=20 machines${by}`, 20, 20, 40_000, () => ({ fields, fleet: { machines: 20 }, numbered: true }));
  line(`untold, K=20 sprinkled${by}`, 20, 20, 40_000, (seed) => ({ fields, fault: sprinkled(seed) }));
  line(`told 20, K=20 sprinkled${by}`, 20, 20, 40_000, (seed) => ({
    fields,
    fault: sprinkled(seed),
    fleet: { machines: 20, limitPerSecond: 10 },
  }));
  line(`numbered 20, K=20 sprinkled${by}`, 20, 20, 40_000, (seed) => ({
    fields,
    fault: sprinkled(seed),
    fleet: { machines: 20, limitPerSecond: 10 },
    numbered: true,
  }));
  line(`untold, K=50 machines${by}`, 50, 10, 50_000, () => ({ fields }));
  line(`told 50, K=50 machines${by}`, 50, 10, 50_000, () => ({ fields, fleet: { machines: 50, limitPerSecond: 10 } }));
  line(`numbered 50, K=50 machines${by}`, 50, 10, 50_000, () => ({
    fields,
    fleet: { machines: 50, limitPerSecond: 10 },
    numbered: true,
  }));
}
line("told 20, K=10 machines (over-told)", 10, 20, 20_000, () => ({ fleet: { machines: 20, limitPerSecond: 10 } }));
line("told 10, K=20 machines (under-told)", 20, 20, 40_000, () => ({ fleet: { machines: 10, limitPerSecond: 10 } }));
line("numbered 20, 10 running (0 to 9)", 10, 20, 20_000, () => ({ fleet: { machines: 20, limitPerSecond: 10 }, numbered: true }));
line("numbered 10, K=20 (two fleets, 0 to 9 each)", 20, 20, 40_000, () => ({
  fleet: { machines: 10, limitPerSecond: 10 },
  numbered: true,
}));
line("told 1, 1 flow of 100 (off)", 1, 100, 10_000, () => ({ fleet: { machines: 1, limitPerSecond: 10 } }));
