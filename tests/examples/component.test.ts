/**
 * examples/component through the real plugin host: a DatabaseCluster component (a service
 * with the pooler and two read replica sets), a previewed change, protection inherited by
 * the children, destroy.
 */
import component = require("../../examples/component");
import { DatabaseCluster } from "../../examples/component/databaseCluster";
import { expectNoErrors } from "../../harness";
import type { Cloud } from "../../harness/cloud";
import { expectNoDrift, expectSecretOutput, inventory, ops, previewWithoutWrites, withArgs, example } from "./support";

const { start: startExampleCloud } = example("component");

describe("examples/component", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startExampleCloud();
  });
  afterAll(async () => {
    await cloud.close();
  });

  it("deploys the cluster's service and replica sets as children of the component", async () => {
    const r = expectNoErrors(await cloud.stack.up(component));
    expect(ops(r)).toEqual({ "analytics-db": "create", "analytics-dashboards": "create", "analytics-exports": "create" });
    for (const name of ["analytics-db", "analytics-dashboards", "analytics-exports"]) {
      expect(cloud.stack.resource(name).urn).toContain("::clouddb-examples:index:DatabaseCluster$pulumi-nodejs:dynamic/clouddb:");
    }

    const db = cloud.stack.resource("analytics-db");
    const svc = await cloud.api.perform("getService", { service: db.id });
    expect(svc).toMatchObject({ name: "analytics", status: "READY", metadata: { environment: "DEV" } });
    expect(svc.resources?.[0]?.spec).toMatchObject({ cpu_millis: 2000, memory_gbs: 8 });
    const pooler = svc.connection_pooler?.endpoint;
    expect(r.outputs.host).toBe(svc.endpoint?.host);
    expect(r.outputs.poolerEndpoint).toBe(`${pooler?.host}:${pooler?.port}`);

    const sets = (await cloud.api.perform("listReplicaSets", { service: db.id })).items.map((s) => [
      s.name,
      s.nodes,
      s.cpu_millis,
      s.memory_gbs,
      s.status,
    ]);
    expect(sets.sort()).toEqual([
      ["dashboards", 2, 500, 2, "active"],
      ["exports", 1, 1000, 4, "active"],
    ]);
    expectSecretOutput(cloud, r, "password");
  });

  it("changes nothing on a second up", async () => {
    await expectNoDrift(cloud, component);
  });

  it("previews a resized replica set as an in-place update", async () => {
    const r = await previewWithoutWrites(cloud, withArgs(component, "analytics-dashboards", { nodes: 3 }));
    expect(ops(r)).toEqual({ "analytics-db": "same", "analytics-dashboards": "update", "analytics-exports": "same" });
  });

  it("destroys the replica sets, then the service", async () => {
    const r = expectNoErrors(await cloud.stack.destroy());
    expect(r.steps.map((s) => `${s.op} ${s.name}`).slice(-1)).toEqual(["delete analytics-db"]);
    expect(ops(r)).toEqual({ "analytics-db": "delete", "analytics-dashboards": "delete", "analytics-exports": "delete" });
    expect(await inventory(cloud)).toEqual({ services: [], vpcs: [] });
  });

  it("passes the component's protect option to its children", async () => {
    const program = (protect: boolean) => () => {
      const c = new DatabaseCluster("billing", { name: "billing" }, { protect });
      return { host: c.host };
    };
    expectNoErrors(await cloud.stack.up(program(true)));
    expect(cloud.stack.resource("billing-db").protect).toBe(true);
    const refused = await cloud.stack.destroy();
    expect(refused.errors.map((e) => e.message)).toEqual([expect.stringContaining("because it is protected")]);

    expectNoErrors(await cloud.stack.up(program(false)));
    expectNoErrors(await cloud.stack.destroy());
    expect(await inventory(cloud)).toEqual({ services: [], vpcs: [] });
  });
});
