import { AmbiguousCreateError, ClouddbClient, ResponseValidationError } from "../../provider/client";
import { expectNoSecrets } from "./emulatorControl";
import { type FakeAnswer, serviceBody, startFakeApi } from "./fakeApi";

const KEY = "val-key-5d4c3b2a";

async function withAnswer<T>(answer: FakeAnswer, run: (c: ClouddbClient) => Promise<T>): Promise<T> {
  const api = await startFakeApi(() => answer);
  const client = new ClouddbClient({ apiUrl: api.baseUrl, apiKey: KEY, projectId: "proj000001", retryDeadlineMs: 500 });
  try {
    return await run(client);
  } finally {
    await client.close();
    await api.close();
  }
}

async function validationError(answer: FakeAnswer, run: (c: ClouddbClient) => Promise<unknown>): Promise<ResponseValidationError> {
  return withAnswer(answer, async (c) => {
    const err = await run(c).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(ResponseValidationError.isInstance(err)).toBe(true);
    return err as ResponseValidationError;
  });
}

describe("response validation", () => {
  it("names the operation, the field path and what came back for a field the client relies on", async () => {
    const err = await validationError({ body: serviceBody({ status: null }) }, (c) => c.perform("getService", { service: "svc0000001" }));
    expect(err.operation).toBe("getService");
    expect(err.path).toBe("status");
    expect(err.received).toBe("null");
    expect(err.message).toContain("operation getService");
    expect(err.message).toContain("`status`");
    expect(err.message).toContain("expected a string");
    expect(err.code).toBe("CLOUDDB_RESPONSE_VALIDATION");
  });

  it("gives the path inside the item of a list, and names the item", async () => {
    const api = await startFakeApi(() => ({ body: [serviceBody({ service_id: "svc0000002", created: 12 })] }));
    const client = new ClouddbClient({ apiUrl: api.baseUrl, apiKey: KEY, projectId: "proj000001", listCacheMs: 1_000 });
    try {
      const err = (await client.perform("getService", { service: "svc0000002" }).catch((e: unknown) => e)) as ResponseValidationError;
      expect(err.path).toBe("created");
      expect(err.subject).toBe("service svc0000002 in the list");
      expect(err.message).toContain("expected a string");
    } finally {
      await client.close();
      await api.close();
    }
  });

  it("reports a missing identifier", async () => {
    const err = await validationError({ status: 200, body: { name: "v", cidr: "10.0.0.0/16" } }, (c) => c.perform("getVpc", { vpc: "1" }));
    expect(err.operation).toBe("getVpc");
    expect(err.path).toBe("id");
    expect(err.received).toMatch(/absent/);
  });

  it("turns a create whose answer cannot be read into an ambiguous outcome, with the reading error as cause", async () => {
    // The create may have been carried out: it goes to recovery, whose list (here the same
    // unreadable body) cannot settle it either.
    const err = await withAnswer({ status: 201, body: { name: "v", cidr: "10.0.0.0/16" } }, (c) =>
      c.perform("createVpc", { body: { name: "v", cidr: "10.0.0.0/16", region_code: "us-east-1" } }).catch((e: unknown) => e),
    );
    expect(AmbiguousCreateError.isInstance(err)).toBe(true);
    const e = err as AmbiguousCreateError;
    expect(e.operation).toBe("createVpc");
    expect(e.candidateIds).toEqual([]);
    expect(e.message).toContain("field `id`");
    expect(e.message).toContain('adoptId: "<id>"');
    // The cause is what stopped the check: the list answer, which is not a list here.
    expect(ResponseValidationError.isInstance(e.cause)).toBe(true);
    expect((e.cause as ResponseValidationError).step).toBe("listVpcs");
  });

  it("rejects a body that is not JSON, and an array where an object belongs", async () => {
    const notJson = await validationError({ raw: "<html>oops</html>" }, (c) => c.perform("getVpc", { vpc: "1" }));
    expect(notJson.path).toBe("(body)");
    expect(notJson.received).toContain("<html>");
    const arr = await validationError({ body: [] }, (c) => c.perform("getAuthInfo"));
    expect(arr.operation).toBe("getAuthInfo");
  });

  it("checks that auth info carries the object its type names", async () => {
    const err = await validationError({ body: { type: "apiKey" } }, (c) => c.perform("getAuthInfo"));
    expect(err.path).toBe("apiKey");
  });

  it("never shows a password that came back in a malformed body", async () => {
    const err = await validationError({ body: serviceBody({ initial_password: "s3cret-initial-pw", created: 12 }) }, (c) =>
      c.perform("getService", { service: "svc0000001" }),
    );
    expect(err.path).toBe("created");
    for (const body of [
      serviceBody({ status: "QUEUED", initial_password: "s3cret-initial-pw", created: 12 }),
      { initial_password: "s3cret-initial-pw", service_id: 5 },
    ]) {
      const err2 = await withAnswer({ status: 202, body }, (c) =>
        c.perform("createService", { body: { name: "db" } }).catch((e: unknown) => e),
      );
      expect(AmbiguousCreateError.isInstance(err2)).toBe(true);
      expectNoSecrets(err2, ["s3cret-initial-pw", KEY]);
      expectNoSecrets((err2 as Error).cause, ["s3cret-initial-pw", KEY]);
    }
  });

  it("tolerates unknown fields, absent optional fields, and any vpcEndpoint", async () => {
    const s = await withAnswer({ body: serviceBody({ brand_new_field: { x: 1 }, vpcEndpoint: null }) }, (c) =>
      c.perform("getService", { service: "svc0000001" }),
    );
    expect(s.status).toBe("READY");
    expect((s as Record<string, unknown>).brand_new_field).toEqual({ x: 1 });
    const s2 = await withAnswer({ body: serviceBody({ vpcEndpoint: { vpc_id: "1", host: "h", port: 5432 } }) }, (c) =>
      c.perform("getService", { service: "svc0000001" }),
    );
    expect(s2.vpcEndpoint).toEqual({ vpc_id: "1", host: "h", port: 5432 });
    const msg = await withAnswer({ body: {} }, (c) => c.perform("enableServicePooler", { service: "svc0000001" }));
    expect(msg).toEqual({});
  });
});
