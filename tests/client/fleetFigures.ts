/**
 * Prints the fleet model's figures (fleetSim.ts) for the cases issue 43 judges: K = 20 flows across
 * machines, the same with a gateway's sprinkled 429s, one flow alone, one flow through a storm of
 * 429s on its first requests, and 50 flows. `npx ts-node --transpile-only tests/client/fleetFigures.ts`.
 */
import { type SimArrival, type SimOptions, simulateFleet, sprinkled } from "./fleetSim";

/** A storm on a lone stack's creates (tests/resilience/faults.test.ts): requests 0 and 9 refused 4 times, 3 and 12 twice, `Retry-After: 1`. */
export function storm(r: SimArrival): number | undefined {
  const times: Record<number, number> = { 0: 4, 9: 4, 3: 2, 12: 2 };
  return r.attempt < (times[r.id] ?? 0) ? 1 : undefined;
}

/** One line of figures for seeds 1, 2, 3: 429s as a share of all answers (those of the first 2 s apart), time / earliest, slowest / fastest. */
export function line(name: string, k: number, requests: number, earliestMs: number, opts: (seed: number) => SimOptions = () => ({})): void {
  const runs = [1, 2, 3].map((seed) => simulateFleet(k, requests, { ...opts(seed), seed }));
  const limited = runs.reduce((a, r) => a + r.limited, 0);
  const early = runs.reduce((a, r) => a + r.limitedMs.filter((at) => at < 2_000).length, 0);
  const answers = runs.reduce((a, r) => a + r.limited + r.accepted, 0);
  const times = runs.map((r) => Math.max(...r.doneMs) / earliestMs);
  const spread = runs.map((r) => Math.max(...r.doneMs) / Math.min(...r.doneMs));
  const f = (xs: number[]): string => xs.map((x) => x.toFixed(2)).join(" ");
  console.log(
    `${name.padEnd(38)} 429s ${((100 * limited) / answers).toFixed(1).padStart(5)} % (first 2 s ${((100 * early) / answers).toFixed(1).padStart(4)} %)  time/earliest ${f(times)}  slowest/fastest ${f(spread)}`,
  );
}

// Each case paced by the rate alone, then with a share's turns on the common clock's grid (turnGrid.ts).
for (const turnGrid of require.main === module ? [false, true] : []) {
  const by = turnGrid ? ", grid turns" : "";
  line(`K=20 machines${by}`, 20, 20, 40_000, () => ({ turnGrid }));
  line(`K=20 machines sprinkled${by}`, 20, 20, 40_000, (seed) => ({ fault: sprinkled(seed), turnGrid }));
  line(`K=50 (each its own)${by}`, 50, 10, 50_000, () => ({ turnGrid }));
  line(`K=50 one machine${by}`, 50, 10, 50_000, () => ({ oneMachine: true, turnGrid }));
  line(`1 flow alone, 100${by}`, 1, 100, 10_000, () => ({ turnGrid }));
  line(`1 flow, storm, 18 in turn${by}`, 1, 18, 1, () => ({ fault: storm, concurrency: 1, turnGrid }));
  const lone = simulateFleet(1, 18, { fault: storm, concurrency: 1, turnGrid });
  const gaps = lone.sends[0].slice(1).map((t, i) => t - lone.sends[0][i]);
  console.log(`lone storm${by}: done`, lone.doneMs[0], "ms; gaps", gaps.join(" "));
}
