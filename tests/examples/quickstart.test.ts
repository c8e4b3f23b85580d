/**
 * examples/quickstart (the program Pulumi.yaml runs) through the real plugin host:
 * up, no drift, a previewed change, destroy.
 */
import quickstart = require("../../examples/quickstart");
import { expectNoErrors } from "../../harness";
import type { Cloud } from "../../harness/cloud";
import { expectNoDrift, expectSecretOutput, inventory, ops, previewWithoutWrites, withArgs, example } from "./support";

const { start: startExampleCloud } = example("quickstart");

describe("examples/quickstart", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startExampleCloud();
  });
  afterAll(async () => {
    await cloud.close();
  });

  it("deploys a VPC, a service attached to it with the pooler on, and a read replica set", async () => {
    const r = expectNoErrors(await cloud.stack.up(quickstart));
    expect(ops(r)).toEqual({ net: "create", db: "create", reporting: "create" });
    expect(r.steps.map((s) => s.name)).toEqual(["net", "db", "reporting"]);

    const out = r.outputs;
    const vpc = await cloud.api.perform("getVpc", { vpc: String(out.vpcId) });
    expect(vpc).toMatchObject({ name: "quickstart-net", cidr: "10.10.0.0/16", region_code: "us-east-1" });

    const svc = await cloud.api.perform("getService", { service: String(out.serviceId) });
    expect(svc).toMatchObject({ name: "quickstart-db", status: "READY", endpoint: { host: out.host, port: out.port } });
    expect(svc.resources?.[0]?.spec).toMatchObject({ cpu_millis: 1000, memory_gbs: 4 });
    expect(svc.connection_pooler?.endpoint).toEqual({ host: out.poolerHost, port: out.poolerPort });
    expect(cloud.stack.resource("db").outputs.vpcId).toBe(vpc.id);
    expect(out.port).toBe(5432);
    expect(typeof out.poolerPort).toBe("number");

    const sets = (await cloud.api.perform("listReplicaSets", { service: svc.service_id })).items;
    expect(sets).toHaveLength(1);
    expect(sets[0]).toMatchObject({ name: "reporting", nodes: 1, cpu_millis: 500, memory_gbs: 2, status: "active" });
    expect(sets[0].endpoint?.host).toBe(out.replicaHost);

    expectSecretOutput(cloud, r, "password");
    expect(Object.keys(out).sort()).toEqual(
      ["host", "password", "poolerHost", "poolerPort", "port", "replicaHost", "serviceId", "vpcId"].sort(),
    );
  });

  it("changes nothing on a second up", async () => {
    await expectNoDrift(cloud, quickstart);
  });

  it("previews a resize of the replica set as an in-place update", async () => {
    const r = await previewWithoutWrites(cloud, withArgs(quickstart, "reporting", { nodes: 2 }));
    expect(ops(r)).toEqual({ net: "same", db: "same", reporting: "update" });
  });

  it("previews a renamed service as a replacement, with its replica set", async () => {
    const r = await previewWithoutWrites(cloud, withArgs(quickstart, "db", { name: "quickstart-db-2" }));
    expect(ops(r)).toEqual({ net: "same", db: "replace,delete-replaced", reporting: "replace,delete-replaced" });
  });

  it("destroys everything, dependents first", async () => {
    const r = expectNoErrors(await cloud.stack.destroy());
    expect(r.steps.map((s) => `${s.op} ${s.name}`)).toEqual(["delete reporting", "delete db", "delete net"]);
    expect(cloud.stack.resources()).toEqual([]);
    expect(await inventory(cloud)).toEqual({ services: [], vpcs: [] });
  });
});
