/**
 * A refresh that finds drift records the inputs so that Pulumi shows exactly the drift (issue
 * 40, item 11): the engine shows a dynamic resource's refresh as its old inputs against the new
 * (framework/refreshedInputs.ts), so the inputs a refresh returns are the old ones with what
 * drifted replaced: a property the program never set is not added unless it drifted, nothing
 * the program set is dropped (secrets, `adoptId`, `timeouts` included), and the next `up`
 * puts the drift back, or keeps it under `ignoreChanges`. Under the real CLI with
 * `CLOUDDB_ENGINE=cli` too; tests/cli/refreshDrift.test.ts reads what `pulumi refresh` prints.
 */
import * as pulumi from "@pulumi/pulumi";
import * as clouddb from "pulumi-clouddb";
import { expectNoErrors } from "../../harness";
import { ops, startCloud, writes, type Cloud } from "../../harness/cloud";

/** The keys whose value differs between two sets of inputs, as the engine's display compares them (internal `__` keys hidden). */
function differing(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => !k.startsWith("__"));
  return keys.filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])).sort();
}

describe("the inputs a refresh records", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterEach(async () => {
    expectNoErrors(await cloud.stack.destroy());
  });
  afterAll(async () => {
    await cloud.close();
  });

  const program = () =>
    void new clouddb.Service("db", {
      name: "drifting",
      environment: "DEV",
      connectionPooler: true,
      password: pulumi.secret("a-password-of-mine"),
      timeouts: { update: "5m" },
    });

  it("differ from the old ones in the drifted property alone; the next up puts it back", async () => {
    expectNoErrors(await cloud.stack.up(program));
    const before = cloud.stack.resource("db").inputs;
    const id = cloud.stack.resource("db").id;
    await cloud.api.perform("setServiceEnvironment", { service: id, body: { environment: "PROD" } });
    const r = expectNoErrors(await cloud.stack.refresh());
    expect(ops(r)).toEqual({ db: "refresh-update" });
    const after = cloud.stack.resource("db").inputs;
    expect(differing(before, after)).toEqual(["environment"]);
    expect(after.environment).toBe("PROD");
    expect(after.password).toBe("a-password-of-mine"); // kept (the engine marks it secret again: tests/cli/refreshDrift.test.ts)
    await cloud.clearRequests();
    expect(ops(expectNoErrors(await cloud.stack.up(program)))).toEqual({ db: "update" });
    expect(writes(await cloud.requests()).map((w) => w.path)).toEqual([
      `/public/api/v1/projects/${cloud.emulator.projectId}/services/${id}/setEnvironment`,
    ]);
  });

  it("add a property the program never set only when it drifted; one that did not drift is not added", async () => {
    const unset = () => void new clouddb.Service("db", { name: "drifting-unset" });
    expectNoErrors(await cloud.stack.up(unset));
    const before = cloud.stack.resource("db").inputs;
    const id = cloud.stack.resource("db").id;
    await cloud.api.perform("enableServicePooler", { service: id });
    expectNoErrors(await cloud.stack.refresh());
    expect(differing(before, cloud.stack.resource("db").inputs)).toEqual(["connectionPooler"]);
  });

  it("keep adoptId and the name made up for the resource", async () => {
    const made = await cloud.api.perform("createService", { body: { name: "adopted-drift" } });
    await cloud.api.waitForService(made.service_id, { until: ["READY"], timeoutMs: 30_000 });
    const programs = () => {
      new clouddb.Service("adopted", { adoptId: made.service_id });
      new clouddb.Vpc("net", { cidr: "10.91.0.0/16", regionCode: "us-east-1" });
    };
    expectNoErrors(await cloud.stack.up(programs));
    const before = Object.fromEntries(cloud.stack.resources().map((x) => [x.name, x.inputs]));
    await cloud.api.perform("enableServicePooler", { service: made.service_id });
    await cloud.api.perform("renameVpc", { vpc: cloud.stack.resource("net").id, body: { name: "renamed-by-hand" } });
    expectNoErrors(await cloud.stack.refresh());
    const after = Object.fromEntries(cloud.stack.resources().map((x) => [x.name, x.inputs]));
    expect(differing(before.adopted, after.adopted)).toEqual(["connectionPooler"]);
    expect(differing(before.net, after.net)).toEqual(["name"]);
    // The name is still the resource's own (framework/autonaming.ts): a lost create's answer is recovered by it.
    expect([after.net.__autonamed, after.adopted.adoptId]).toEqual([true, made.service_id]);
    await cloud.api.perform("deleteService", { service: made.service_id });
  });
});
