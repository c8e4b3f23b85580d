/** What an update sends and records (framework/changes.ts) and how `replaceOnChanges` paths match (framework/replaceOnChanges.ts). */
import { recordedUnlessChanged, wantedNow } from "../../provider/framework/changes";
import { pathSegments, replacedByOption } from "../../provider/framework/replaceOnChanges";

describe("wantedNow", () => {
  it("wants the desired value of what changed and the live value of the rest", () => {
    const desired = { environment: "PROD", haReplicas: { replicaCount: 1 }, vpcId: null, password: "new" };
    const live = { environment: "DEV", haReplicas: { replicaCount: 2 }, vpcId: "7" };
    expect(wantedNow(desired, live, { password: "old" }, new Set(["environment"]))).toEqual({
      environment: "PROD",
      haReplicas: { replicaCount: 2 },
      vpcId: "7",
      password: "old",
    });
  });
});

describe("recordedUnlessChanged", () => {
  it("keeps the recorded value of every diffed property the update did not change", () => {
    const outs = { status: "READY", environment: "PROD", haReplicas: { replicaCount: 2 } };
    const recorded = { environment: "DEV", haReplicas: { replicaCount: 1 } };
    expect(recordedUnlessChanged(outs, recorded, ["environment", "haReplicas"], new Set(["environment"]))).toEqual({
      status: "READY",
      environment: "PROD",
      haReplicas: { replicaCount: 1 },
    });
  });
});

describe("replaceOnChanges paths", () => {
  it.each([
    ["cpuMillis", ["cpuMillis"]],
    ["haReplicas.replicaCount", ["haReplicas", "replicaCount"]],
    ['tags["a.b"]', ["tags", "a.b"]],
    ["list[0].x", ["list", 0, "x"]],
    ["*", ["*"]],
    ["forkFrom[*]", ["forkFrom", "*"]],
  ])("reads %s", (path, segments) => {
    expect(pathSegments(path)).toEqual(segments);
  });

  it.each([".a", "a..b", "a[", 'a["b]'])("refuses %s", (path) => {
    expect(pathSegments(path)).toBeUndefined();
  });

  it("replaces a property when a path contains what changed in it, not what changed beside it", () => {
    const recorded = { forkFrom: { serviceId: "a", strategy: "NOW" } };
    const desired = { forkFrom: { serviceId: "a", strategy: "LAST_SNAPSHOT" } };
    expect(replacedByOption(["forkFrom.strategy"], ["forkFrom"], recorded, desired)).toEqual(["forkFrom"]);
    expect(replacedByOption(["forkFrom.serviceId"], ["forkFrom"], recorded, desired)).toEqual([]);
    expect(replacedByOption(["forkFrom.*"], ["forkFrom"], recorded, desired)).toEqual(["forkFrom"]);
    expect(replacedByOption("forkFrom", ["forkFrom"], recorded, desired)).toEqual([]);
  });
});
