/**
 * A credential the API refused stops the client at the first refusal: after a 401 nothing
 * more is sent with the key, after a 403 nothing more to that project; the requests after it
 * fail at once, unsent, with the refusal's status and words. Counted in the emulator's
 * request log, over real HTTP.
 */
import { AuthenticationError, type ClouddbClient, PermissionError } from "../../provider/client";
import { clientOf, control, type Emu, requestLog, startEmulator } from "./emulatorControl";

const VPC = { name: "net", cidr: "10.0.0.0/16", region_code: "us-east-1" } as const;

describe("a refused credential", () => {
  let emu: Emu;
  const clients: ClouddbClient[] = [];
  const client = (options: Parameters<typeof clientOf>[1] = {}): ClouddbClient => {
    const c = clientOf(emu, options);
    clients.push(c);
    return c;
  };
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, clockScale: 0.01 });
  });
  beforeEach(async () => {
    await control(emu, "POST", "/reset");
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
  });
  afterAll(async () => {
    await emu.close();
  });

  it("sends no create after the key's read was refused (401): one request, not two", async () => {
    const c = client({ apiKey: "not-the-emulators-key" });
    await expect(c.perform("listServices")).rejects.toBeInstanceOf(AuthenticationError);
    const err = await c.perform("createService", { body: { name: "db" } }).catch((e: unknown) => e);
    expect(AuthenticationError.isInstance(err)).toBe(true);
    expect((err as AuthenticationError).status).toBe(401);
    expect((err as Error).message).toMatch(
      /\(not sent: the API refused GET \/projects\/\w+\/services at \S+Z, and this client sends nothing more with this key\)/,
    );
    expect((await requestLog(emu)).map((r) => `${r.method} ${r.status}`)).toEqual(["GET 401"]);
  });

  it("sends one of twenty creates made at once with a refused key", async () => {
    const c = client({ apiKey: "not-the-emulators-key" });
    const errors = await Promise.all(
      Array.from({ length: 20 }, (_, i) => c.perform("createService", { body: { name: `db-${i}` } }).catch((e: unknown) => e)),
    );
    expect(errors.filter((e) => AuthenticationError.isInstance(e))).toHaveLength(20);
    expect(errors.filter((e) => /not sent/.test((e as Error).message))).toHaveLength(19);
    expect((await requestLog(emu)).map((r) => `${r.method} ${r.status}`)).toEqual(["POST 401"]);
  });

  it("after a 403, sends nothing more to that project, and goes on with the projects the key reaches", async () => {
    const c = client();
    const other = emu.secondProjectId;
    await expect(c.perform("listVpcs", { projectId: other })).rejects.toBeInstanceOf(PermissionError);
    const err = await c.perform("createVpc", { projectId: other, body: VPC }).catch((e: unknown) => e);
    expect(PermissionError.isInstance(err)).toBe(true);
    expect((err as PermissionError).projectId).toBe(other);
    expect((err as Error).message).toContain(`not sent: the API refused GET /projects/${other}/vpcs at`);
    expect((err as Error).message).toContain(`nothing more to project ${other} with this key`);
    await expect(c.perform("createVpc", { body: VPC })).resolves.toMatchObject({ name: "net" });
    expect((await requestLog(emu)).map((r) => `${r.method} ${r.status} ${r.path.includes(other) ? "other" : "own"}`)).toEqual([
      "GET 403 other",
      "POST 201 own",
    ]);
  });

  it("takes a 429 or a 5xx for no word on the key: the create after them is sent", async () => {
    const c = client({ retryDeadlineMs: 200 });
    await control(emu, "POST", "/faults", { method: "GET", path: "/vpcs$", status: 503, count: 10 });
    await expect(c.perform("listVpcs")).rejects.toMatchObject({ status: 503 });
    await expect(c.perform("createVpc", { body: VPC })).resolves.toMatchObject({ name: "net" });
    const log = await requestLog(emu);
    expect(log.filter((r) => r.method === "POST").map((r) => r.status)).toEqual([201]);
  });

  it("writes to a project go at once, not one by one, once an answer showed the key reaches it", async () => {
    const c = client();
    await c.perform("listVpcs");
    await control(emu, "POST", "/faults", { method: "POST", path: "/vpcs$", status: 503, count: 1, holdMs: 400 });
    const started = Date.now();
    const made = await Promise.allSettled(
      Array.from({ length: 3 }, (_, i) => c.perform("createVpc", { body: { ...VPC, name: `net-${i}`, cidr: `10.${i}.0.0/16` } })),
    );
    const posts = (await requestLog(emu)).filter((r) => r.method === "POST");
    expect(made.filter((m) => m.status === "fulfilled").length).toBeGreaterThanOrEqual(2);
    // The held one did not hold the others back.
    expect(posts.filter((p) => Date.parse(p.at) - started < 350).length).toBeGreaterThanOrEqual(2);
  });
});
