/**
 * The fleets the bench runs (bench/fleet.ts `fleetPlan`): this tree on every case, the trees
 * taking turns going first, and the first version, whose processes share nothing, on one
 * machine once per K and mode, also where only K machines are asked for: its run is the one
 * set beside this tree's on K machines.
 */
import { type FleetCase, fleetPlan } from "../../bench/fleet";

const cases: FleetCase[] = [
  { k: 20, machines: 20, mode: "sprinkled" },
  { k: 20, machines: 1, mode: "sprinkled" },
  { k: 50, machines: 50, mode: "retry-after" },
];

describe("the bench's fleets", () => {
  it("run the first version once per K and mode, on one machine, whichever machines the cases name", () => {
    const plan = fleetPlan(["this tree", "first"], cases, ["first"]).map(({ tree, run }) => `${tree} ${run.k}/${run.machines} ${run.mode}`);
    expect(plan).toEqual([
      "this tree 20/20 sprinkled",
      "first 20/1 sprinkled",
      "this tree 20/1 sprinkled",
      "this tree 50/50 retry-after",
      "first 50/1 retry-after",
    ]);
  });

  it("run every case in each tree that shares, taking turns going first", () => {
    const plan = fleetPlan(["this tree", "before"], cases.slice(0, 2)).map(({ tree, run }) => `${tree} ${run.machines}`);
    expect(plan).toEqual(["this tree 20", "before 20", "before 1", "this tree 1"]);
  });
});
