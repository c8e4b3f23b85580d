/**
 * Mistakes that waiting cannot cure fail at once, before anything is made, saying what to
 * do: a misspelled input, a `vpcId` that does not exist or is in another region, a replica
 * set asked of a paused service.
 */
import * as clouddb from "pulumi-clouddb";
import { expectNoErrors } from "../../harness";
import { startCloud, writes, type Cloud } from "../../harness/cloud";

describe("failing fast", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.close();
  });

  it("a misspelled input fails check, naming the closest input", async () => {
    await cloud.clearRequests();
    const r = await cloud.stack.up(
      () => void new clouddb.Service("db", { name: "typo", cpuMilis: 1000, memoryGbs: 4 } as unknown as clouddb.ServiceArgs),
    );
    expect(r.checkFailures).toContainEqual({
      name: "db",
      property: "cpuMilis",
      reason: expect.stringContaining("did you mean cpuMillis?"),
    });
    expect(await cloud.requests()).toEqual([]);
  });

  it("a vpcId that does not exist fails before the service is made", async () => {
    await cloud.clearRequests();
    const r = await cloud.stack.up(() => void new clouddb.Service("db", { name: "nowhere", vpcId: "999999" }));
    expect(r.errors).toEqual([
      expect.objectContaining({ name: "db", message: expect.stringContaining("vpcId: there is no VPC 999999 in project") }),
    ]);
    expect(writes(await cloud.requests())).toEqual([]);
    expect((await cloud.api.perform("listServices")).items).toEqual([]);
  });

  it("a vpcId in another region fails before the service is made", async () => {
    expectNoErrors(await cloud.stack.up(() => void new clouddb.Vpc("eu", { name: "eu", cidr: "10.60.0.0/16", regionCode: "eu-west-1" })));
    const vpcId = cloud.stack.resource("eu").id;
    await cloud.clearRequests();
    const r = await cloud.stack.up(() => {
      new clouddb.Vpc("eu", { name: "eu", cidr: "10.60.0.0/16", regionCode: "eu-west-1" });
      new clouddb.Service("db", { name: "far-away", vpcId });
    });
    expect(r.errors).toEqual([
      expect.objectContaining({
        name: "db",
        message: expect.stringContaining(`VPC ${vpcId} is in eu-west-1, but the service is in us-east-1`),
      }),
    ]);
    expect(writes(await cloud.requests())).toEqual([]);
    expect((await cloud.api.perform("listServices")).items).toEqual([]);
    expectNoErrors(await cloud.stack.destroy());
  });

  it("a replica set of a paused service fails at once, saying to resume it", async () => {
    expectNoErrors(await cloud.stack.up(() => void new clouddb.Service("db", { name: "sleeping", paused: true })));
    await cloud.clearRequests();
    const r = await cloud.stack.up(() => {
      const db = new clouddb.Service("db", { name: "sleeping", paused: true });
      new clouddb.ReadReplicaSet("rs", { serviceId: db.serviceId, name: "rs", nodes: 1, cpuMillis: 500, memoryGbs: 2 });
    });
    expect(r.errors).toEqual([
      expect.objectContaining({
        name: "rs",
        message: expect.stringMatching(/is PAUSED: creating a read replica set needs a running service\. Resume it first/),
      }),
    ]);
    // One attempt, no retries for the 30 minutes of the create timeout.
    expect(
      writes(await cloud.requests())
        .filter((w) => w.path.endsWith("/replicaSets"))
        .map((w) => w.status),
    ).toEqual([409]);
    expect((await cloud.api.perform("listReplicaSets", { service: cloud.stack.resource("db").id })).items).toEqual([]);
    expectNoErrors(await cloud.stack.destroy());
  });
});
