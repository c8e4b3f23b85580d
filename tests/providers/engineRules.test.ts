/**
 * What the providers do under the rules of Pulumi's engine that our first harness skipped
 * (harness/README.md): refresh shown through the provider's Diff, init errors cleared
 * by a refresh, check failures printed with their values, `Resource.get` of a missing id, an
 * engine that dies while the plugin finishes a create. Each case failed before its fix.
 */
import * as clouddb from "pulumi-clouddb";
import { expectNoErrors, printed, until } from "../../harness";
import { ops, startCloud, type Cloud, journalEntries } from "../../harness/cloud";

describe("refresh", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.close();
  });

  // Every optional input set, so that a refresh must give back all of them.
  const everything = () => {
    const timeouts = { create: "10m", update: "10m", delete: "10m" };
    const net = new clouddb.Vpc("net", { name: "net", cidr: "10.20.0.0/16", regionCode: "us-east-1", timeouts });
    const db = new clouddb.Service("db", {
      name: "refreshed",
      serviceType: "TIMESERIES",
      regionCode: "us-east-1",
      cpuMillis: 1000,
      memoryGbs: 4,
      haReplicas: { replicaCount: 1, syncReplicaCount: 0 },
      environment: "PROD",
      connectionPooler: true,
      vpcId: net.vpcId,
      password: "a-long-enough-password",
      paused: false,
      timeouts,
    });
    new clouddb.VpcPeering("peer", {
      vpcId: net.vpcId,
      peerAccountId: "123456789012",
      peerRegionCode: "us-east-1",
      peerVpcId: "vpc-1",
      timeouts,
    });
    new clouddb.ReadReplicaSet("rs", {
      serviceId: db.serviceId,
      name: "rs",
      nodes: 2,
      cpuMillis: 1000,
      memoryGbs: 4,
      environment: "PROD",
      connectionPooler: true,
      timeouts,
    });
  };

  it("shows no change after the refresh that found drift, for every resource type", async () => {
    expectNoErrors(await cloud.stack.up(everything));
    expect(ops(expectNoErrors(await cloud.stack.refresh()))).toEqual({ net: "same", db: "same", peer: "same", rs: "same" });

    const net = cloud.stack.resource("net").id;
    const db = cloud.stack.resource("db").id;
    const rs = cloud.stack.resource("rs").id;
    await cloud.api.perform("renameVpc", { vpc: net, body: { name: "renamed-out-of-band" } });
    await cloud.api.perform("setServiceEnvironment", { service: db, body: { environment: "DEV" } });
    await cloud.api.perform("disableReplicaSetPooler", { service: db, replicaSet: rs });
    const drifted = expectNoErrors(await cloud.stack.refresh());
    expect(ops(drifted)).toEqual({ net: "refresh-update", db: "refresh-update", peer: "same", rs: "refresh-update" });

    // Nothing changed since: a refresh shows nothing, every time.
    for (let i = 0; i < 2; i++) {
      expect(ops(expectNoErrors(await cloud.stack.refresh()))).toEqual({ net: "same", db: "same", peer: "same", rs: "same" });
    }
    // The program still wants what it said: the next up repairs the drift.
    expect(ops(expectNoErrors(await cloud.stack.up(everything)))).toEqual({ net: "update", db: "update", peer: "same", rs: "update" });
    expect(ops(expectNoErrors(await cloud.stack.refresh()))).toEqual({ net: "same", db: "same", peer: "same", rs: "same" });
    expectNoErrors(await cloud.stack.destroy());
  });
});

describe("an up after a refresh resumes or reports what is not ready", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    // A create takes 2 s QUEUED + 5 s CONFIGURING at this scale: 14 s, long enough to
    // refresh while it is still under way after the create's 3 s timeout. The timeout leaves
    // time to send the create's request however loaded the machine (no request of a create is
    // sent past its deadline: a shorter one could make nothing, and there would be nothing to resume).
    cloud = await startCloud({ clockScale: 2 });
  });
  afterAll(async () => {
    await cloud.close();
  });

  // About 18 s of the test is the emulator's clock (the create, then the delete): a longer jest timeout leaves room for a loaded machine.
  it("Service: a create that timed out is resumed although a refresh cleared Pulumi's record of it", async () => {
    const program = () => void new clouddb.Service("db", { name: "slow-to-start", timeouts: { create: "3s" } });
    const first = await cloud.stack.up(program);
    expect(first.errors).toHaveLength(1);
    const id = cloud.stack.resource("db").id;
    expectNoErrors(await cloud.stack.refresh());
    expect(cloud.stack.resource("db").initErrors).toEqual([]);
    expect(["QUEUED", "CONFIGURING"]).toContain(cloud.stack.resource("db").outputs.status);

    const resumed = expectNoErrors(await cloud.stack.up(program));
    expect(ops(resumed)).toEqual({ db: "update" });
    expect(cloud.stack.resource("db")).toMatchObject({ id, outputs: { status: "READY" } });
    expect((await cloud.api.perform("listServices")).items.filter((s) => s.name === "slow-to-start")).toHaveLength(1);
    expectNoErrors(await cloud.stack.destroy());
  }, 120_000);
});

describe("an up after a refresh reports what failed", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud({ clockScale: 0.3 });
  });
  afterAll(async () => {
    await cloud.close();
  });

  it("VpcPeering: a failed peering is reported again after a refresh", async () => {
    const program = () => {
      const net = new clouddb.Vpc("net", { name: "net", cidr: "10.30.0.0/16", regionCode: "us-east-1" });
      new clouddb.VpcPeering("peer", { vpcId: net.vpcId, peerAccountId: "invalid-peer", peerRegionCode: "us-east-1", peerVpcId: "vpc-2" });
    };
    expect((await cloud.stack.up(program)).errors).toHaveLength(1);
    expectNoErrors(await cloud.stack.refresh());
    const again = await cloud.stack.up(program);
    expect(again.errors).toEqual([
      expect.objectContaining({ name: "peer", message: expect.stringContaining("failed: peer account invalid-peer could not be reached") }),
    ]);
    cloud.stack.resources(); // still in state
    expect(cloud.stack.resource("peer").outputs.status).toBe("failed");
    expectNoErrors(await cloud.stack.destroy());
  });

  it("ReadReplicaSet: a set in error is reported again after a refresh", async () => {
    const program = () => {
      const db = new clouddb.Service("db", { name: "with-broken-set" });
      new clouddb.ReadReplicaSet("rs", { serviceId: db.serviceId, name: "rs", nodes: 1, cpuMillis: 500, memoryGbs: 2 });
    };
    expectNoErrors(await cloud.stack.up(program));
    const db = cloud.stack.resource("db").id;
    const rs = cloud.stack.resource("rs").id;
    expect((await cloud.control("POST", `/replica-sets/${rs}/error`)).status).toBe(204);
    expect(ops(expectNoErrors(await cloud.stack.refresh())).rs).toBe("refresh-update");
    const again = await cloud.stack.up(program);
    expect(again.errors).toEqual([expect.objectContaining({ name: "rs", message: expect.stringContaining("is in status error") })]);
    await cloud.api.perform("deleteReplicaSet", { service: db, replicaSet: rs });
    await cloud.stack.refresh();
    expectNoErrors(await cloud.stack.destroy());
  });
});

describe("check failures", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.close();
  });

  it("never let the engine print a password", async () => {
    const tooShort = "s3cr3t!"; // 7 characters: one too few
    const r = await cloud.stack.up(() => void new clouddb.Service("db", { name: "secretive", password: tooShort }));
    expect(r.checkFailures).toEqual([{ name: "db", property: "", reason: "password is [secret]: expected at least 8 characters" }]);
    expect(printed(r)).toContain("pulumi-nodejs:dynamic/clouddb:Service resource 'db' has a problem: password is [secret]");
    expect(printed(r)).not.toContain(tooShort);
    expect((await cloud.api.perform("listServices")).items).toEqual([]);
  });
});

describe("Resource.get", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.close();
  });

  it.each([
    ["Service", () => clouddb.Service.get("found", "zzzzzzzzzz")],
    ["Vpc", () => clouddb.Vpc.get("found", "424242")],
  ])("%s.get of an id that does not exist fails, naming the id", async (kind, lookup) => {
    const r = await cloud.stack.up(() => ({ id: lookup().id }));
    // Seen once under the real CLI in CI (Node 24): no error at all, the shape of a registration that never reached the engine
    // (harness/cli/programRuntime.ts). What the run did, should it come back.
    if (r.errors.length === 0)
      throw new Error(
        `no error from ${kind}.get: ${JSON.stringify({ steps: r.steps, outputs: r.outputs, checkFailures: r.checkFailures, diagnostics: r.diagnostics }).slice(0, 8_000)}`,
      );
    expect(r.errors).toEqual([
      expect.objectContaining({
        name: "found",
        message: expect.stringMatching(new RegExp(`No ${kind} with id .*${kind}\\.get looks up an existing`)),
      }),
    ]);
    expect(cloud.stack.externalResources()).toEqual([]);
  });

  it("while a refresh of a resource deleted out of band still reports it gone", async () => {
    expectNoErrors(await cloud.stack.up(() => void new clouddb.Vpc("net", { name: "net", cidr: "10.40.0.0/16", regionCode: "us-east-1" })));
    await cloud.api.perform("deleteVpc", { vpc: cloud.stack.resource("net").id });
    expect(ops(expectNoErrors(await cloud.stack.refresh()))).toEqual({ net: "refresh-delete" });
    expect(cloud.stack.resources()).toEqual([]);
  });
});

describe("an engine that dies while the plugin finishes a service create", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    // Its subject is the plugin process, orphaned: it keeps the real one.
    cloud = await startCloud({ clockScale: 0.3, host: "plugin" });
  });
  afterAll(async () => {
    await cloud.close();
  });

  it("makes no second service on the next up", async () => {
    const program = () => ({ id: new clouddb.Service("db", { name: "orphaned-answer" }).serviceId });
    const dies = new AbortController();
    const running = cloud.stack.up(program, { engineDies: dies.signal });
    const made = await until("the service", async () =>
      (await cloud.api.perform("listServices")).items.find((s) => s.name === "orphaned-answer"),
    );
    dies.abort();
    expect((await running).interrupted).toBe(true);
    expect(cloud.stack.pendingOperations()).toHaveLength(1);
    await cloud.stack.orphansSettled(); // the plugin, on its own, waited for READY and answered no one

    await cloud.stack.cancel(); // the lock the dead CLI left
    const next = expectNoErrors(await cloud.stack.up(program));
    expect(printed(next)).toContain("1 pending operations");
    expect(ops(next)).toEqual({ db: "create" });
    expect((await cloud.api.perform("listServices")).items.filter((s) => s.name === "orphaned-answer").map((s) => s.service_id)).toEqual([
      made.service_id,
    ]);
    expect(cloud.stack.resource("db").id).toBe(made.service_id);
    expectNoErrors(await cloud.stack.refresh({ clearPendingCreates: true }));
    expectNoErrors(await cloud.stack.destroy());
    expect(journalEntries(cloud.journalDir)).toEqual([]);
  });
});
