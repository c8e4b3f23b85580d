/** Authentication: auth/info shapes (SPEC 2.1), the PAT's one project, the OAuth user's two. */
import { startEmulator, type RunningEmulator } from "../../emulator";
import { EmulatorApi } from "./support/emulator-api";

let emu: RunningEmulator;
let api: EmulatorApi;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, clockScale: 0.01, pat: "test-pat", oauthToken: "test-oauth", projectId: "proj000001" });
  api = new EmulatorApi(emu);
});
afterAll(() => emu.close());

describe("authentication", () => {
  it("uses the tokens and project id it was given, and makes a different second project", () => {
    expect([emu.pat, emu.oauthToken, emu.projectId]).toEqual(["test-pat", "test-oauth", "proj000001"]);
    expect(emu.secondProjectId).toMatch(/^[a-z0-9]{10}$/);
    expect(emu.secondProjectId).not.toBe(emu.projectId);
  });

  it("describes the PAT as an apiKey bound to the default project", async () => {
    const res = await api.call("GET", "/auth/info");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      type: "apiKey",
      apiKey: {
        public_key: expect.any(String),
        name: expect.any(String),
        created: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/),
        project: { id: "proj000001", name: expect.any(String), plan_type: expect.any(String) },
        issuing_user: { id: expect.any(String), email: expect.stringContaining("@"), name: expect.any(String) },
      },
    });
  });

  it("describes the OAuth token as an oauth user with a numeric string id", async () => {
    const res = await api.call("GET", "/auth/info", { token: emu.oauthToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      type: "oauth",
      oauth: { user: { id: expect.stringMatching(/^[0-9]+$/), email: expect.stringContaining("@"), name: expect.any(String) } },
    });
  });

  it("lets the OAuth user reach both projects, keeping their resources apart", async () => {
    const oauth = { token: emu.oauthToken };
    const vpcBody = { name: "second", cidr: "172.16.0.0/20", region_code: "ap-southeast-2" };
    const created = await api.call("POST", api.p("/vpcs", emu.secondProjectId), { ...oauth, body: vpcBody });
    expect(created.status).toBe(201);
    const svc = await api.call("POST", api.p("/services", emu.secondProjectId), { ...oauth, body: { name: "s2" } });
    expect(svc.status).toBe(202);
    expect(svc.body.project_id).toBe(emu.secondProjectId);
    expect((await api.call("GET", api.p("/vpcs", emu.secondProjectId), oauth)).body).toEqual([created.body]);
    expect((await api.call("GET", api.p("/vpcs"), oauth)).body).toEqual([]);
    expect((await api.call("GET", api.p(`/vpcs/${created.body.id}`), oauth)).status).toBe(404);
    expect((await api.call("GET", api.p("/services"), oauth)).status).toBe(200);
  });

  it("refuses the PAT on the second project with 403, without showing its resources", async () => {
    const res = await api.call("GET", api.p("/vpcs", emu.secondProjectId));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: "FORBIDDEN", message: expect.any(String), details: expect.any(String) });
    expect(res.text).not.toContain("second");
  });

  it("answers 401 UNAUTHORIZED for no header, a wrong scheme, and an unknown token, also on /auth/info", async () => {
    const variants: Array<Record<string, string>> = [
      {},
      { authorization: "Token test-pat" },
      { authorization: "Bearer" },
      { authorization: "Bearer other" },
    ];
    for (const headers of variants) {
      const res = await api.call("GET", "/auth/info", { token: null, headers });
      expect([JSON.stringify(headers), res.status, res.body.code]).toEqual([JSON.stringify(headers), 401, "UNAUTHORIZED"]);
    }
  });

  it("accepts the scheme case-insensitively", async () => {
    expect((await api.call("GET", "/auth/info", { token: null, headers: { authorization: "bearer test-pat" } })).status).toBe(200);
  });
});
