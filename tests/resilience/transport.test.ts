/**
 * The transport neither waits forever nor not at all (case 5): a 429 whose Retry-After is
 * past Node's timer limit fails its own request and holds no other (and floods nothing); a
 * 503's Retry-After is honoured, and one given as an HTTP date is read in the server's own
 * clock; a body that trickles in one byte at a time is cut off at the request's deadline;
 * timeouts out of range are refused at `check`, before anything is sent; a resource's
 * `timeouts` bound every retry and wait of its operation; and TLS that fails (plain HTTP on
 * the port, a self-signed certificate) fails at once, never retried.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as https from "https";
import type { AddressInfo } from "net";
import * as os from "os";
import * as path from "path";
import * as clouddb from "pulumi-clouddb";
import { expectNoErrors, TestStack } from "../../harness";
import { ops, stackConfig, startCloud, writes, type Cloud } from "../../harness/cloud";
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

/** Runs `op`, killing the plugin when it outlives `limitMs`; returns what it gave and how long it took. */
async function timed<T>(cloud: Cloud, op: () => Promise<T>, limitMs = 20_000): Promise<{ result: T; ms: number }> {
  const started = Date.now();
  const stuck = setTimeout(() => void cloud.stack.plugin.kill(), limitMs);
  const result = await op().finally(() => clearTimeout(stuck));
  return { result, ms: Date.now() - started };
}

describe("the user's timeouts bound every wait", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterEach(async () => {
    await cloud.control("DELETE", "/faults");
  });
  afterAll(async () => {
    await cloud.close();
  });

  const timeouts = { create: "3s", update: "3s", delete: "3s" };
  const net = (name: string) => () => void new clouddb.Vpc("net", { name, cidr: "10.60.0.0/16", regionCode: "us-east-1", timeouts });

  it("429s and 503s that never end: create, update and delete each fail within their 3 s, not the client's two minutes of retries", async () => {
    expectNoErrors(await cloud.stack.up(net("bounded")));

    await cloud.controls.fault({ method: "POST", path: "/rename$", status: 503, count: 10_000 });
    const updated = await timed(cloud, () => cloud.stack.up(net("renamed")));
    expect(updated.result.errors).toHaveLength(1);
    expect(updated.ms).toBeLessThan(10_000);
    await cloud.control("DELETE", "/faults");

    await cloud.controls.fault({ method: "DELETE", path: "/vpcs/", status: 503, count: 10_000 });
    const deleted = await timed(cloud, () => cloud.stack.destroy());
    expect(deleted.result.errors).toHaveLength(1);
    expect(deleted.ms).toBeLessThan(10_000);
    await cloud.control("DELETE", "/faults");
    expectNoErrors(await cloud.stack.destroy());

    // Last: after 429s that never end, the key's schedule spaces requests as slowly as it may
    // (a request every few seconds), and rightly so; a 3 s create after them would measure the
    // machine's load.
    // A create is never sent again after a 503 (it may follow one carried out): a 429 keeps it retrying.
    await cloud.controls.fault({ method: "POST", path: "/vpcs$", status: 429, retryAfter: 1, count: 10_000 });
    const created = await timed(cloud, () => cloud.stack.up(net("bounded")));
    expect(created.result.errors).toHaveLength(1);
    expect(created.ms).toBeLessThan(10_000);
    expect(cloud.stack.resources()).toEqual([]);
  }, 90_000);
});

describe("TLS that fails", () => {
  let cloud: Cloud;
  const stacks: TestStack[] = [];
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    for (const s of stacks) await s.close();
    await cloud.close();
  });

  /** An `up` of a VPC against `apiUrl`, with how long it took (killed past 20 s). */
  async function upAgainst(apiUrl: string): Promise<{ message: string; ms: number }> {
    const stack = await TestStack.create({
      config: { ...stackConfig(cloud.emulator), "clouddb:apiUrl": apiUrl },
      secretKeys: ["clouddb:apiKey"],
    });
    stacks.push(stack);
    const started = Date.now();
    const stuck = setTimeout(() => void stack.plugin.kill(), 20_000);
    const r = await stack
      .up(() => void new clouddb.Vpc("net", { cidr: "10.61.0.0/16", regionCode: "us-east-1" }))
      .finally(() => clearTimeout(stuck));
    expect(r.errors).toHaveLength(1);
    return { message: r.errors[0].message, ms: Date.now() - started };
  }

  it("plain HTTP where apiUrl says https: fails at once, naming TLS and what to check, and is not retried", async () => {
    const { message, ms } = await upAgainst(cloud.emulator.baseUrl.replace(/^http:/, "https:"));
    expect(ms).toBeLessThan(10_000);
    expect(message).toContain("TLS with the API at https://");
    expect(message).toContain("does not answer in TLS");
    expect(message).toContain("clouddb:apiUrl / CLOUDDB_API_URL");
  });

  it("a self-signed certificate: fails at once, saying the certificate is not trusted here", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-tls-"));
    const [key, cert] = [path.join(dir, "key.pem"), path.join(dir, "cert.pem")];
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"].concat([
        "-keyout",
        key,
        "-out",
        cert,
        "-days",
        "2",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1",
      ]),
      { stdio: "ignore" },
    );
    const server = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (_req, res) => res.end("{}"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const { message, ms } = await upAgainst(`https://127.0.0.1:${port}/public/api/v1`);
      expect(ms).toBeLessThan(10_000);
      expect(message).toContain("DEPTH_ZERO_SELF_SIGNED_CERT");
      expect(message).toContain("does not trust the server's certificate");
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
