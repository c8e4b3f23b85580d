/**
 * examples/production through the real plugin host: a protected HA service; its password
 * from secret config; destroy refused until `protect` is turned off.
 */
import production = require("../../examples/production");
import { expectNoErrors } from "../../harness";
import { writes, type Cloud } from "../../harness/cloud";
import { expectNoDrift, expectSecretOutput, inventory, ops, previewWithoutWrites, withArgs, example } from "./support";

const { cfg, start: startExampleCloud } = example("production");

describe("examples/production", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startExampleCloud();
  });
  afterAll(async () => {
    await cloud.close();
  });

  const chosenPassword = "Chosen-passw0rd-for-orders";

  it("deploys a protected PROD service with HA replicas and the pooler, exporting its initial password as a secret", async () => {
    const r = expectNoErrors(await cloud.stack.up(production));
    expect(ops(r)).toEqual({ orders: "create" });
    const svc = await cloud.api.perform("getService", { service: String(r.outputs.serviceId) });
    expect(svc).toMatchObject({
      name: "orders-prod",
      service_type: "RELATIONAL",
      status: "READY",
      ha_replicas: { replica_count: 2, sync_replica_count: 1 },
      metadata: { environment: "PROD" },
      endpoint: { host: r.outputs.host, port: r.outputs.port },
    });
    expect(svc.resources?.[0]?.spec).toMatchObject({ cpu_millis: 4000, memory_gbs: 16 });
    expect(svc.connection_pooler?.endpoint?.host).toBeTruthy();
    expect(cloud.stack.resource("orders").protect).toBe(true);
    expectSecretOutput(cloud, r, "password");
  });

  it("changes nothing on a second up", async () => {
    await expectNoDrift(cloud, production);
  });

  it("previews a new dbPassword as an in-place update, then sets it", async () => {
    cloud.stack.setConfig(cfg("dbPassword"), chosenPassword, { secret: true });
    const p = await previewWithoutWrites(cloud, production);
    expect(ops(p)).toEqual({ orders: "update" });

    await cloud.clearRequests();
    const r = expectNoErrors(await cloud.stack.up(production));
    expect(ops(r)).toEqual({ orders: "update" });
    expect(expectSecretOutput(cloud, r, "password")).toBe(chosenPassword);
    const id = String(r.outputs.serviceId);
    expect(writes(await cloud.requests()).map((w) => `${w.method} ${w.path.replace(/.*\/services/, "/services")}`)).toEqual([
      `POST /services/${id}/updatePassword`,
    ]);
    expect(cloud.stack.pluginStderr()).not.toContain(chosenPassword);
  });

  it("refuses to plan a replacement (a new name) while protected", async () => {
    const r = await cloud.stack.preview(withArgs(production, "orders", { name: "orders-prod-2" }));
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0].message).toContain("marked for protection");
  });

  it("refuses to destroy while protected, leaving the service in place", async () => {
    const id = cloud.stack.resource("orders").id;
    const r = await cloud.stack.destroy();
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0].message).toContain("cannot be deleted\nbecause it is protected");
    expect(r.steps).toEqual([]);
    expect(cloud.stack.resources().map((x) => x.name)).toEqual(["orders"]);
    expect((await cloud.api.perform("getService", { service: id })).status).toBe("READY");
  });

  it("destroys once protect=false has been applied by an up", async () => {
    const id = cloud.stack.resource("orders").id;
    cloud.stack.setConfig(cfg("protect"), "false");
    const up = expectNoErrors(await cloud.stack.up(production));
    expect(ops(up)).toEqual({ orders: "same" });
    expect(cloud.stack.resource("orders").protect).toBeFalsy();

    const r = expectNoErrors(await cloud.stack.destroy());
    expect(ops(r)).toEqual({ orders: "delete" });
    expect(cloud.stack.resources()).toEqual([]);
    await expect(cloud.api.perform("getService", { service: id })).rejects.toMatchObject({ status: 404 });
    expect(await inventory(cloud)).toEqual({ services: [], vpcs: [] });
  });
});
