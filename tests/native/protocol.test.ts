/**
 * The native plugin's server, as the engine talks to it over gRPC (its server in this process,
 * support.ts `NativePlugin.forBehaviour`; with `CLOUDDB_NATIVE_HOST=process`, the compiled
 * plugin as a process and a fake engine for its Log): the schema it serves, the provider's configuration, Check,
 * Diff (changed keys and the detailed diff the engine applies `replaceOnChanges` with),
 * previews, Read of an id alone (`pulumi import`), state the dynamic providers wrote, a
 * Create without Check, the same Create sent several times at once, and the functions.
 */
import * as fs from "fs";
import * as path from "path";
import type { RunningEmulator } from "../../emulator";
import type { EmulatorControl } from "../../emulator/control-client";
import { REPO_ROOT } from "../../harness";
import type { ClouddbClient } from "../../provider/client";
import { behaviourRig, isSecret, secret, UNKNOWN, urnOf, type BehaviourRig, type NativePlugin } from "./support";

const KIND = { ADD: 0, ADD_REPLACE: 1, DELETE: 2, DELETE_REPLACE: 3, UPDATE: 4, UPDATE_REPLACE: 5 };

describe("the native plugin's protocol", () => {
  let rig: BehaviourRig;
  let emu: RunningEmulator;
  let plugin: NativePlugin;
  let api: ClouddbClient;
  let control: EmulatorControl;
  beforeAll(async () => {
    rig = await behaviourRig();
    ({ emu, plugin, api, control } = rig);
  });
  afterAll(() => rig.close());

  it("serves schema.json, at the package's version, each resource aliasing its dynamic type", async () => {
    const served = await plugin.schema();
    expect(served).toEqual(JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "schema.json"), "utf8")));
    expect(served.version).toBe((JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version);
    const resources = served.resources as Record<string, { aliases: unknown }>;
    expect(resources["clouddb:index:Service"].aliases).toEqual([{ type: "pulumi-nodejs:dynamic/clouddb:Service" }]);
  });

  it("announces preview support and secrets at Configure", async () => {
    expect(await plugin.configure(rig.config)).toEqual({
      supportsPreview: true,
      acceptSecrets: true,
    });
  });

  it("CheckConfig names an unknown key and each bad value given, and what is allowed; what is not given is no failure", async () => {
    const failures = await plugin.checkConfig({ apiUrl: "https://api.example", createTimeout: "soon", apiKeyy: "x", version: "0.1.0" });
    expect(failures).toEqual([
      {
        property: "apiKeyy",
        reason: expect.stringMatching(/^apiKeyy is no configuration key of clouddb; the keys are: apiUrl, apiKey, projectId/),
      },
      { property: "apiUrl", reason: expect.stringContaining('"https://api.example" does not end in /public/api/v1') },
      { property: "createTimeout", reason: expect.stringContaining('"soon" is not a duration') },
    ]);
    expect(await plugin.checkConfig({ projectId: "p" })).toEqual([]);
    expect(await plugin.checkConfig({ createTimeout: 600, requestTimeout: "45s" })).toEqual([]);
  });

  it("CheckConfig fails each key given a type it does not take, naming the key and the type, never the value", async () => {
    const key = "sk-typed-provider-4242";
    const failures = await plugin.checkConfig({
      apiUrl: 42,
      apiKey: { token: key },
      projectId: ["abcde12345"],
      createTimeout: true,
      pollInterval: { every: 5 },
      readCache: JSON.stringify([2]), // a structured stack config value of the default provider arrives as its JSON text
      updateTimeout: 600, // a number of seconds is a duration
    });
    const string = "where a string is expected";
    const duration = 'where a number of seconds or a string such as "90s", "30m", "1h30m" is expected';
    expect(failures).toEqual([
      { property: "apiUrl", reason: `clouddb:apiUrl / CLOUDDB_API_URL (from clouddb:apiUrl): a number ${string}` },
      // The key is a secret: the engine prints a failing property's value, so it is named only in the reason.
      { property: "", reason: `clouddb:apiKey / CLOUDDB_API_KEY (from clouddb:apiKey): an object ${string}` },
      { property: "readCache", reason: `clouddb:readCache: an array (a structured config value, which arrives as JSON) ${duration}` },
      { property: "projectId", reason: `clouddb:projectId / CLOUDDB_PROJECT_ID (from clouddb:projectId): an array ${string}` },
      { property: "createTimeout", reason: `clouddb:createTimeout: a boolean ${duration}` },
      {
        property: "pollInterval",
        reason: `clouddb:pollInterval / CLOUDDB_POLL_INITIAL_MS (from clouddb:pollInterval): an object ${duration}`,
      },
    ]);
    expect(JSON.stringify(failures)).not.toContain(key);
  });

  it("CheckConfig hands the engine no property whose value it would print holding a secret: apiUrl's userinfo, apiKey, a value given as a secret", async () => {
    // The engine prints a failure naming a property with that property's value, whole: the failure must name none.
    const password = "pw-Zq8vX2mK";
    const failures = await plugin.checkConfig({
      apiUrl: `https://ops:${password}@api.example/v2`,
      apiKey: "bad\nkey-1234",
      createTimeout: secret("whenever"),
      updateTimeout: secret("5x"),
    });
    expect(failures).toEqual([
      {
        property: "",
        reason: expect.stringMatching(/^clouddb:apiUrl .*"https:\/\/\[REDACTED\]@api\.example\/v2" does not end in \/public\/api\/v1/),
      },
      { property: "", reason: expect.stringMatching(/^clouddb:apiKey .*the key contains a line break/) },
      { property: "", reason: expect.stringMatching(/^clouddb:createTimeout: \[secret\] is not a duration/) },
      { property: "", reason: expect.stringMatching(/^clouddb:updateTimeout: \[secret\] is not a duration/) },
    ]);
    const text = JSON.stringify(failures);
    for (const shown of [password, "ops:", "bad\\nkey", "whenever", '"5x"']) expect(text).not.toContain(shown);
  });

  it("Check quotes no input given as a secret, nested or not, and names none of them as the failing property", async () => {
    const r = await plugin.check(urnOf("Service", "db"), {
      name: secret("n".repeat(300)),
      environment: secret("STAGING"),
      cpuMillis: secret(1000),
      memoryGbs: 2,
      haReplicas: { replicaCount: secret(7) },
    });
    const reasons = r.failures.map((f) => f.reason);
    // The size pair's failure is on memoryGbs, given in plain text: the engine may print its value.
    expect(r.failures.map((f) => f.property).sort()).toEqual(["", "", "", "memoryGbs"]);
    expect(reasons).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^name is \[secret\]: /),
        expect.stringMatching(/^environment is \[secret\]: expected /),
        expect.stringMatching(/^haReplicas\.replicaCount is \[secret\]: /),
        expect.stringMatching(/^cpuMillis \[secret\] with memoryGbs 2: not an allowed pair/),
      ]),
    );
    for (const shown of ["nnnn", "STAGING", "1000 with", " 7"]) expect(reasons.join("\n")).not.toContain(shown);
    expect(reasons.join("\n")).toContain("1000/4"); // the allowed sizes stay as they are: no gap points at the secret one
    expect(isSecret(r.inputs.name)).toBe(true);
    expect(isSecret(r.inputs.environment)).toBe(true);
    // `settings` (the dynamic providers' input, which 0.2.0's SDKs sent as a secret) is no input here: named in the reason alone, the key never.
    const settings = await plugin.check(urnOf("Service", "db"), {
      name: "db",
      settings: secret({ apiUrl: "https://api.example/v2", apiKey: "settings-key-123456" }),
    });
    expect(settings.failures).toEqual([{ property: "", reason: expect.stringContaining("settings is not an input of clouddb.Service") }]);
    expect(JSON.stringify(settings.failures)).not.toContain("settings-key-123456");
  });

  it("CheckConfig takes clouddb:ownership as the engine hands a stack config object over (its JSON text) and as an explicit provider's object, and names a bad one", async () => {
    expect(await plugin.checkConfig({ ownership: JSON.stringify({ Service: { abcde12345: "made" } }) })).toEqual([]);
    expect(await plugin.checkConfig({ ownership: { Vpc: { "12": "adopted" } } })).toEqual([]);
    expect(await plugin.checkConfig({ ownership: { Service: { abcde12345: "deleted" } } })).toEqual([
      { property: "ownership", reason: expect.stringContaining('Service abcde12345 is "deleted": expected "made" or "adopted"') },
    ]);
  });

  it("CheckConfig keeps an explicit provider's apiKey secret, even one given in plain text", async () => {
    const inputs = await plugin.checkedConfig({ apiUrl: emu.baseUrl, apiKey: "plain-key-123456", projectId: "p" });
    expect(isSecret(inputs.apiKey)).toBe(true);
    expect(inputs.apiUrl).toBe(emu.baseUrl);
  });

  it("DiffConfig: a new key or endpoint is an update of the provider, which replaces nothing", async () => {
    const olds = { apiUrl: emu.baseUrl, apiKey: secret("old-key-123456"), projectId: "p", version: "0.1.0" };
    expect(await plugin.diffConfig(olds, { ...olds, apiKey: secret("new-key-123456") })).toEqual({
      changes: 2,
      replaces: [],
      diffs: ["apiKey"],
    });
    expect(await plugin.diffConfig(olds, { ...olds, version: "0.2.0" })).toEqual({ changes: 1, replaces: [], diffs: [] });
  });

  it("Check names the property, the value and what is allowed; the owner it derives from the URN is not kept", async () => {
    const bad = await plugin.check(urnOf("Vpc", "net"), { cidr: "10.0.0.0/8", regionCode: "mars-1" });
    expect(bad.failures.map((f) => f.property).sort()).toEqual(["cidr", "regionCode"]);
    expect(bad.failures.find((f) => f.property === "cidr")?.reason).toBe(
      'cidr is "10.0.0.0/8": expected a prefix length of /16 to /28, not /8',
    );
    const good = await plugin.check(urnOf("Vpc", "net"), { cidr: "10.0.0.0/16", regionCode: "us-east-1" });
    expect(good.failures).toEqual([]);
    expect(good.inputs).toMatchObject({ cidr: "10.0.0.0/16", name: expect.stringMatching(/^net-[0-9a-f]{7}$/), __autonamed: true });
    expect(good.inputs).not.toHaveProperty("__owner");
    const kept = await plugin.check(urnOf("Vpc", "net"), { cidr: "10.0.0.0/16", regionCode: "us-east-1" }, good.inputs);
    expect(kept.inputs.name).toBe(good.inputs.name);
    await expect(plugin.check(urnOf("Bucket", "b"), {})).rejects.toThrow(
      'clouddb serves no resource type "clouddb:index:Bucket": it serves clouddb:index:ReadReplicaSet, clouddb:index:Service, clouddb:index:Vpc, clouddb:index:VpcPeering',
    );
  });

  it("Check marks the secret inputs secret, however they arrive", async () => {
    const r = await plugin.check(urnOf("Service", "db"), { name: "db", password: "a-long-password" });
    expect(r.failures).toEqual([]);
    expect(isSecret(r.inputs.password)).toBe(true);
  });

  it("Diff lists the changed keys, and the deepest changed paths as the detailed diff, replacements as such", async () => {
    const recorded = {
      serviceId: "s1",
      name: "db",
      serviceType: "TIMESERIES",
      regionCode: "us-east-1",
      status: "READY",
      cpuMillis: 500,
      memoryGbs: 2,
      haReplicas: { replicaCount: 0, syncReplicaCount: 0 },
      environment: "DEV",
      connectionPooler: false,
      paused: false,
      projectId: emu.projectId,
      __adopted: false,
    };
    const d = await plugin.diff(urnOf("Service", "db"), "s1", recorded, {
      name: "db2",
      haReplicas: { replicaCount: 1, syncReplicaCount: 0 },
      cpuMillis: 500,
      memoryGbs: 2,
    });
    expect(d.changes).toBe(2); // DIFF_SOME
    expect(d.diffs.sort()).toEqual(["haReplicas", "name"]);
    expect(d.replaces).toEqual(["name"]);
    expect(d.detailed).toEqual({ name: KIND.UPDATE_REPLACE, "haReplicas.replicaCount": KIND.UPDATE });
    const same = await plugin.diff(urnOf("Service", "db"), "s1", recorded, { name: "db", cpuMillis: 500, memoryGbs: 2 });
    expect(same).toEqual({ changes: 1, replaces: [], diffs: [], detailed: {} }); // DIFF_NONE
    const unknown = await plugin.diff(urnOf("Service", "db"), "s1", recorded, { name: UNKNOWN, cpuMillis: 500, memoryGbs: 2 });
    expect(unknown).toMatchObject({ changes: 2, replaces: ["name"], diffs: ["name"] });
    // State recorded from an answer the provider could not read (a region ""): an update that records the live one, no key named (the engine applies replaceOnChanges to the keys).
    const blank = await plugin.diff(
      urnOf("Service", "db"),
      "s1",
      { ...recorded, regionCode: "" },
      { name: "db", cpuMillis: 500, memoryGbs: 2 },
    );
    expect(blank).toEqual({ changes: 2, replaces: [], diffs: [], detailed: {} });
  });

  it("reads state the dynamic providers wrote (a migration): 0.1.0's, without __adopted, is an update recording it, with no changed key", async () => {
    const dynamicState = {
      __provider: "exports.handler = ...",
      vpcId: "1",
      name: "net",
      cidr: "10.0.0.0/16",
      regionCode: "us-east-1",
      projectId: emu.projectId,
    };
    const d = await plugin.diff(urnOf("Vpc", "net"), "1", dynamicState, {
      __provider: "x",
      __owner: "p/s/clouddb.Vpc/net",
      name: "net",
      cidr: "10.0.0.0/16",
      regionCode: "us-east-1",
    });
    expect(d).toEqual({ changes: 2, replaces: [], diffs: [], detailed: {} });
    const recorded = await plugin.diff(
      urnOf("Vpc", "net"),
      "1",
      { ...dynamicState, __adopted: false },
      { name: "net", cidr: "10.0.0.0/16", regionCode: "us-east-1" },
    );
    expect(recorded.changes).toBe(1);
  });

  it("previews a create without a request: the inputs known, what the API decides unknown", async () => {
    await control.clearRequests();
    const r = await plugin.create(urnOf("Service", "db"), { name: "db", password: "a-long-password", vpcId: UNKNOWN }, { preview: true });
    expect(r.id).toBe("");
    expect(r.outs).toMatchObject({
      name: "db",
      serviceId: UNKNOWN,
      host: UNKNOWN,
      vpcId: UNKNOWN,
      projectId: emu.projectId,
      __adopted: false,
    });
    expect(isSecret(r.outs.password)).toBe(true);
    expect(await control.requests()).toEqual([]);
  });

  it("a Create without Check (a caller that skipped it) names each input that fails and why, never dumps them, and sends nothing", async () => {
    await control.clearRequests();
    const failure = async (urn: string, news: Parameters<NativePlugin["create"]>[1]) =>
      plugin.create(urn, news).then(
        () => "created",
        (e: unknown) => (e as Error).message,
      );
    const unnamed = await failure(urnOf("Vpc", "net"), { cidr: "10.0.0.0/16", regionCode: "us-east-1" });
    expect(unnamed).toContain("The create of clouddb.Vpc got inputs that Check does not pass, so nothing was sent");
    expect(unnamed).toContain("name is not given, nor made up by Check");
    const secretName = "my-secret-name\u0001x";
    const bad = await failure(urnOf("Service", "db"), {
      name: secret(secretName),
      cpuMillis: "lots",
      password: secret("tiny"),
      regionCode: 5,
    });
    expect(bad).toContain('cpuMillis is "lots": expected a number (or "shared"), not a string');
    expect(bad).toContain("regionCode is 5: expected a string, not a number");
    expect(bad).toContain("password is [secret]: expected at least 8 characters");
    expect(bad).not.toContain("my-secret-name");
    expect(bad).not.toMatch(/"code":|"path":|^\[/); // no JSON dump of the issues or the inputs
    expect(await control.requests()).toEqual([]);
  });

  it.each([
    ["a name of its own", {}],
    ["a name the program chose", { name: "six-at-once" }],
  ])("six Creates of one resource at once (%s): one service, the one every Create answers", async (_, inputs) => {
    const urn = urnOf("Service", "six");
    const checked = (await plugin.check(urn, inputs)).inputs;
    await control.clearRequests();
    await control.latency(300); // every Create is under way while the first one's are answered
    let made: Array<{ id: string }>;
    try {
      made = await Promise.all(Array.from({ length: 6 }, () => plugin.create(urn, checked)));
    } finally {
      await control.latency(0);
    }
    const services = (await api.perform("listServices")).items.filter((s) => s.name === checked.name);
    for (const s of services) await api.perform("deleteService", { service: s.service_id });
    expect(services.map((s) => s.service_id)).toEqual([made[0].id]);
    expect(made.map((m) => m.id)).toEqual(Array(6).fill(made[0].id));
    expect((await control.requests()).filter((r) => r.method === "POST" && r.path.endsWith("/services"))).toHaveLength(1);
  });

  it("reads an id alone (pulumi import): the inputs read back, and the stack managing it", async () => {
    const vpc = await api.perform("createVpc", { body: { name: "legacy", cidr: "10.9.0.0/16", region_code: "us-east-1" } });
    const r = await plugin.read(urnOf("Vpc", "legacy"), vpc.id);
    expect(r.id).toBe(vpc.id);
    expect(r.inputs).toEqual({ name: "legacy", cidr: "10.9.0.0/16", regionCode: "us-east-1", projectId: emu.projectId });
    expect(r.outs).toMatchObject({ vpcId: vpc.id, name: "legacy", __adopted: false });
    await expect(plugin.read(urnOf("Vpc", "nothing"), "999999")).rejects.toThrow(/No Vpc with id "999999"/);
  });

  it("runs the functions with the provider's configuration; a missing or unknown argument is a failure naming it", async () => {
    const vpcs = await plugin.invoke("clouddb:index:getVpcs", {});
    expect((vpcs.result.vpcs as Array<{ name: string }>).map((v) => v.name)).toContain("legacy");
    expect((await plugin.invoke("clouddb:index:getAuthInfo", {})).result).toMatchObject({ type: "apiKey" });
    const missing = await plugin.invoke("clouddb:index:getService", { projectid: "x" });
    expect(missing.failures).toEqual([
      { property: "serviceId", reason: "serviceId is required: The service's id." },
      {
        property: "projectid",
        reason: expect.stringMatching(/^projectid is no argument of this function; its arguments: serviceId, projectId/),
      },
    ]);
    await expect(plugin.invoke("clouddb:index:getVpc", { vpcId: "424242" })).rejects.toThrow(/NOT_FOUND|No VPC|not found/i);
    await expect(plugin.invoke("clouddb:index:getNothing", {})).rejects.toThrow(/clouddb has no function "clouddb:index:getNothing"/);
  });
});
