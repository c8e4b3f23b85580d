/**
 * The control path: faults (count honoured, then normal), latency (measured), rate limit,
 * request log (order, statuses, clearing), reset, clock, and its own errors.
 */
import { useEmulator } from "./support/emulator-api";

/** The path as the server receives it. */
const full = (path: string) => `/public/api/v1${path}`;

const api = useEmulator();

describe("faults", () => {
  it("fails exactly `count` matching requests with the contract's error body, then answers normally", async () => {
    const rule = await api.control("POST", "/faults", { method: "GET", path: "/vpcs$", status: 503, count: 2 });
    expect(rule.status).toBe(201);
    expect(rule.body).toMatchObject({ method: "GET", path: "/vpcs$", status: 503, count: 2 });
    for (let i = 0; i < 2; i++) {
      const res = await api.call("GET", api.p("/vpcs"));
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ code: "UNAVAILABLE", message: expect.any(String), details: expect.any(String) });
    }
    expect((await api.call("GET", api.p("/vpcs"))).status).toBe(200);
  });

  it("matches only the method and the path regex given", async () => {
    await api.control("POST", "/faults", { method: "POST", path: "^/public/api/v1/projects/[a-z0-9]+/services$", status: 500, count: 1 });
    expect((await api.call("GET", api.p("/services"))).status).toBe(200);
    expect((await api.call("POST", api.p("/vpcs"), { body: { name: "n", cidr: "10.0.0.0/16", region_code: "us-east-1" } })).status).toBe(
      201,
    );
    const failed = await api.call("POST", api.p("/services"), { body: { name: "s" } });
    expect(failed.status).toBe(500);
    expect(failed.body.code).toBe("INTERNAL");
    expect((await api.call("GET", api.p("/services"))).body).toEqual([]);
    expect((await api.call("POST", api.p("/services"), { body: { name: "s" } })).status).toBe(202);
  });

  it("answers 429 RATE_LIMITED with Retry-After, and maps other statuses to their codes", async () => {
    await api.control("POST", "/faults", { path: "/auth/info", status: 429, count: 1, retryAfter: 3 });
    await api.control("POST", "/faults", { path: "/auth/info", status: 502, count: 1 });
    await api.control("POST", "/faults", { path: "/auth/info", status: 409, count: 1 });
    const limited = await api.call("GET", "/auth/info");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("3");
    expect(limited.body.code).toBe("RATE_LIMITED");
    const bad = await api.call("GET", "/auth/info");
    expect([bad.status, bad.body.code]).toEqual([502, "UNAVAILABLE"]);
    const conflict = await api.call("GET", "/auth/info");
    expect([conflict.status, conflict.body.code]).toEqual([409, "CONFLICT"]);
    expect((await api.call("GET", "/auth/info")).status).toBe(200);
  });

  it("clears every rule with DELETE /faults", async () => {
    await api.control("POST", "/faults", { path: ".*", status: 503, count: 100 });
    expect((await api.control("DELETE", "/faults")).status).toBe(204);
    expect((await api.call("GET", api.p("/vpcs"))).status).toBe(200);
  });

  it("refuses a malformed rule with 400", async () => {
    const badRegex = await api.control("POST", "/faults", { path: "(", status: 503 });
    expect(badRegex.status).toBe(400);
    expect(badRegex.body.code).toBe("INVALID_REQUEST");
    const badStatus = await api.control("POST", "/faults", { path: ".*", status: 200 });
    expect(badStatus.status).toBe(400);
    expect((await api.call("GET", api.p("/vpcs"))).status).toBe(200);
  });
});

describe("latency", () => {
  it("delays every API answer by the configured time, and 0 removes it", async () => {
    // A latency well above what a loaded machine adds to an answer (the bound below), so that an
    // answer under the bound shows the latency gone, however busy the machine.
    expect((await api.control("POST", "/latency", { ms: 1_500 })).status).toBe(204);
    let started = Date.now();
    expect((await api.call("GET", api.p("/vpcs"))).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_490);
    await api.control("POST", "/latency", { ms: 0 });
    started = Date.now();
    await api.call("GET", api.p("/vpcs"));
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe("rate limit", () => {
  it("answers 429 with Retry-After over the rate, and recovers after the window", async () => {
    expect((await api.control("POST", "/rate-limit", { requestsPerSecond: 3 })).status).toBe(204);
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 5; i++) {
      const res = await api.call("GET", api.p("/vpcs"));
      statuses.push(res.status);
      if (res.status === 429) {
        retryAfter = res.headers.get("retry-after");
        expect(res.body.code).toBe("RATE_LIMITED");
      }
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    await new Promise((r) => setTimeout(r, 1_050));
    expect((await api.call("GET", api.p("/vpcs"))).status).toBe(200);
    await api.control("POST", "/rate-limit", { requestsPerSecond: 0 });
    const burst = await Promise.all(Array.from({ length: 10 }, () => api.call("GET", api.p("/vpcs"))));
    expect(burst.every((r) => r.status === 200)).toBe(true);
  });
  it("limits each API key alone: another key's requests do not count", async () => {
    await api.control("POST", "/rate-limit", { requestsPerSecond: 2 });
    const pat = await Promise.all(Array.from({ length: 3 }, () => api.call("GET", api.p("/vpcs"))));
    const oauth = await Promise.all(Array.from({ length: 2 }, () => api.call("GET", api.p("/vpcs"), { token: api.emu.oauthToken })));
    expect(pat.map((r) => r.status).sort()).toEqual([200, 200, 429]);
    expect(oauth.map((r) => r.status)).toEqual([200, 200]);
    await api.control("POST", "/rate-limit", { requestsPerSecond: 0 });
  });

  it("leaves Retry-After out of its 429s when asked (retryAfter: false)", async () => {
    await api.control("POST", "/rate-limit", { requestsPerSecond: 1, retryAfter: false });
    expect((await api.call("GET", api.p("/vpcs"))).status).toBe(200);
    const limited = await api.call("GET", api.p("/vpcs"));
    expect([limited.status, limited.body.code, limited.headers.get("retry-after")]).toEqual([429, "RATE_LIMITED", null]);
    await api.control("POST", "/rate-limit", { requestsPerSecond: 0 });
  });

  it("tells the policy and what is left of it in the IETF RateLimit fields when asked (headers: true)", async () => {
    await api.control("POST", "/rate-limit", { requestsPerSecond: 3, headers: true });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await api.call("GET", api.p("/vpcs")));
    expect(answers.map((r) => r.headers.get("ratelimit-policy"))).toEqual(Array(4).fill('"default";q=3;w=1'));
    expect(answers.map((r) => r.headers.get("ratelimit")?.replace(/;t=\d+$/, ""))).toEqual([
      '"default";r=2',
      '"default";r=1',
      '"default";r=0',
      '"default";r=0',
    ]);
    expect(answers[3].status).toBe(429);
    expect(answers[3].headers.get("ratelimit")).toBe('"default";r=0;t=1');
    expect(answers[3].headers.get("retry-after")).toBe("1");
    await api.control("POST", "/rate-limit", { requestsPerSecond: 0 });
    expect((await api.call("GET", api.p("/vpcs"))).headers.get("ratelimit")).toBeNull();
  });

  it("refuses a policy that is not one with 400", async () => {
    expect((await api.control("POST", "/rate-limit", { requestsPerSecond: 3, headers: "yes" })).status).toBe(400);
  });
});

describe("request log", () => {
  it("lists API requests oldest first with their statuses (faults included), and clears", async () => {
    await api.control("POST", "/faults", { method: "GET", path: "/services$", status: 503, count: 1 });
    await api.call("GET", api.p("/vpcs"));
    await api.call("GET", api.p("/services"));
    await api.call("POST", api.p("/vpcs"), { body: {} });
    await api.call("GET", api.p("/vpcs"), { token: null });
    const log = await api.control("GET", "/requests");
    expect(log.status).toBe(200);
    expect(log.body).toEqual([
      { method: "GET", path: full(api.p("/vpcs")), status: 200, at: expect.any(String) },
      { method: "GET", path: full(api.p("/services")), status: 503, at: expect.any(String) },
      { method: "POST", path: full(api.p("/vpcs")), status: 400, at: expect.any(String) },
      { method: "GET", path: full(api.p("/vpcs")), status: 401, at: expect.any(String) },
    ]);
    const times = (log.body as Array<{ at: string }>).map((e) => e.at);
    expect(times.every((t) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(t))).toBe(true);
    expect([...times].sort()).toEqual(times);
    expect((await api.control("DELETE", "/requests")).status).toBe(204);
    expect((await api.control("GET", "/requests")).body).toEqual([]);
  });
});

describe("reset and clock", () => {
  it("reset empties resources and rules but keeps tokens and projects", async () => {
    await api.createVpc();
    await api.createService();
    await api.control("POST", "/faults", { path: "/nothing-matches-this-yet", status: 500 });
    await api.control("POST", "/latency", { ms: 5_000 });
    expect((await api.control("POST", "/reset")).status).toBe(204);
    const started = Date.now();
    expect((await api.call("GET", api.p("/vpcs"))).body).toEqual([]);
    expect(Date.now() - started).toBeLessThan(2_500); // the latency is gone: far under its 5 s, however busy the machine
    expect((await api.call("GET", api.p("/services"))).body).toEqual([]);
    expect((await api.call("GET", "/auth/info", { token: api.emu.oauthToken })).status).toBe(200);
  });

  it("advances the clock (204) and refuses negative or missing amounts (400)", async () => {
    const s = await api.createService();
    expect((await api.control("POST", "/clock", { advanceMs: 7_000 })).status).toBe(204);
    expect((await api.call("GET", api.p(`/services/${s.service_id}`))).body.status).toBe("READY");
    expect((await api.control("POST", "/clock", { advanceMs: -1 })).status).toBe(400);
    expect((await api.control("POST", "/clock", {})).status).toBe(400);
  });
});

describe("control path errors", () => {
  it("answers 404 for unknown ids of injections", async () => {
    for (const path of ["/services/zzzzzzzzzz/unstable", "/replica-sets/zzzzzzzzzz/error", "/peerings/123/fail"]) {
      const res = await api.control("POST", path);
      expect([path, res.status, res.body.code]).toEqual([path, 404, "NOT_FOUND"]);
    }
  });

  it("needs one of the emulator's tokens (401), knows its paths (404) and methods (405)", async () => {
    const res = await fetch(`${api.emu.url}/_emulator/requests`);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe("UNAUTHORIZED");
    const oauth = await fetch(`${api.emu.url}/_emulator/requests`, { headers: { authorization: `Bearer ${api.emu.oauthToken}` } });
    expect(oauth.status).toBe(200);
    expect((await api.control("POST", "/nope")).status).toBe(404);
    const wrong = await api.control("PUT", "/faults", {});
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("POST, DELETE");
  });

  it("keeps control requests out of the request log", async () => {
    await api.control("POST", "/latency", { ms: 0 });
    expect((await api.control("GET", "/requests")).body).toEqual([]);
  });
});
