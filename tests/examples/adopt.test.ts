/**
 * examples/adopt through the real plugin host: takes over a service made out of band
 * (`adoptId`) and reads it (`Service.get`); destroy leaves the adopted service in the cloud.
 */
import adopt = require("../../examples/adopt");
import { expectNoErrors } from "../../harness";
import { writes, type Cloud } from "../../harness/cloud";
import { expectNoDrift, inventory, ops, previewWithoutWrites, example } from "./support";

const { cfg, start: startExampleCloud } = example("adopt");

describe("examples/adopt", () => {
  let cloud: Cloud;
  let existingId: string;
  beforeAll(async () => {
    cloud = await startExampleCloud();
    const made = await cloud.api.perform("createService", { body: { name: "legacy-orders" } });
    existingId = made.service_id;
    await cloud.api.waitForService(existingId, { until: ["READY"], timeoutMs: 10_000 });
    cloud.stack.setConfig(cfg("existingServiceId"), existingId);
    cloud.stack.setConfig(cfg("existingServiceName"), "legacy-orders");
  });
  afterAll(async () => {
    await cloud.close();
  });

  it("takes the existing service over, converging it to PROD with the pooler on, without creating one", async () => {
    await cloud.clearRequests();
    const r = expectNoErrors(await cloud.stack.up(adopt));
    expect(ops(r)).toEqual({ adopted: "create", "looked-up": "read" });
    expect(r.outputs).toEqual({ adoptedId: existingId, environment: "PROD", status: "READY" });
    expect(cloud.stack.resource("adopted").id).toBe(existingId);
    expect(cloud.stack.resources().map((x) => x.name)).toEqual(["adopted"]);

    const svc = await cloud.api.perform("getService", { service: existingId });
    expect(svc).toMatchObject({ name: "legacy-orders", status: "READY", metadata: { environment: "PROD" } });
    expect(svc.connection_pooler?.endpoint?.host).toBeTruthy();
    expect(await inventory(cloud)).toEqual({ services: [existingId], vpcs: [] });
    expect(writes(await cloud.requests()).some((w) => w.method === "POST" && /\/services$/.test(w.path))).toBe(false);
  });

  it("changes nothing on a second up", async () => {
    await expectNoDrift(cloud, adopt);
  });

  it("previews another service name as a replacement: the name is fixed", async () => {
    cloud.stack.setConfig(cfg("existingServiceName"), "orders");
    const r = await previewWithoutWrites(cloud, adopt);
    // The lookup reads the adopted service's id, not known while its replacement is only previewed: no read (RG2).
    expect(ops(r)).toEqual({ adopted: "replace,delete-replaced" });
    cloud.stack.setConfig(cfg("existingServiceName"), "legacy-orders");
  });

  it("leaves the adopted service in the cloud on destroy, dropping it from state: the stack did not make it", async () => {
    await cloud.clearRequests();
    const r = expectNoErrors(await cloud.stack.destroy());
    expect(ops(r)).toEqual({ adopted: "delete" });
    expect(writes(await cloud.requests())).toEqual([]);
    expect(cloud.stack.resources()).toEqual([]);
    expect(await inventory(cloud)).toEqual({ services: [existingId], vpcs: [] });
  });
});
