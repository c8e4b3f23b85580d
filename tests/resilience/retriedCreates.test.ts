/**
 * A Create the engine sends again in the same run: an `onError` resource hook asks for a
 * failed create to be retried (Pulumi 3.244 to 3.260 re-send the same Create: the harness's
 * rule X6; 3.274 sends an Update of a partially created resource, checked with
 * CLOUDDB_ENGINE=cli). A service that is made but not ready within `timeouts.create` fails the create
 * partially; the retry must resume that service, not make a second one of the same name.
 */
import * as clouddb from "pulumi-clouddb";
import { startCloud, writes, type Cloud } from "../../harness/cloud";

describe("a create sent again by an onError hook", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    // A service takes about 4 s to be ready: longer than the create's timeout below, which leaves
    // time to send the first create's request however loaded the machine (none is sent past the
    // deadline: a shorter one could make nothing, and the retry would then be the first create).
    cloud = await startCloud({ clockScale: 0.6 });
  });
  afterAll(async () => {
    await cloud.close();
  });

  it("resumes the service the first create made: one service, one POST, its initial password kept", async () => {
    await cloud.clearRequests();
    // The create's answer carries a password the test knows: the only place it is ever shown.
    const initial = "first-answer-Password-1";
    await cloud.controls.rewrite({ method: "POST", path: "/services$", field: "initial_password", value: initial });
    const r = await cloud.stack.up(() => void new clouddb.Service("db", { timeouts: { create: "1500ms" } }), { errorHookRetries: 20 });
    expect(r.errors).toEqual([]);
    expect(r.diagnostics.map((d) => d.message)).toContain("retrying create due to on-error hook request (1/100)");
    const services = (await cloud.api.perform("listServices")).items;
    expect(services.map((s) => s.service_id)).toEqual([cloud.stack.resource("db").id]);
    expect(services[0].status).toBe("READY");
    // The create's POST, and no password reset: the retry kept the password the first answer carried.
    expect(writes(await cloud.requests()).map((w) => `${w.method} ${w.path}`)).toEqual([
      `POST /public/api/v1/projects/${cloud.emulator.projectId}/services`,
    ]);
    expect(cloud.stack.resource("db").outputs.password).toBe(initial);
    // Engines 3.244 to 3.260 send the same Create again (the harness models them); 3.274 sends an Update
    // of the partially created service instead, which resumes it as the next `up` would.
    if (process.env.CLOUDDB_ENGINE !== "cli") {
      expect(cloud.stack.pluginStderr()).toMatch(/service \S+ \("db-[0-9a-f]{7}"\) was made by this same create, which Pulumi sent again/);
    }
  });
});
