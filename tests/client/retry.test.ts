import { ClouddbClient, ConflictError, NetworkError, RateLimitError, ServerError } from "../../provider/client";
import { backoff, retryDelayMs } from "../../provider/client/shaping/backoff";
import { MAX_ATTEMPTS, withRetry } from "../../provider/client/retry";
import { type FakeAnswer, serviceBody, startFakeApi } from "./fakeApi";

const KEY = "retry-key-1a2b3c4d";

function client(baseUrl: string, retryDeadlineMs = 5_000): ClouddbClient {
  return new ClouddbClient({ apiUrl: baseUrl, apiKey: KEY, projectId: "proj000001", retryDeadlineMs });
}

describe("retry policy", () => {
  it("retries a read through a 503 storm", async () => {
    let n = 0;
    const api = await startFakeApi(() => (++n <= 3 ? { status: 503, body: { code: "UNAVAILABLE", message: "busy" } } : { body: [] }));
    const c = client(api.baseUrl);
    try {
      await expect(c.perform("listVpcs").then((r) => r.items)).resolves.toEqual([]);
      expect(api.requests).toHaveLength(4);
    } finally {
      await c.close();
      await api.close();
    }
  });

  it("waits at least Retry-After after a 429", async () => {
    let n = 0;
    const api = await startFakeApi(() =>
      ++n === 1 ? { status: 429, headers: { "retry-after": "1" }, body: { code: "RATE_LIMITED", message: "slow down" } } : { body: [] },
    );
    const c = client(api.baseUrl);
    try {
      await c.perform("listServices");
      expect(api.requests).toHaveLength(2);
      expect(api.requests[1].at - api.requests[0].at).toBeGreaterThanOrEqual(1000);
    } finally {
      await c.close();
      await api.close();
    }
  });

  it("fails at once with RateLimitError when Retry-After reaches past the deadline", async () => {
    const api = await startFakeApi(() => ({
      status: 429,
      headers: { "retry-after": "30" },
      body: { code: "RATE_LIMITED", message: "slow down" },
    }));
    const c = client(api.baseUrl, 2_000);
    try {
      const started = Date.now();
      const err = await c
        .perform("listServices")
        .then((r) => r.items)
        .catch((e: unknown) => e);
      expect(RateLimitError.isInstance(err)).toBe(true);
      expect((err as RateLimitError).retryAfterSeconds).toBe(30);
      expect(Date.now() - started).toBeLessThan(1_000);
    } finally {
      await c.close();
      await api.close();
    }
  });

  it("gives up with the ServerError once the deadline is reached", async () => {
    const api = await startFakeApi(() => ({ status: 500, body: { code: "INTERNAL", message: "down" } }));
    const c = client(api.baseUrl, 600);
    try {
      const started = Date.now();
      const err = await c.perform("getVpc", { vpc: "1" }).catch((e: unknown) => e);
      expect(ServerError.isInstance(err)).toBe(true);
      expect(Date.now() - started).toBeLessThan(1_500);
      expect(api.requests.length).toBeGreaterThan(1);
    } finally {
      await c.close();
      await api.close();
    }
  });

  it("does not retry a 409 (it reads the service once to classify it)", async () => {
    const api = await startFakeApi(() => ({ status: 409, body: { code: "CONFLICT", message: "not ready" } }));
    const c = client(api.baseUrl);
    try {
      await expect(c.perform("stopService", { service: "svc0000001" })).rejects.toBeInstanceOf(ConflictError);
      expect(api.requests.map((r) => r.method)).toEqual(["POST", "GET"]);
    } finally {
      await c.close();
      await api.close();
    }
  });

  it("retries a read after the connection drops, and reports NetworkError when it keeps dropping", async () => {
    let n = 0;
    const api = await startFakeApi((): FakeAnswer => (++n === 1 ? { destroy: true } : { body: serviceBody() }));
    const c = client(api.baseUrl);
    try {
      await expect(c.perform("getService", { service: "svc0000001" })).resolves.toMatchObject({ service_id: "svc0000001" });
    } finally {
      await c.close();
      await api.close();
    }
    const dead = client("http://127.0.0.1:9/public/api/v1", 300);
    try {
      const err = await dead
        .perform("listVpcs")
        .then((r) => r.items)
        .catch((e: unknown) => e);
      expect(NetworkError.isInstance(err)).toBe(true);
      expect((err as NetworkError).message).toMatch(/operation listVpcs/);
      expect((err as NetworkError).message).not.toContain(KEY);
    } finally {
      await dead.close();
    }
  });

  it("repeats a create after a 429 (the server did not act) without looking for it", async () => {
    let n = 0;
    const api = await startFakeApi((req) =>
      req.method === "POST" && ++n === 1
        ? { status: 429, headers: { "retry-after": "0" }, body: { code: "RATE_LIMITED", message: "slow" } }
        : { status: 201, body: { id: "7", name: "v", cidr: "10.0.0.0/16", region_code: "us-east-1" } },
    );
    const c = client(api.baseUrl);
    try {
      await expect(c.perform("createVpc", { body: { name: "v", cidr: "10.0.0.0/16", region_code: "us-east-1" } })).resolves.toMatchObject({
        id: "7",
      });
      expect(api.requests.map((r) => r.method)).toEqual(["POST", "POST"]);
    } finally {
      await c.close();
      await api.close();
    }
  });

  it("treats a 404 on a retried DELETE after a 503 as success", async () => {
    let n = 0;
    const api = await startFakeApi(() =>
      ++n === 1
        ? { status: 503, body: { code: "UNAVAILABLE", message: "x" } }
        : { status: 404, body: { code: "NOT_FOUND", message: "gone" } },
    );
    const c = client(api.baseUrl);
    try {
      await expect(c.perform("deleteVpc", { vpc: "12" })).resolves.toBeUndefined();
      expect(api.requests.map((r) => r.method)).toEqual(["DELETE", "DELETE"]);
    } finally {
      await c.close();
      await api.close();
    }
  });

  it("computes backoff with jitter, and never less than Retry-After", () => {
    const e500 = new ServerError({ status: 500, code: "INTERNAL", apiMessage: "x", operation: "o" });
    expect(retryDelayMs(e500, 1, () => 0)).toBe(100);
    expect(retryDelayMs(e500, 1, () => 1)).toBe(200);
    expect(retryDelayMs(e500, 20, () => 1)).toBe(5_000);
    const e429 = new RateLimitError({ status: 429, code: "RATE_LIMITED", apiMessage: "x", operation: "o", retryAfterSeconds: 2 });
    expect(retryDelayMs(e429, 1, () => 0)).toBeGreaterThanOrEqual(2_000);
  });

  it("waits out a Retry-After, its margin, and a random part of up to a fifth of it (1 s at most), so as not to come back in step", () => {
    const e429 = (s: number) =>
      new RateLimitError({ status: 429, code: "RATE_LIMITED", apiMessage: "x", operation: "o", retryAfterSeconds: s });
    expect(retryDelayMs(e429(5), 8, () => 0)).toBe(5_025);
    expect(retryDelayMs(e429(5), 8, () => 0.5)).toBe(5_525);
    expect(retryDelayMs(e429(30), 8, () => 0.5)).toBe(30_525);
    expect(retryDelayMs(e429(1), 8, () => 0.5)).toBe(5_000 / 2 + 0.5 * 2_500);
    expect(retryDelayMs(e429(1), 1, () => 0.5)).toBe(1_125);
  });
});

describe("the bound on attempts", () => {
  const saved = { ...backoff };
  afterEach(() => Object.assign(backoff, saved));

  it(`makes ${MAX_ATTEMPTS} attempts of a call that keeps failing, however far its deadline, then raises the last failure`, async () => {
    // No backoff, so that the bound and not a deadline ends it, in a second or two.
    Object.assign(backoff, { baseMs: 0, maxMs: 0 });
    let attempts = 0;
    const failed = withRetry({
      operation: "listVpcs",
      kind: "read",
      deadline: Date.now() + 600_000,
      attempt: async () => {
        attempts++;
        throw new ServerError({ status: 503, code: "UNAVAILABLE", apiMessage: `busy ${attempts}`, operation: "listVpcs" });
      },
    });
    await expect(failed).rejects.toThrow(`busy ${MAX_ATTEMPTS}`);
    expect(attempts).toBe(MAX_ATTEMPTS);
  });
});

describe("429s without Retry-After", () => {
  it("are retried after a backoff that grows with each refusal, with jitter", () => {
    const bare = new RateLimitError({ status: 429, code: "RATE_LIMITED", apiMessage: "x", operation: "o" });
    expect([1, 2, 3, 4].map((n) => retryDelayMs(bare, n, () => 0))).toEqual([250, 500, 1_000, 2_000]);
    expect([1, 2, 3, 4].map((n) => retryDelayMs(bare, n, () => 1))).toEqual([500, 1_000, 2_000, 4_000]);
    expect(retryDelayMs(bare, 30, () => 1)).toBe(5_000);
  });

  it("leave a request's attempts further apart each time, over HTTP (5 requests took 830 ms before)", async () => {
    let n = 0;
    const api = await startFakeApi(() => (++n <= 4 ? { status: 429, body: { code: "RATE_LIMITED", message: "slow down" } } : { body: [] }));
    const c = client(api.baseUrl, 30_000);
    try {
      await c.perform("listVpcs");
      const gaps = api.requests.slice(1).map((r, i) => r.at - api.requests[i].at);
      expect(gaps).toHaveLength(4);
      // Each between half and all of 500, 1,000, 2,000, 4,000 ms (and the pacer's turn).
      gaps.forEach((gap, i) => expect([i, gap >= 250 * 2 ** i - 5]).toEqual([i, true]));
      expect(api.requests[4].at - api.requests[0].at).toBeGreaterThanOrEqual(3_700);
    } finally {
      await c.close();
      await api.close();
    }
  });
});
