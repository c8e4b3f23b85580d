/**
 * A gateway between the client and the API, played on demand by the control path: it
 * holds requests, answers 504 with or without passing them on, stamps `Date` with its own
 * clock, answers a list one answer behind or with every item twice, lets a body trickle
 * in, redirects, and serves a firewall's own HTML page. Over real HTTP, with the log.
 */
import { statSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startEmulator } from "../../emulator";
import { useEmulator } from "./support/emulator-api";
import { rawRequest } from "./support/raw-http";

const api = useEmulator();
const full = (p: string) => `/public/api/v1${p}`;

async function log(): Promise<any[]> {
  return (await api.control("GET", "/requests")).body;
}

describe("a gateway that holds a request and answers 504", () => {
  it("without passing it on: after the hold, 504 and nothing made", async () => {
    await api.control("POST", "/faults", { method: "POST", path: "/vpcs$", status: 504, holdMs: 300 });
    const started = Date.now();
    const seen = await api.call("POST", api.p("/vpcs"), { body: { name: "held", cidr: "10.0.0.0/16", region_code: "us-east-1" } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect([seen.status, seen.body.code]).toEqual([504, "UNAVAILABLE"]);
    expect((await api.call("GET", api.p("/vpcs"))).body).toEqual([]);
  });

  it("passing it on: after the hold, 504, and the VPC exists", async () => {
    await api.control("POST", "/faults", { method: "POST", path: "/vpcs$", status: 504, after: true, holdMs: 200 });
    const seen = await api.call("POST", api.p("/vpcs"), { body: { name: "held", cidr: "10.0.0.0/16", region_code: "us-east-1" } });
    expect(seen.status).toBe(504);
    expect((await api.call("GET", api.p("/vpcs"))).body.map((v: { name: string }) => v.name)).toEqual(["held"]);
    expect((await log())[0]).toMatchObject({ status: 504, outcome: "replaced", carriedOut: true, realStatus: 201 });
  });
});

describe("a gateway's own clock in Date", () => {
  it("shifts the Date header of API answers only; created stays in the server's clock", async () => {
    expect((await api.control("POST", "/clock", { dateOffsetMs: 8_000 })).status).toBe(204);
    const created = await api.call("POST", api.p("/services"), { body: { name: "skewed" } });
    const date = Date.parse(created.headers.get("date")!);
    expect(date - Date.parse(created.body.created)).toBeGreaterThan(6_000);
    expect((await api.control("GET", "/clock")).body.dateOffsetMs).toBe(8_000);
    expect((await api.control("POST", "/reset")).status).toBe(204);
    expect((await api.control("GET", "/clock")).body.dateOffsetMs).toBe(0);
  });
});

describe("lists that lag or repeat", () => {
  it("stale: answers the list as it was the time before, one answer behind", async () => {
    expect((await api.call("GET", api.p("/vpcs"))).body).toEqual([]);
    await api.createVpc({ name: "new" });
    await api.control("POST", "/faults", { method: "GET", path: "/vpcs$", stale: true, count: 2 });
    expect((await api.call("GET", api.p("/vpcs"))).body).toEqual([]);
    expect((await api.call("GET", api.p("/vpcs"))).body.map((v: { name: string }) => v.name)).toEqual(["new"]);
    expect((await log()).filter((e) => e.outcome === "stale")).toHaveLength(2);
  });

  it("repeat: shows every item twice", async () => {
    const vpc = await api.createVpc({ name: "twice" });
    await api.control("POST", "/faults", { method: "GET", path: "/vpcs$", repeat: true });
    expect((await api.call("GET", api.p("/vpcs"))).body.map((v: { id: string }) => v.id)).toEqual([vpc.id, vpc.id]);
    expect((await api.call("GET", api.p("/vpcs"))).body.map((v: { id: string }) => v.id)).toEqual([vpc.id]);
  });
});

describe("a body that trickles in", () => {
  it("sends the whole head, then one body byte every trickleMs", async () => {
    const s = await api.createService({ name: "slow" });
    await api.control("POST", "/faults", { method: "GET", path: "/services/", trickleMs: 20 });
    const started = Date.now();
    const raw = await rawRequest(api.emu.url, "GET", full(api.p(`/services/${s.service_id}`)), api.emu.pat);
    const length = Number(raw.headers["content-length"]);
    expect(raw.body.length).toBe(length);
    expect(Date.now() - started).toBeGreaterThanOrEqual(length * 15);
    expect(JSON.parse(raw.body.toString()).service_id).toBe(s.service_id);
    expect((await log()).at(-1)).toMatchObject({ status: 200, outcome: "trickled", carriedOut: true });
  }, 30_000);
});

describe("redirects and firewall pages", () => {
  it("redirect: answers the status with Location, carries nothing out", async () => {
    await api.control("POST", "/faults", {
      method: "POST",
      path: "/vpcs$",
      redirect: 307,
      location: "https://elsewhere.example/public/api/v1",
    });
    const res = await fetch(`${api.emu.baseUrl}${api.p("/vpcs")}`, {
      method: "POST",
      redirect: "manual",
      headers: { authorization: `Bearer ${api.emu.pat}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "n", cidr: "10.0.0.0/16", region_code: "us-east-1" }),
    });
    expect(res.status).toBe(307);
    expect(res.headers.get("location")).toBe("https://elsewhere.example/public/api/v1");
    expect((await api.call("GET", api.p("/vpcs"))).body).toEqual([]);
    expect((await log())[0]).toMatchObject({ status: 307, outcome: "redirected", carriedOut: false });
  });

  it("waf: answers 200 with an HTML page, carried out only with after", async () => {
    await api.control("POST", "/faults", { method: "POST", path: "/vpcs$", waf: true });
    const blocked = await api.call("POST", api.p("/vpcs"), { body: { name: "a", cidr: "10.0.0.0/16", region_code: "us-east-1" } });
    expect(blocked.status).toBe(200);
    expect(blocked.headers.get("content-type")).toMatch(/^text\/html/);
    expect(blocked.text).toContain("<title>Request blocked</title>");
    expect((await api.call("GET", api.p("/vpcs"))).body).toEqual([]);
    await api.control("POST", "/faults", { method: "POST", path: "/vpcs$", waf: true, after: true });
    expect((await api.call("POST", api.p("/vpcs"), { body: { name: "b", cidr: "10.0.0.0/16", region_code: "us-east-1" } })).status).toBe(
      200,
    );
    expect((await api.call("GET", api.p("/vpcs"))).body.map((v: { name: string }) => v.name)).toEqual(["b"]);
  });

  it("sends Retry-After as an HTTP date when asked", async () => {
    await api.control("POST", "/faults", { path: "/vpcs$", status: 503, retryAfter: 30, retryAfterDate: true });
    const res = await api.call("GET", api.p("/vpcs"));
    expect(res.status).toBe(503);
    const after = Date.parse(res.headers.get("retry-after")!) - Date.parse(res.headers.get("date")!);
    expect(after).toBe(30_000);
  });

  it("refuses rules that mix modes or give a mode a status", async () => {
    for (const bad of [
      { stale: true, repeat: true },
      { waf: true, status: 503 },
      { redirect: 200 },
      { location: "x" },
      { trickleMs: 10, after: false },
      { redirect: 307, after: true },
      { retryAfterDate: true, drop: true },
    ]) {
      const res = await api.control("POST", "/faults", { path: ".*", ...bad });
      expect([JSON.stringify(bad), res.status]).toEqual([JSON.stringify(bad), 400]);
    }
  });
});

describe("the state file", () => {
  it("is readable by its owner only (it holds passwords)", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "clouddb-emu-mode-"));
    const previous = process.umask(0o022);
    try {
      const emu = await startEmulator({ port: 0, dataDir });
      await emu.close();
      expect(statSync(path.join(dataDir, "clouddb-emulator-state.json")).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(previous);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
