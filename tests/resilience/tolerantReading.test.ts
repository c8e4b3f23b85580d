/**
 * Tolerant reading never invents a value (case 6): numbers sent as strings are read as the
 * numbers they are; a field the provider cannot read (an empty `resources` list, HA counts
 * of another shape) keeps the value recorded in state, the user is told, and nothing is
 * written because of it: a refresh reports no drift it did not see, and the next `up`
 * sends neither a resize nor a setHA.
 */
import * as clouddb from "pulumi-clouddb";
import { expectNoErrors, printed } from "../../harness";
import { startCloud, writes, type Cloud } from "../../harness/cloud";

describe("answers in odd shapes", () => {
  let cloud: Cloud;
  const program = () => {
    const db = new clouddb.Service("db", { name: "oddly", cpuMillis: 1000, memoryGbs: 4, haReplicas: { replicaCount: 1 } });
    return { url: db.connectionString };
  };
  beforeAll(async () => {
    cloud = await startCloud();
    expectNoErrors(await cloud.stack.up(program));
    expectNoErrors(await cloud.stack.refresh()); // the inputs read back are stored once
  });
  afterEach(async () => {
    await cloud.control("DELETE", "/rewrites");
  });
  afterAll(async () => {
    await cloud.close();
  });

  /** The outputs that the odd answers must not change. */
  const recorded = () => {
    const { cpuMillis, memoryGbs, haReplicas, port, host, connectionString, resources } = cloud.stack.resource("db").outputs;
    return { cpuMillis, memoryGbs, haReplicas, port, host, connectionString, resources };
  };

  /** Refreshes, then ups, with the rewrites in place; both change nothing. */
  async function unchanged(): Promise<string> {
    const before = recorded();
    expect(before).toMatchObject({ cpuMillis: 1000, memoryGbs: 4, haReplicas: { replicaCount: 1, syncReplicaCount: 0 }, port: 5432 });
    await cloud.clearRequests();
    const refreshed = expectNoErrors(await cloud.stack.refresh());
    expect(refreshed.steps.map((s) => s.op)).toEqual(["same"]);
    expect(recorded()).toEqual(before);
    const up = expectNoErrors(await cloud.stack.up(program));
    expect(up.steps.map((s) => s.op)).toEqual(["same"]);
    expect(writes(await cloud.requests())).toEqual([]);
    return printed(refreshed);
  }

  it("reads numbers sent as strings as the numbers they are", async () => {
    for (const [field, value] of [
      ["cpu_millis", "1000"],
      ["memory_gbs", "4"],
      ["replica_count", "1"],
      ["sync_replica_count", "0"],
      ["port", "5432"],
    ]) {
      await cloud.controls.rewrite({ method: "GET", path: "/services", field, value, count: 10 });
    }
    const said = await unchanged();
    expect(said).not.toContain("warning");
  });

  it("keeps what it cannot read as recorded, and says so", async () => {
    await cloud.controls.rewrite({ method: "GET", path: "/services", field: "resources", value: [], count: 10 });
    await cloud.controls.rewrite({ method: "GET", path: "/services", field: "ha_replicas", value: "two", count: 10 });
    const said = await unchanged();
    expect(said).toContain("does not show `resources`, `ha_replicas` in a shape the provider can read");
    expect(said).toContain("keeping cpuMillis, memoryGbs, resources, haReplicas as recorded");
  });
});
