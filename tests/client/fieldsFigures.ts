/**
 * Prints the fleet model's figures (fleetSim.ts) with the API's `RateLimit` fields on every answer,
 * for the cases issue 43 judges: 20 flows on 20 machines, the same without the fields, one flow of
 * 100 alone, 50 flows on one machine; seeds 1 to 3, the client's rules (`today`) or the rules tried
 * in fieldsShare.ts (`explicit`: 20 flows and the lone one; `one`: 50 on one machine).
 * `npx ts-node --transpile-only tests/client/fieldsFigures.ts [today|explicit|one]`.
 */
import { type FieldsRule, type SimOptions, simulateFleet } from "./fleetSim";
import { explicitShare } from "./fieldsShare";

/** One line of figures: 429s as a share of all answers, time / earliest and slowest / fastest for seeds 1, 2, 3. */
export function line(name: string, k: number, requests: number, earliestMs: number, opts: SimOptions = {}): void {
  const runs = [1, 2, 3].map((seed) => simulateFleet(k, requests, { ...opts, seed }));
  const limited = runs.reduce((a, r) => a + r.limited, 0);
  const answers = runs.reduce((a, r) => a + r.limited + r.accepted, 0);
  const f = (xs: number[]): string => xs.map((x) => x.toFixed(2)).join(" ");
  const times = runs.map((r) => Math.max(...r.doneMs) / earliestMs);
  const spread = runs.map((r) => Math.max(...r.doneMs) / Math.min(...r.doneMs));
  console.log(
    `${name.padEnd(34)} 429s ${((100 * limited) / answers).toFixed(1).padStart(5)} %  time/earliest ${f(times)}  slowest/fastest ${f(spread)}`,
  );
}

/** The four cases with `rule` (none: the client's rules). */
export function cases(name: string, rule?: FieldsRule): void {
  const fieldsRule = rule === undefined ? {} : { fieldsRule: rule };
  console.log(name);
  line("  K=20 machines, fields", 20, 20, 40_000, { fields: true, ...fieldsRule });
  line("  1 flow alone, 100, fields", 1, 100, 10_000, { fields: true, ...fieldsRule });
  line("  K=50 one machine, fields", 50, 10, 50_000, { fields: true, oneMachine: true, ...fieldsRule });
}

/** 20 flows on 20 machines and one flow of 100 alone, with the fields, paced by `rule`. */
function quick(name: string, rule: FieldsRule, cells = false): void {
  const grid = cells ? { turnGrid: true, gridCells: 40 } : {};
  line(`${name}: K=20 machines`, 20, 20, 40_000, { fields: true, fieldsRule: rule, ...grid });
  line(`${name}: 1 flow alone, 100`, 1, 100, 10_000, { fields: true, fieldsRule: rule, ...grid });
}

if (require.main === module) {
  const which = process.argv[2] ?? "today";
  if (which === "today") {
    cases("today");
    line("  K=20 machines, no fields", 20, 20, 40_000);
  }
  if (which === "explicit") {
    for (const safety of [0.8, 0.9]) {
      quick(`direct ${safety}`, explicitShare({ safety, mode: "direct" }));
      quick(`direct ${safety}, cells`, explicitShare({ safety, mode: "direct", onGrid: true }), true);
    }
    quick("aimd 0.9", explicitShare({ safety: 0.9, mode: "aimd" }));
    quick("aimd 0.9, cells", explicitShare({ safety: 0.9, mode: "aimd", onGrid: true }), true);
    quick("direct 0.9, no hold", explicitShare({ safety: 0.9, mode: "direct", holdOnEmpty: false }));
  }
  if (which === "one") {
    const rule = explicitShare({ safety: 0.9, mode: "direct" });
    line("direct 0.9: K=50 one machine", 50, 10, 50_000, { fields: true, oneMachine: true, fieldsRule: rule });
  }
}
