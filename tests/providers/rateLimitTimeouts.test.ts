/**
 * A create never fails because other users of the API key hold its rate limit while its own
 * `timeouts` allow waiting; when they do not, the message says the limit was the cause and
 * what to do. Through the real plugin host against the emulator over HTTP, the key limited to
 * 2 requests a second and held by another user of it (harness/keyHolder.ts).
 */
import * as clouddb from "pulumi-clouddb";
import { expectNoErrors } from "../../harness";
import { startCloud, type Cloud } from "../../harness/cloud";
import { holdKey } from "../../harness/keyHolder";

describe("a create against a rate limit others hold", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.controls.rateLimit(0);
    await cloud.close();
  });

  const hold = (ms: number) => holdKey(cloud.emulator.baseUrl, cloud.emulator.pat, cloud.emulator.projectId, ms);

  it("waits its turn and succeeds while its timeouts allow", async () => {
    await cloud.controls.rateLimit(2, { retryAfter: true });
    const held = hold(5_000);
    const r = await cloud.stack.up(() => void new clouddb.Service("db", { name: "patient", timeouts: { create: "2m" } }));
    expectNoErrors(r);
    expect((await held)[429]).toBeGreaterThan(0);
    await cloud.controls.rateLimit(0);
    expectNoErrors(await cloud.stack.destroy());
  }, 120_000);

  it("fails once its timeouts run out, saying the rate limit was the cause and what to do", async () => {
    await cloud.controls.rateLimit(2, { retryAfter: true });
    const held = hold(6_000);
    // The holder alone may leave the create a free slot on a busy machine: every POST of a
    // service is refused as the limit refuses it, so the create never gets one.
    await cloud.controls.fault({ method: "POST", path: "/services$", status: 429, retryAfter: 1, count: 10_000 });
    const r = await cloud.stack.up(() => void new clouddb.Service("db", { name: "impatient", timeouts: { create: "3s" } }));
    await held;
    await cloud.control("DELETE", "/faults");
    const message = r.errors.map((e) => e.message).join("\n");
    expect(message).toMatch(/The API's rate limit held creating Service "db" back until its timeouts ran out \(create: 3s\)/);
    expect(message).toMatch(/429 RATE_LIMITED/);
    expect(message).toMatch(
      /Give the resource a longer `timeouts.create` \(`customTimeouts.create` on the native plugin\), or every resource with `pulumi config set clouddb:createTimeout 1h`/,
    );
    expect(message).toMatch(/or run fewer stacks at once with this API key/);
    await cloud.controls.rateLimit(0);
    expect((await cloud.api.perform("listServices", {})).items.map((s) => s.name)).not.toContain("impatient");
  }, 120_000);
});
