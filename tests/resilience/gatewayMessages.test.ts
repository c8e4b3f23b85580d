/**
 * Messages say what happened (case 7, and what was also seen): a firewall's own 200 HTML page
 * or a 307 on a create is not "the API accepted it" (and a page is not proof that nothing was made: a list read the
 * bound after it that shows nothing is), a 308 on a read names the redirect and
 * where it points (not the API's version), and the transition times learned for the poll
 * schedule follow the median of the last runs, not one slow run.
 */
import * as fs from "fs";
import * as path from "path";
import * as clouddb from "pulumi-clouddb";
import { expectNoErrors } from "../../harness";
import { journalEntries, startCloud, writes, type Cloud } from "../../harness/cloud";

describe("answers that are not the API's", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterEach(async () => {
    await cloud.control("DELETE", "/faults");
    expectNoErrors(await cloud.stack.destroy());
  });
  afterAll(async () => {
    await cloud.close();
  });

  const vpc = (name?: string) => () =>
    void new clouddb.Vpc("net", { ...(name ? { name } : {}), cidr: "10.95.0.0/16", regionCode: "us-east-1" });

  it("a firewall's 200 page on a create: named for what it is, not sent again through it once a list shows it made none, made by the next up", async () => {
    cloud.stack.setConfig("clouddb:listLag", "1s");
    try {
      await cloud.controls.fault({ method: "POST", path: "/vpcs$", waf: true });
      const r = await cloud.stack.up(vpc("walled"));
      expect(r.errors).toHaveLength(1);
      const message = r.errors[0].message;
      expect(message).toContain('answered 200 with an HTML page titled "Request blocked"');
      expect(message).not.toContain("the API accepted it");
      // Whether the firewall passed it on is told by a list read the bound after it: none, so it made none.
      expect(message).toContain("A list read 1 s (listLag) after the request ended shows no VPC it made: it made none");
      expect(message).toContain("the create was not sent again through what answered so");
      expect((await cloud.api.perform("listVpcs")).items).toEqual([]);
      expect(journalEntries(cloud.journalDir)).toEqual([]);
      await cloud.control("DELETE", "/faults");
      // Nothing for a person to settle: the next up creates it.
      expectNoErrors(await cloud.stack.up(vpc("walled")));
      expect((await cloud.api.perform("listVpcs")).items.map((v) => v.id)).toEqual([cloud.stack.resource("net").id]);
    } finally {
      cloud.stack.setConfig("clouddb:listLag", "30s");
    }
  });

  it("a firewall's 200 page after the create got through: the VPC of its own name is taken over", async () => {
    await cloud.controls.fault({ method: "POST", path: "/vpcs$", waf: true, after: true });
    expectNoErrors(await cloud.stack.up(vpc()));
    expect((await cloud.api.perform("listVpcs")).items.map((v) => v.id)).toEqual([cloud.stack.resource("net").id]);
  });

  it("a 307 on a create: names the redirect and where it points, says nothing was made there, and sends nothing more", async () => {
    await cloud.controls.fault({
      method: "POST",
      path: "/vpcs$",
      redirect: 307,
      location: "https://eu.api.example/public/api/v1/projects/p/vpcs",
    });
    await cloud.clearRequests();
    const r = await cloud.stack.up(vpc("redirected"));
    expect(r.errors).toHaveLength(1);
    const message = r.errors[0].message;
    expect(message).toContain("answered 307 (a redirect) to https://eu.api.example/public/api/v1/projects/p/vpcs");
    expect(message).toContain("not carried out");
    expect(message).not.toContain("the API accepted it");
    expect(writes(await cloud.requests()).map((x) => x.status)).toEqual([307]);
    expect((await cloud.api.perform("listVpcs")).items).toEqual([]);
    expect(journalEntries(cloud.journalDir)).toEqual([]);
  });

  it("a 308 on a read: names the redirect and where it points, not the API's version", async () => {
    expectNoErrors(await cloud.stack.up(vpc("moved")));
    await cloud.controls.fault({
      method: "GET",
      path: "/vpcs/",
      redirect: 308,
      location: "https://api.example.com/public/api/v2/projects/p/vpcs/1",
    });
    const r = await cloud.stack.refresh();
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0].message).toContain("answered 308 (a redirect) to https://api.example.com/public/api/v2/projects/p/vpcs/1");
    expect(r.errors[0].message).not.toContain("newer or older");
  });
});

describe("transition times learned for the poll schedule", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud({ clockScale: 0.05 });
  });
  afterAll(async () => {
    await cloud.close();
  });

  /** The prior the next run starts from: the median of what is saved (one value, or the last measurements). */
  function prior(): number {
    const file = fs.readdirSync(cloud.journalDir).find((f) => f.startsWith("durations-") && f.endsWith(".json"))!;
    expect(fs.statSync(path.join(cloud.journalDir, file)).mode & 0o777).toBe(0o600);
    const all = JSON.parse(fs.readFileSync(path.join(cloud.journalDir, file), "utf8")) as Record<string, number | number[]>;
    const saved = Object.entries(all).find(([key]) => key.startsWith("service:QUEUED->"))![1];
    if (!Array.isArray(saved)) return saved;
    const sorted = [...saved].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }

  const run = async (name: string, queuedPolls = 2) => {
    // Every run's service shows QUEUED to a few polls at least: at this clock scale the real
    // QUEUED is over within 0.1 s, which a loaded machine's first poll may come after (and then
    // no time from QUEUED is learned at all).
    await cloud.controls.rewrite({ method: "GET", path: "/services", field: "status", value: "QUEUED", count: queuedPolls });
    expectNoErrors(await cloud.stack.up(() => void new clouddb.Service("db", { name })));
    expectNoErrors(await cloud.stack.destroy());
  };

  it("follow the median of the last runs: one slow run does not become the prior", async () => {
    // Four usual runs (five measurements are kept): one of them slow too, as on a loaded machine, moves no median.
    for (const n of [1, 2, 3, 4]) await run(`usual-${n}`);
    const usual = prior();
    // One slow run: the service shows QUEUED for many more polls than usual.
    await run("slow", 25);
    expect(prior()).toBeLessThan(usual * 1.5);
  });
});
