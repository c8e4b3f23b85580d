/**
 * Explicit settings (`settings` on a resource): one program manages resources in two APIs,
 * projects or keys, as a Registry package's explicit provider instances allow. The key stays
 * secret; refresh and destroy reach each resource's own API; check judges each resource by the
 * settings it is in.
 */
import * as pulumi from "@pulumi/pulumi";
import * as clouddb from "pulumi-clouddb";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { expectNoErrors, printed, TestStack, type Program } from "../../harness";
import { ops, stackConfig, startCloud, type Cloud } from "../../harness/cloud";
import { ClouddbClient } from "../../provider/client";

describe("a program in two APIs", () => {
  let cloud: Cloud;
  let other: RunningEmulator;
  let otherApi: ClouddbClient;
  beforeAll(async () => {
    cloud = await startCloud();
    other = await startEmulator({ port: 0, clockScale: 0.02, pat: "the-other-key-0001" });
    otherApi = new ClouddbClient({ apiUrl: other.baseUrl, apiKey: other.pat, projectId: other.projectId });
  });
  afterAll(async () => {
    await cloud.close();
    await otherApi.close();
    await other.close();
  });

  const program: Program = () => {
    const elsewhere = { apiUrl: other.baseUrl, apiKey: pulumi.secret(other.pat), projectId: other.projectId };
    new clouddb.Vpc("here", { name: "here-net", cidr: "10.60.0.0/16", regionCode: "us-east-1" });
    const net = new clouddb.Vpc("there", { name: "there-net", cidr: "10.61.0.0/16", regionCode: "us-east-1", settings: elsewhere });
    const db = new clouddb.Service("there-db", { name: "there-db", vpcId: net.vpcId, settings: elsewhere });
    return { host: db.host };
  };

  it("makes each resource in its own API, keeps the key secret, and refreshes and destroys each there", async () => {
    const r = expectNoErrors(await cloud.stack.up(program));
    expect(ops(r)).toEqual({ here: "create", there: "create", "there-db": "create" });
    expect((await cloud.api.perform("listVpcs", {})).items.map((v) => v.name)).toEqual(["here-net"]);
    expect((await otherApi.perform("listVpcs", {})).items.map((v) => v.name)).toEqual(["there-net"]);
    expect((await otherApi.perform("listServices", {})).items.map((s) => s.name)).toEqual(["there-db"]);
    expect(cloud.stack.resource("there").outputs.projectId).toBe(other.projectId);
    expect(cloud.stack.plaintextState()).not.toContain(other.pat);
    expect(printed(r)).not.toContain(other.pat);

    expect(ops(expectNoErrors(await cloud.stack.up(program)))).toEqual({ here: "same", there: "same", "there-db": "same" });
    const refreshed = expectNoErrors(await cloud.stack.refresh());
    expect(refreshed.steps.every((s) => s.op === "same")).toBe(true);

    expectNoErrors(await cloud.stack.destroy());
    expect((await cloud.api.perform("listVpcs", {})).items).toEqual([]);
    expect((await otherApi.perform("listVpcs", {})).items).toEqual([]);
    expect((await otherApi.perform("listServices", {})).items).toEqual([]);
  });

  it("judges each resource by its own settings in check: a stack without a key fails only the resources that need it", async () => {
    const { "clouddb:apiKey": _key, ...withoutKey } = stackConfig(cloud.emulator);
    void _key;
    const stack = await TestStack.create({ config: withoutKey, project: "two-apis" });
    try {
      const r = await stack.preview(program);
      expect(r.checkFailures.map((f) => f.name)).toEqual(["here"]);
      expect(r.checkFailures[0].reason).toMatch(/clouddb:apiKey \/ CLOUDDB_API_KEY/);
      const alone = await stack.preview(
        () =>
          void new clouddb.Vpc("there", {
            cidr: "10.62.0.0/16",
            regionCode: "us-east-1",
            settings: { apiUrl: other.baseUrl, apiKey: other.pat },
          }),
      );
      expect(alone.checkFailures).toEqual([]);
    } finally {
      await stack.close();
    }
  });

  it("refuses settings that cannot work before anything is sent, without printing the key", async () => {
    await cloud.clearRequests();
    const r = await cloud.stack.up(
      () =>
        void new clouddb.Vpc("bad", {
          cidr: "10.63.0.0/16",
          regionCode: "us-east-1",
          settings: { apiUrl: "https://api.example", apiKey: "line\nbreak" },
        }),
    );
    const reasons = r.checkFailures.map((f) => f.reason).join("\n");
    expect(reasons).toMatch(/settings\.apiUrl.*does not end in \/public\/api\/v1/);
    expect(reasons).toMatch(/settings\.apiKey.*line break/);
    expect(printed(r)).not.toContain("line\nbreak");
    expect(await cloud.requests()).toEqual([]);
  });

  it("never prints the credentials of a settings.apiUrl that cannot work (userinfo, query)", async () => {
    const r = await cloud.stack.preview(
      () =>
        void new clouddb.Vpc("userinfo", {
          cidr: "10.64.0.0/16",
          regionCode: "us-east-1",
          settings: { apiUrl: "https://admin:hunter2-pw@api.example/v2?token=tok-abcdef", apiKey: "k-123456" },
        }),
    );
    const reasons = r.checkFailures.map((f) => f.reason).join("\n");
    expect(reasons).toContain('"https://[REDACTED]@api.example/v2?[REDACTED]" has a query or fragment');
    for (const part of ["hunter2-pw", "admin", "tok-abcdef"]) {
      expect(printed(r)).not.toContain(part);
      expect(cloud.stack.pluginStderr()).not.toContain(part);
    }
  });
});
