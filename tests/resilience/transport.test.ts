/**
 * The transport neither waits forever nor not at all (case 5): a 429 whose Retry-After is
 * past Node's timer limit fails its own request and holds no other (and floods nothing); a
 * 503's Retry-After is honoured, and one given as an HTTP date is read in the server's own
 * clock; a body that trickles in one byte at a time is cut off at the request's deadline;
 * and timeouts out of range are refused at `check`, before anything is sent.
 */
import * as clouddb from "pulumi-clouddb";
import { expectNoErrors } from "../../harness";
import { ops, startCloud, writes, type Cloud } from "../../harness/cloud";
import { retriesAfter } from "./support/log";

describe("Retry-After and deadlines", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud({ config: { "clouddb:requestTimeout": "2s" } });
  });
  afterEach(async () => {
    await cloud.control("DELETE", "/faults");
    await cloud.controls.clock({ offsetMs: 0 });
    await cloud.clearRequests();
  });
  afterAll(async () => {
    await cloud.close();
  });

  it("a 429 asking to wait 35 days fails its own create at once and holds no other request (no TimeoutOverflowWarning)", async () => {
    await cloud.controls.fault({ method: "POST", path: "/vpcs$", status: 429, retryAfter: 3_000_000 });
    const program = () => {
      new clouddb.Vpc("a", { name: "rate-a", cidr: "10.90.0.0/16", regionCode: "us-east-1" });
      new clouddb.Vpc("b", { name: "rate-b", cidr: "10.91.0.0/16", regionCode: "us-east-1" });
    };
    const started = Date.now();
    const stuck = setTimeout(() => void cloud.stack.plugin.kill(), 20_000);
    const r = await cloud.stack.up(program).finally(() => clearTimeout(stuck));
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0].message).toContain("3000000 s (Retry-After)");
    expect(cloud.stack.resources()).toHaveLength(1);
    expect(cloud.stack.pluginStderr()).not.toContain("TimeoutOverflowWarning");
    expectNoErrors(await cloud.stack.destroy());
  });

  describe("on a refresh", () => {
    beforeAll(async () => {
      expectNoErrors(await cloud.stack.up(() => void new clouddb.Service("db", { name: "patient" })));
    });
    afterAll(async () => {
      expectNoErrors(await cloud.stack.destroy());
    });

    const read = "/services/[a-z0-9]{10}$";

    it("honours a 503's Retry-After", async () => {
      await cloud.controls.fault({ method: "GET", path: read, status: 503, retryAfter: 2 });
      expectNoErrors(await cloud.stack.refresh());
      const gaps = retriesAfter(await cloud.requests(), 503);
      expect(gaps).toHaveLength(1);
      expect(gaps[0].gapMs).toBeGreaterThanOrEqual(2_000);
    });

    it.each([
      ["an hour behind ours", -3_600_000],
      ["an hour ahead of ours", 3_600_000],
    ])("honours a Retry-After given as an HTTP date, the server's clock %s", async (_, offsetMs) => {
      await cloud.controls.clock({ offsetMs });
      await cloud.controls.fault({ method: "GET", path: read, status: 429, retryAfter: 2, retryAfterDate: true });
      expectNoErrors(await cloud.stack.refresh());
      const gaps = retriesAfter(await cloud.requests(), 429);
      expect(gaps).toHaveLength(1);
      expect(gaps[0].gapMs).toBeGreaterThanOrEqual(2_000);
      expect(gaps[0].gapMs).toBeLessThan(10_000);
    });

    it("cuts off an answer that trickles in a byte at a time at the request's deadline, and reads it again", async () => {
      await cloud.controls.fault({ method: "GET", path: read, trickleMs: 100 });
      const started = Date.now();
      const stuck = setTimeout(() => void cloud.stack.plugin.kill(), 30_000);
      const r = await cloud.stack.refresh().finally(() => clearTimeout(stuck));
      expectNoErrors(r);
      expect(Date.now() - started).toBeLessThan(15_000);
      const reads = (await cloud.requests()).filter((x) => x.method === "GET" && new RegExp(read).test(x.path));
      expect(reads.map((x) => x.outcome)).toEqual(["trickled", undefined]);
    });
  });
});

describe("timeouts out of range", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.close();
  });

  it.each([
    ['"600h" (25 days, past Node\'s timer limit)', "600h"],
    ["1e9 seconds", 1e9],
    ["a tenth of a millisecond", "0.0001"],
  ])("a create timeout of %s fails check, naming the range, and nothing is sent", async (_, create) => {
    await cloud.clearRequests();
    const r = await cloud.stack.up(() => void new clouddb.Service("db", { name: "timed", timeouts: { create } }));
    expect(r.checkFailures).toEqual([
      { name: "db", property: "timeouts.create", reason: expect.stringContaining("from 100ms to 168h (7 days)") },
    ]);
    expect(writes(await cloud.requests())).toEqual([]);
    expect(ops(r)).toEqual({});
  });

  it("a default timeout out of range in the stack config fails naming the key, and nothing is sent", async () => {
    await cloud.clearRequests();
    cloud.stack.setConfig("clouddb:createTimeout", "600h");
    try {
      const r = await cloud.stack.up(() => void new clouddb.Service("db", { name: "timed" }));
      // A configuration problem is a check failure: a preview reports it too.
      expect(r.checkFailures).toEqual([{ name: "db", property: "", reason: expect.stringMatching(/clouddb:createTimeout.*out of range/) }]);
      expect(writes(await cloud.requests())).toEqual([]);
    } finally {
      cloud.stack.setConfig("clouddb:createTimeout", "30m");
    }
  });
});
