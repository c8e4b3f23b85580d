/**
 * Misbehaviour on demand, over real HTTP: answers lost after the request was carried out
 * (a 5xx or a dropped connection), answers cut short, fields rewritten in the next N
 * matching answers, and a server clock offset in `created` and `Date`. All of it is
 * control state: reset clears it and nothing of it is persisted.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startEmulator } from "../../emulator";
import { EmulatorApi, useEmulator } from "./support/emulator-api";
import { rawRequest } from "./support/raw-http";

const api = useEmulator();
const full = (p: string) => `/public/api/v1${p}`;

/** What a fetch client got: an answer with its whole body, or the error it failed with. */
type Attempt = { ok: true; status: number; headers: Headers; text: string } | { ok: false; error: string };

async function attempt(method: string, p: string, body?: unknown): Promise<Attempt> {
  try {
    const res = await fetch(`${api.emu.baseUrl}${p}`, {
      method,
      headers: { authorization: `Bearer ${api.emu.pat}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { ok: true, status: res.status, headers: res.headers, text: await res.text() };
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause;
    return { ok: false, error: `${(error as Error).message}${cause?.message ? `: ${cause.message}` : ""}` };
  }
}

/** The emulator clock now (wall clock plus what earlier tests advanced it by; reset keeps that). */
async function emulatorNow(): Promise<number> {
  return Date.now() + (await api.control("GET", "/clock")).body.advancedMs;
}

async function log(): Promise<any[]> {
  return (await api.control("GET", "/requests")).body;
}

const VPC = { name: "net", cidr: "10.0.0.0/16", region_code: "us-east-1" };

describe("an answer lost after the request was carried out", () => {
  it("creates the service but answers the injected 5xx, and logs both statuses", async () => {
    const rule = await api.control("POST", "/faults", { method: "POST", path: "/services$", status: 503, after: true });
    expect(rule.status).toBe(201);
    expect(rule.body).toMatchObject({ method: "POST", status: 503, count: 1, after: true });
    const seen = await api.call("POST", api.p("/services"), { body: { name: "lost" } });
    expect([seen.status, seen.body.code]).toEqual([503, "UNAVAILABLE"]);
    expect(seen.body.initial_password).toBeUndefined();
    const services = (await api.call("GET", api.p("/services"))).body;
    expect(services.map((s: { name: string }) => s.name)).toEqual(["lost"]);
    expect((await log())[0]).toEqual({
      method: "POST",
      path: full(api.p("/services")),
      status: 503,
      at: expect.any(String),
      outcome: "replaced",
      carriedOut: true,
      realStatus: 202,
    });
  });

  it("replaces a refused request's answer too, logging the real 409", async () => {
    const vpc = await api.createVpc();
    await api.call("POST", api.p("/services"), { body: { name: "s" } });
    const s = (await api.call("GET", api.p("/services"))).body[0];
    await api.advance(7_000);
    await api.call("POST", api.p(`/services/${s.service_id}/attachToVPC`), { body: { vpc_id: vpc.id } });
    await api.control("POST", "/faults", { method: "DELETE", path: "/vpcs/", status: 500, after: true });
    expect((await api.call("DELETE", api.p(`/vpcs/${vpc.id}`))).status).toBe(500);
    expect((await log()).at(-1)).toMatchObject({ status: 500, outcome: "replaced", carriedOut: true, realStatus: 409 });
    expect((await api.call("GET", api.p(`/vpcs/${vpc.id}`))).status).toBe(200);
  });

  it("refuses an after-rule whose status is not a 5xx", async () => {
    const res = await api.control("POST", "/faults", { path: ".*", status: 429, after: true });
    expect([res.status, res.body.code]).toEqual([400, "INVALID_REQUEST"]);
    expect(res.body.details).toMatch(/status/);
  });
});

describe("a dropped connection", () => {
  it("before carrying out: the client gets no answer and nothing changes", async () => {
    await api.control("POST", "/faults", { method: "POST", path: "/vpcs$", drop: true });
    const seen = await attempt("POST", api.p("/vpcs"), VPC);
    expect(seen.ok).toBe(false);
    expect((await api.call("GET", api.p("/vpcs"))).body).toEqual([]);
    expect((await log())[0]).toMatchObject({ method: "POST", status: 0, outcome: "dropped", carriedOut: false });
    expect((await log())[0].realStatus).toBeUndefined();
  });

  it("after carrying out: the client gets no answer but the VPC exists", async () => {
    await api.control("POST", "/faults", { method: "POST", path: "/vpcs$", drop: true, after: true, count: 2 });
    expect((await attempt("POST", api.p("/vpcs"), VPC)).ok).toBe(false);
    expect((await attempt("POST", api.p("/vpcs"), { ...VPC, name: "second" })).ok).toBe(false);
    const third = await attempt("POST", api.p("/vpcs"), { ...VPC, name: "third" });
    expect(third.ok && third.status).toBe(201);
    expect((await api.call("GET", api.p("/vpcs"))).body.map((v: { name: string }) => v.name)).toEqual(["net", "second", "third"]);
    const entries = (await log()).filter((e) => e.method === "POST");
    expect(entries.map((e) => [e.status, e.outcome, e.carriedOut, e.realStatus])).toEqual([
      [0, "dropped", true, 201],
      [0, "dropped", true, 201],
      [201, undefined, undefined, undefined],
    ]);
  });

  it("refuses a rule that both drops and truncates, or drops with a status", async () => {
    expect((await api.control("POST", "/faults", { path: ".*", drop: true, truncate: true })).status).toBe(400);
    expect((await api.control("POST", "/faults", { path: ".*", drop: true, status: 503 })).status).toBe(400);
    expect((await api.control("POST", "/faults", { path: ".*" })).status).toBe(400);
  });
});

describe("an answer cut short", () => {
  it("creates the service while the client gets a body shorter than its Content-Length", async () => {
    await api.control("POST", "/faults", { method: "POST", path: "/services$", truncate: true });
    const seen = await attempt("POST", api.p("/services"), { name: "cut" });
    expect(seen.ok).toBe(false);
    expect((await api.call("GET", api.p("/services"))).body.map((s: { name: string }) => s.name)).toEqual(["cut"]);
    expect((await log())[0]).toMatchObject({ status: 202, outcome: "truncated", carriedOut: true, realStatus: 202 });
  });

  it("sends the whole head and exactly truncateAt body bytes, then closes", async () => {
    const s = await api.createService({ name: "raw" });
    await api.control("POST", "/faults", { method: "GET", path: "/services/", truncateAt: 10 });
    const raw = await rawRequest(api.emu.url, "GET", full(api.p(`/services/${s.service_id}`)), api.emu.pat);
    expect(raw.status).toBe(200);
    expect(Number(raw.headers["content-length"])).toBeGreaterThan(10);
    expect(raw.headers.date).toBeDefined();
    expect(raw.body.toString()).toBe('{"service_');
    expect(() => JSON.parse(raw.body.toString())).toThrow();
    const again = await rawRequest(api.emu.url, "GET", full(api.p(`/services/${s.service_id}`)), api.emu.pat);
    expect(again.body.length).toBe(Number(again.headers["content-length"]));
  });

  it("cuts the head of an answer without a body, and the deletion still happens", async () => {
    const s = await api.createService({ name: "gone" });
    await api.control("POST", "/faults", { method: "DELETE", path: "/services/", truncate: true });
    const raw = await rawRequest(api.emu.url, "DELETE", full(api.p(`/services/${s.service_id}`)), api.emu.pat);
    expect(raw.head).toBeUndefined();
    expect(raw.bytes.toString("latin1")).toMatch(/^HTTP\/1\.1 20/);
    expect((await api.call("GET", api.p(`/services/${s.service_id}`))).body.status).toBe("DELETING");
  });
});

describe("rewrites", () => {
  it("rewrites a field at every depth in exactly the next N answers that contain it", async () => {
    const s = await api.readyService({ name: "deep" });
    const rs = await api.call("POST", api.p(`/services/${s.service_id}/replicaSets`), {
      body: { name: "r", nodes: 1, cpu_millis: 500, memory_gbs: 2 },
    });
    expect(rs.status).toBe(202);
    const rule = await api.control("POST", "/rewrites", { method: "GET", path: ".*", field: "status", value: "HIBERNATING", count: 2 });
    expect(rule.status).toBe(201);
    expect(rule.body).toEqual({ id: expect.any(Number), method: "GET", path: ".*", field: "status", value: "HIBERNATING", count: 2 });
    expect((await api.call("GET", api.p("/vpcs"))).status).toBe(200);
    const first = (await api.call("GET", api.p(`/services/${s.service_id}`))).body;
    expect([first.status, first.read_replica_sets[0].status]).toEqual(["HIBERNATING", "HIBERNATING"]);
    const list = (await api.call("GET", api.p("/services"))).body;
    expect([list[0].status, list[0].read_replica_sets[0].status]).toEqual(["HIBERNATING", "HIBERNATING"]);
    const third = (await api.call("GET", api.p(`/services/${s.service_id}`))).body;
    expect([third.status, third.read_replica_sets[0].status]).toEqual(["READY", "creating"]);
    const entries = await log();
    expect(entries.map((e) => e.rewritten)).toEqual([undefined, undefined, undefined, undefined, ["status"], ["status"], undefined]);
  });

  it("writes any JSON value, null and objects included, and several rules apply to one answer", async () => {
    const s = await api.createService({ name: "nulls" });
    await api.control("POST", "/rewrites", { path: "/services/", field: "endpoint", value: null });
    await api.control("POST", "/rewrites", { path: "/services/", field: "metadata", value: { environment: "STAGING", extra: [1] } });
    const body = (await api.call("GET", api.p(`/services/${s.service_id}`))).body;
    expect(body.endpoint).toBeNull();
    expect(body.metadata).toEqual({ environment: "STAGING", extra: [1] });
    expect((await log()).at(-1).rewritten).toEqual(["endpoint", "metadata"]);
    expect((await api.call("GET", api.p(`/services/${s.service_id}`))).body.endpoint).toMatchObject({ port: 5432 });
  });

  it("rewrites error bodies too, and DELETE /rewrites clears every rule", async () => {
    await api.control("POST", "/rewrites", { path: ".*", field: "code", value: "SOMETHING_NEW", count: 5 });
    expect((await api.call("GET", api.p("/services/zzzzzzzzzz"))).body.code).toBe("SOMETHING_NEW");
    expect((await api.control("DELETE", "/rewrites")).status).toBe(204);
    expect((await api.call("GET", api.p("/services/zzzzzzzzzz"))).body.code).toBe("NOT_FOUND");
  });

  it("refuses a rule without a field or a value, or with a bad regex", async () => {
    for (const bad of [{ field: "status" }, { value: 1 }, { field: "", value: 1 }, { path: "(", field: "x", value: 1 }]) {
      const res = await api.control("POST", "/rewrites", bad);
      expect([JSON.stringify(bad), res.status, res.body.code]).toEqual([JSON.stringify(bad), 400, "INVALID_REQUEST"]);
    }
  });
});

describe("server clock offset", () => {
  const HOUR = 3_600_000;

  function expectNear(iso: string | null, expected: number, slackMs = 5_000): void {
    expect(iso).not.toBeNull();
    expect(Math.abs(Date.parse(iso!) - expected)).toBeLessThan(slackMs);
  }

  it("shows a negative offset in created, the Date header and auth info, without touching transitions", async () => {
    expect((await api.control("POST", "/clock", { offsetMs: -HOUR })).status).toBe(204);
    const now = await emulatorNow();
    const created = await api.call("POST", api.p("/services"), { body: { name: "past" } });
    expectNear(created.body.created, now - HOUR);
    expectNear(created.headers.get("date"), now - HOUR);
    const before = (await api.control("GET", "/clock")).body;
    const withoutOffset = Date.parse((await api.call("GET", "/auth/info")).body.apiKey.created);
    await api.control("POST", "/clock", { offsetMs: 0 });
    expect(Date.parse((await api.call("GET", "/auth/info")).body.apiKey.created) - withoutOffset).toBe(HOUR);
    await api.control("POST", "/clock", { offsetMs: before.offsetMs });
    await api.advance(7_000);
    const read = await api.call("GET", api.p(`/services/${created.body.service_id}`));
    expect(read.body.status).toBe("READY");
    expect(read.body.created).toBe(created.body.created);
    expectNear(read.headers.get("date"), now - HOUR + 7_000);
  });

  it("shows a positive offset, replaces (not adds to) the previous one, and is reported by GET /clock", async () => {
    await api.control("POST", "/clock", { offsetMs: 5 * HOUR });
    await api.control("POST", "/clock", { offsetMs: 2 * 24 * HOUR });
    const now = await emulatorNow();
    const s = await api.createService();
    expectNear(s.created, now + 2 * 24 * HOUR);
    const clock = (await api.control("GET", "/clock")).body;
    expect(clock).toEqual({
      offsetMs: 2 * 24 * HOUR,
      dateOffsetMs: 0,
      dateFlipMs: 0,
      advancedMs: expect.any(Number),
      emulatorTime: expect.any(String),
      serverTime: expect.any(String),
    });
    expect(Date.parse(clock.serverTime) - Date.parse(clock.emulatorTime)).toBeGreaterThan(2 * 24 * HOUR - 1_000);
    expectNear((await api.call("GET", api.p("/vpcs"))).headers.get("date"), now + 2 * 24 * HOUR);
  });

  it("reads a client's target_time in the server's clock (fork at a point in time)", async () => {
    await api.control("POST", "/clock", { offsetMs: -HOUR });
    const source = await api.readyService({ name: "src" });
    const target = new Date(Date.parse(source.created) + 1_000).toISOString();
    const fork = await api.call("POST", api.p(`/services/${source.service_id}/forkService`), {
      body: { fork_strategy: "PITR", target_time: target },
    });
    expect(fork.status).toBe(202);
    const early = new Date(Date.parse(source.created) - 60_000).toISOString();
    const refused = await api.call("POST", api.p(`/services/${source.service_id}/forkService`), {
      body: { fork_strategy: "PITR", target_time: early },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toContain(source.created);
  });

  it("puts a Date header in the server's clock on every answer: API, errors, control path", async () => {
    await api.control("POST", "/clock", { offsetMs: -HOUR });
    const now = await emulatorNow();
    const answers = [
      await api.call("GET", "/auth/info"),
      await api.call("GET", "/auth/info", { token: null }),
      await api.call("GET", api.p("/services/zzzzzzzzzz")),
      await api.control("GET", "/requests"),
      await api.control("POST", "/clock", { offsetMs: -HOUR }),
    ];
    for (const res of answers) expectNear(res.headers.get("date"), now - HOUR);
    const unknown = await fetch(`${api.emu.url}/elsewhere`);
    expectNear(unknown.headers.get("date"), now - HOUR);
  });

  it("refuses a clock body with neither advanceMs nor offsetMs", async () => {
    expect((await api.control("POST", "/clock", {})).status).toBe(400);
    expect((await api.control("POST", "/clock", { offsetMs: "soon" })).status).toBe(400);
  });
});

describe("control state", () => {
  it("reset clears fault rules of every mode, rewrites and the clock offset", async () => {
    await api.control("POST", "/faults", { path: ".*", drop: true, count: 10 });
    await api.control("POST", "/faults", { path: ".*", truncate: true, count: 10 });
    await api.control("POST", "/rewrites", { path: ".*", field: "status", value: null, count: 10 });
    await api.control("POST", "/clock", { offsetMs: -24 * 3_600_000 });
    expect((await api.control("POST", "/reset")).status).toBe(204);
    const now = await emulatorNow();
    const s = await api.createService();
    expect(s.status).toBe("QUEUED");
    expect(Math.abs(Date.parse(s.created) - now)).toBeLessThan(5_000);
    expect((await api.control("GET", "/clock")).body.offsetMs).toBe(0);
  });

  it("is never persisted: a restart on the same data dir starts without rules or offset", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "clouddb-emu-misbehave-"));
    try {
      const first = await startEmulator({ port: 0, clockScale: 1, dataDir });
      const one = new EmulatorApi(first);
      const s = await one.createService({ name: "kept" });
      await one.control("POST", "/faults", { path: "/services/", status: 503, after: true, count: 10 });
      await one.control("POST", "/rewrites", { path: ".*", field: "name", value: "rewritten", count: 10 });
      await one.control("POST", "/clock", { offsetMs: -7 * 24 * 3_600_000 });
      expect((await one.call("GET", one.p(`/services/${s.service_id}`))).status).toBe(503);
      const stored = readFileSync(path.join(dataDir, "clouddb-emulator-state.json"), "utf8");
      expect(stored).not.toMatch(/rewritten|offsetMs|"after"/);
      await first.close();

      const second = await startEmulator({ port: 0, clockScale: 1, dataDir });
      const two = new EmulatorApi(second);
      const read = await two.call("GET", two.p(`/services/${s.service_id}`));
      expect([read.status, read.body.name, read.body.created]).toEqual([200, "kept", s.created]);
      expect(Math.abs(Date.parse(read.headers.get("date")!) - Date.now())).toBeLessThan(5_000);
      await second.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
