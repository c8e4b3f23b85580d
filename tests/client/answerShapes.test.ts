/**
 * Answers read and named for what they are: a body a gateway compressed unasked is read
 * (and one in an encoding the client cannot decode is named by its `Content-Encoding`, not
 * shown as binary junk); a `Retry-After` that is a negative number is unreadable, never a
 * date; a 2xx with an empty body where the API always sends one says so, and does not
 * blame the API's version; a JSON answer after a UTF-8 byte order mark is read (RFC 8259
 * lets a reader ignore it), an error's too.
 */
import { ClouddbClient, ResponseValidationError, ServerError, type ClouddbClientOptions } from "../../provider/client";
import { parseRetryAfter } from "../../provider/client/shaping/retryAfter";
import { clientOf, control, type Emu, startEmulator } from "./emulatorControl";
import { type FakeAnswer, startFakeApi } from "./fakeApi";

/** Runs `call` against a fake API answering every request with `answer`; returns what it threw. */
async function failureOf(
  answer: FakeAnswer,
  call: (c: ClouddbClient) => Promise<unknown>,
  opts: ClouddbClientOptions = {},
): Promise<unknown> {
  const api = await startFakeApi(() => answer);
  const client = new ClouddbClient({
    apiUrl: api.baseUrl,
    apiKey: "shapes-key-0001",
    projectId: "proj000001",
    retryDeadlineMs: 600,
    ...opts,
  });
  try {
    return await call(client).then(
      () => new Error("the call succeeded"),
      (e: unknown) => e,
    );
  } finally {
    await client.close();
    await api.close();
  }
}

describe("a body a gateway compressed unasked", () => {
  let emu: Emu;
  let c: ClouddbClient;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, clockScale: 0.01 });
    c = clientOf(emu);
  });
  afterAll(async () => {
    await c.close();
    await emu.close();
  });

  it("is decoded and read (gzip, from the emulator's gateway)", async () => {
    const vpc = await c.perform("createVpc", { body: { name: "squeezed", cidr: "10.3.0.0/16", region_code: "us-east-1" } });
    await control(emu, "POST", "/faults", { method: "GET", path: "/vpcs", gzip: true, count: 2 });
    expect((await c.perform("getVpc", { vpc: vpc.id })).name).toBe("squeezed");
    expect((await c.perform("listVpcs")).items.map((v) => v.id)).toEqual([vpc.id]);
  });

  it("in an encoding the client cannot decode, is named by its Content-Encoding, not shown as junk or blamed on the API's version", async () => {
    const err = await failureOf({ bytes: Buffer.from([0x1f, 0x9d, 0x90, 0x7b, 0x22]), headers: { "content-encoding": "compress" } }, (cl) =>
      cl.perform("getVpc", { vpc: "1" }),
    );
    expect(ResponseValidationError.isInstance(err)).toBe(true);
    const message = (err as Error).message;
    expect(message).toContain("`Content-Encoding: compress`");
    expect(message).toContain("`compress` is an encoding this client cannot decode");
    expect(message).not.toContain("newer or older");
    expect(message).not.toContain("\\u00");
    expect(message).not.toContain(String.fromCharCode(0x1f));
  });

  it("whose data is damaged, says so, naming the encoding", async () => {
    const err = await failureOf({ bytes: Buffer.from("not gzip at all"), headers: { "content-encoding": "gzip" } }, (cl) =>
      cl.perform("getVpc", { vpc: "1" }),
    );
    expect((err as Error).message).toMatch(/Its `gzip` data could not be decoded \(Z_DATA_ERROR\)/);
  });
});

describe("Retry-After", () => {
  it("is unreadable when it is a negative number, or anything else that is not seconds or an HTTP date", () => {
    const date = "Fri, 27 Nov 2026 10:00:00 GMT";
    for (const v of ["-5", "-1", "-0.5", "12.5.3", "soon", "1e3", "Tomorrow"])
      expect([v, parseRetryAfter(v, 0, date)]).toEqual([v, undefined]);
    expect(parseRetryAfter("7", 0, date)).toBe(7);
    expect(parseRetryAfter("1.5", 0, date)).toBe(1.5);
    expect(parseRetryAfter("Fri, 27 Nov 2026 10:00:30 GMT", 0, date)).toBe(30);
    expect(parseRetryAfter("Friday, 27-Nov-26 10:00:30 GMT", 0, date)).toBe(30);
  });

  it("a 503's negative Retry-After is not taken for a wait the API asked for", async () => {
    const err = await failureOf({ status: 503, body: { code: "UNAVAILABLE", message: "busy" }, headers: { "retry-after": "-5" } }, (cl) =>
      cl.perform("listVpcs"),
    );
    expect(ServerError.isInstance(err)).toBe(true);
    expect((err as ServerError).retryAfterSeconds).toBeUndefined();
    expect((err as Error).message).not.toContain("asked to wait");
  });
});

describe("an empty 2xx where the API always sends a body", () => {
  it("says the body was empty and who may have answered, not that the API may be of another version", async () => {
    const err = await failureOf({ status: 200, raw: "" }, (cl) => cl.perform("getService", { service: "svc0000001" }));
    expect(ResponseValidationError.isInstance(err)).toBe(true);
    const message = (err as Error).message;
    expect(message).toContain("received nothing (HTTP 200 with an empty body)");
    expect(message).toContain("something between this machine and the API");
    expect(message).not.toContain("newer or older");
    const list = await failureOf({ status: 200, raw: "" }, (cl) => cl.perform("listServices"));
    expect((list as Error).message).toContain("expected a JSON array of services");
  });
});

describe("a JSON answer that starts with a UTF-8 byte order mark (RFC 8259 section 8.1 lets a reader ignore it)", () => {
  const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
  const vpc = { id: "42", name: "marked", cidr: "10.4.0.0/16", region_code: "us-east-1" };

  /** A fake API answering `status` with `body` as JSON after a byte order mark (gzip-encoded when asked). */
  async function withBom<T>(status: number, body: unknown, call: (c: ClouddbClient) => Promise<T>, gzip = false): Promise<T> {
    const plain = Buffer.concat([BOM, Buffer.from(JSON.stringify(body))]);
    const bytes = gzip ? (await import("zlib")).gzipSync(plain) : plain;
    const api = await startFakeApi(() => ({ status, bytes, headers: gzip ? { "content-encoding": "gzip" } : undefined }));
    const client = new ClouddbClient({ apiUrl: api.baseUrl, apiKey: "bom-key-0001", projectId: "proj000001", retryDeadlineMs: 600 });
    try {
      return await call(client);
    } finally {
      await client.close();
      await api.close();
    }
  }

  it("is read as the JSON after it: an object, a list, and a body a gateway compressed", async () => {
    expect((await withBom(200, vpc, (c) => c.perform("getVpc", { vpc: "42" }))).name).toBe("marked");
    expect((await withBom(200, [vpc], (c) => c.perform("listVpcs"))).items.map((v) => v.id)).toEqual(["42"]);
    expect((await withBom(200, vpc, (c) => c.perform("getVpc", { vpc: "42" }), true)).cidr).toBe("10.4.0.0/16");
  });

  it("an error answer after a byte order mark keeps its code, message and details", async () => {
    const err = await withBom(400, { code: "CIDR_TAKEN", message: "no VPC 42", details: "cidr overlaps 7" }, (c) =>
      c.perform("getVpc", { vpc: "42" }).then(
        () => new Error("the call succeeded"),
        (e: unknown) => e,
      ),
    );
    expect([(err as { code?: string }).code, (err as { details?: string }).details]).toEqual(["CIDR_TAKEN", "cidr overlaps 7"]);
    expect((err as Error).message).toContain("no VPC 42");
    expect((err as Error).message).not.toContain("\ufeff");
  });
});
