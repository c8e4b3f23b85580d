/**
 * examples/lookups through the real plugin host: the functions list what was made out of
 * band; the program manages nothing, so destroy leaves it all.
 */
import lookups = require("../../examples/lookups");
import { expectNoErrors } from "../../harness";
import type { Cloud } from "../../harness/cloud";
import { inventory, previewWithoutWrites, example } from "./support";

const { start: startExampleCloud } = example("lookups");

describe("examples/lookups", () => {
  let cloud: Cloud;
  let made: { services: string[]; vpcs: string[] };
  beforeAll(async () => {
    cloud = await startExampleCloud();
    await cloud.api.perform("createVpc", { body: { name: "a", cidr: "10.1.0.0/16", region_code: "us-east-1" } });
    await cloud.api.perform("createVpc", { body: { name: "b", cidr: "10.2.0.0/16", region_code: "eu-west-1" } });
    const first = await cloud.api.perform("createService", { body: { name: "orders" } });
    const second = await cloud.api.perform("createService", { body: { name: "billing" } });
    for (const s of [first, second]) await cloud.api.waitForService(s.service_id, { until: ["READY"], timeoutMs: 10_000 });
    const rs = await cloud.api.perform("createReplicaSet", {
      service: first.service_id,
      body: { name: "reporting", nodes: 1, cpu_millis: 500, memory_gbs: 2 },
    });
    await cloud.api.waitForReplicaSet(first.service_id, rs.id, { until: ["active"], timeoutMs: 10_000 });
    made = await inventory(cloud);
  });
  afterAll(async () => {
    await cloud.close();
  });

  it("exports the credential, the project's services and VPCs, and the first service's replica sets", async () => {
    const r = expectNoErrors(await cloud.stack.up(lookups));
    expect(r.steps).toEqual([]);
    const me = await cloud.api.perform("getAuthInfo");
    expect(r.outputs).toEqual({
      credential: "apiKey",
      project: me.apiKey?.project?.name,
      serviceNames: ["orders", "billing"],
      vpcCidrs: ["10.1.0.0/16", "10.2.0.0/16"],
      firstServiceReplicaSets: ["reporting"],
    });
    expect(typeof r.outputs.project).toBe("string");
  });

  it("previews what changed in the project since", async () => {
    await cloud.api.perform("createVpc", { body: { name: "c", cidr: "10.3.0.0/16", region_code: "us-east-1" } });
    const r = await previewWithoutWrites(cloud, lookups);
    expect(r.steps).toEqual([]);
    expect(r.outputs.vpcCidrs).toEqual(["10.1.0.0/16", "10.2.0.0/16", "10.3.0.0/16"]);
  });

  it("destroys nothing: the program only reads", async () => {
    const r = expectNoErrors(await cloud.stack.destroy());
    expect(r.steps).toEqual([]);
    const left = await inventory(cloud);
    expect(left.services).toEqual(made.services);
    expect(left.vpcs).toHaveLength(made.vpcs.length + 1);
  });
});
