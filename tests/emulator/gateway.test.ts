/**
 * A gateway between the client and the API, played on demand by the control path: it
 * holds requests, answers 504 with or without passing them on, stamps `Date` with its own
 * clock (or with the clocks of two, taking turns), answers a list one answer behind, as it
 * was some time ago, or with every item twice, lets a body trickle in, compresses it unasked,
 * redirects (before or after passing a request on), and serves its own HTML pages (a
 * firewall's, and an error page quoting the request). Over real HTTP, with the log.
 */
import { statSync, mkdtempSync, rmSync } from "node:fs";
import { gunzipSync } from "node:zlib";
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

  it("dateFlipMs: every second API answer's Date runs that much further (two gateways taking turns)", async () => {
    await api.control("POST", "/clock", { dateFlipMs: 3_600_000 });
    const dates: number[] = [];
    for (let i = 0; i < 4; i++) dates.push(Date.parse((await api.call("GET", api.p("/vpcs"))).headers.get("date")!));
    const gaps = dates.slice(1).map((d, i) => Math.round((d - dates[i]) / 3_600_000));
    expect(Math.abs(gaps[0])).toBe(1);
    expect(gaps).toEqual([gaps[0], -gaps[0], gaps[0]]);
    expect((await api.control("GET", "/clock")).body.dateFlipMs).toBe(3_600_000);
    await api.control("POST", "/reset");
    expect((await api.control("GET", "/clock")).body.dateFlipMs).toBe(0);
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

  it("lagMs: answers the list as it was that long ago, until it catches up", async () => {
    expect((await api.call("GET", api.p("/vpcs"))).body).toEqual([]);
    await api.createVpc({ name: "late" });
    // A lag of 2 s: the two reads right after the create come within it however loaded the machine.
    await api.control("POST", "/faults", { method: "GET", path: "/vpcs$", lagMs: 2_000, count: 10 });
    expect((await api.call("GET", api.p("/vpcs"))).body).toEqual([]);
    expect((await api.call("GET", api.p("/vpcs"))).body).toEqual([]);
    await new Promise((r) => setTimeout(r, 2_050));
    expect((await api.call("GET", api.p("/vpcs"))).body.map((v: { name: string }) => v.name)).toEqual(["late"]);
    expect((await log()).filter((e) => e.outcome === "lagged")).toHaveLength(3);
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

  it("redirect after: carries the request out, then answers the redirect (a 303 after the API acted)", async () => {
    await api.control("POST", "/faults", { method: "POST", path: "/vpcs$", redirect: 303, after: true, location: "/elsewhere" });
    const raw = await rawRequest(api.emu.url, "POST", full(api.p("/vpcs")), api.emu.pat, {
      name: "acted",
      cidr: "10.0.0.0/16",
      region_code: "us-east-1",
    });
    expect([raw.status, raw.headers.location]).toEqual([303, "/elsewhere"]);
    expect((await api.call("GET", api.p("/vpcs"))).body.map((v: { name: string }) => v.name)).toEqual(["acted"]);
    expect((await log())[0]).toMatchObject({ status: 303, outcome: "redirected", carriedOut: true, realStatus: 201 });
  });

  it("echo: answers the status with a page quoting the request, its body as received and form-encoded", async () => {
    const s = await api.createService({ name: "quoted" });
    await api.control("POST", "/faults", { method: "POST", path: "/updatePassword$", status: 400, echo: true });
    const password = 'pa ss"w/rd&é';
    const seen = await api.call("POST", api.p(`/services/${s.service_id}/updatePassword`), { body: { password } });
    expect(seen.status).toBe(400);
    expect(seen.headers.get("content-type")).toMatch(/^text\/html/);
    const quoted = seen.text.replace(/&#(\d+);/g, (_: string, c: string) => String.fromCharCode(Number(c)));
    expect(quoted).toContain(JSON.stringify({ password }));
    expect(quoted).toContain(new URLSearchParams({ password }).toString());
    expect((await log()).at(-1)).toMatchObject({ status: 400, outcome: "echoed", carriedOut: false });
  });

  it("gzip: sends the real body gzip-compressed with Content-Encoding, unasked", async () => {
    const vpc = await api.createVpc({ name: "squeezed" });
    await api.control("POST", "/faults", { method: "GET", path: "/vpcs/", gzip: true });
    const raw = await rawRequest(api.emu.url, "GET", full(api.p(`/vpcs/${vpc.id}`)), api.emu.pat);
    expect(raw.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(raw.body).toString()).id).toBe(vpc.id);
    expect((await log()).at(-1)).toMatchObject({ status: 200, outcome: "compressed", carriedOut: true });
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
      { echo: true },
      { echo: true, status: 400, after: true },
      { lagMs: 100, after: false },
      { gzip: true, status: 503 },
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
