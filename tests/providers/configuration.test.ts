/**
 * Configuration as a user meets it: every problem of the `clouddb:*` settings is reported
 * at once, by a preview as well as an up, each naming its config key and the variable it
 * falls back to; and an API that cannot be reached, or refuses the key, is told in the
 * user's terms (what they were creating, which setting to check), not the client's.
 */
import { deadPort } from "../../harness/emulatorProcess";
import * as clouddb from "pulumi-clouddb";
import { expectNoErrors, TestStack } from "../../harness";
import { startCloud, stackConfig, type Cloud } from "../../harness/cloud";

/** None of the CLOUDDB_* variables the providers read, whatever this process has. */
const NO_ENV = {
  CLOUDDB_API_URL: "",
  CLOUDDB_API_KEY: "",
  CLOUDDB_PROJECT_ID: "",
  CLOUDDB_POLL_INITIAL_MS: "",
  CLOUDDB_POLL_MAX_MS: "",
  CLOUDDB_OWNERSHIP: "",
};

const vpc = (): void => void new clouddb.Vpc("net", { name: "n", cidr: "10.0.0.0/16", regionCode: "us-east-1" });

describe("configuration problems", () => {
  const stacks: TestStack[] = [];
  const stackWith = async (config: Record<string, string>, env: Record<string, string> = {}): Promise<TestStack> => {
    const stack = await TestStack.create({ config, secretKeys: ["clouddb:apiKey"], env: { ...NO_ENV, ...env } });
    stacks.push(stack);
    return stack;
  };
  afterAll(async () => {
    for (const s of stacks) await s.close();
  });

  const everyProblem = [
    "clouddb:apiUrl / CLOUDDB_API_URL: neither is set: run `pulumi config set clouddb:apiUrl https://<host>/public/api/v1` or set CLOUDDB_API_URL",
    "clouddb:apiKey / CLOUDDB_API_KEY: neither is set: run `pulumi config set --secret clouddb:apiKey <key>` or set CLOUDDB_API_KEY",
    'clouddb:createTimeout: "soon" is not a duration: give a number of seconds (e.g. 600) or a string such as "90s", "30m", "1h30m"',
    'clouddb:pollInterval / CLOUDDB_POLL_INITIAL_MS (from clouddb:pollInterval): "often" is not a duration: give a number of seconds (e.g. 600) or a string such as "90s", "30m", "1h30m"',
    "clouddb:projectId / CLOUDDB_PROJECT_ID: neither is set: run `pulumi config set clouddb:projectId <project id>`, set CLOUDDB_PROJECT_ID or give the resource a projectId",
  ];

  it("are all reported by a preview, each naming its clouddb: key and its CLOUDDB_ variable", async () => {
    const stack = await stackWith({ "clouddb:createTimeout": "soon", "clouddb:pollInterval": "often" });
    const r = await stack.preview(vpc);
    expect(r.checkFailures).toEqual(everyProblem.map((reason) => ({ name: "net", property: "", reason })));
    expect(r.steps.filter((s) => s.op !== "same")).toEqual([]);
  });

  it("are all reported by an up, the same way, and nothing is made", async () => {
    const stack = await stackWith({ "clouddb:createTimeout": "soon", "clouddb:pollInterval": "often" });
    const r = await stack.up(vpc);
    expect(r.checkFailures.map((f) => f.reason)).toEqual(everyProblem);
    expect(stack.resources()).toEqual([]);
  });

  it("say where a value that cannot work came from, config or variable, and never quote the key", async () => {
    const key = "sk-split\nin-two-123456";
    const stack = await stackWith(
      { "clouddb:apiUrl": "http://127.0.0.1:8787", "clouddb:projectId": "abcde12345" },
      { CLOUDDB_API_KEY: key, CLOUDDB_POLL_MAX_MS: "-5" },
    );
    const r = await stack.preview(vpc);
    expect(r.checkFailures.map((f) => f.reason)).toEqual([
      'clouddb:apiUrl / CLOUDDB_API_URL (from clouddb:apiUrl): "http://127.0.0.1:8787" does not end in /public/api/v1, ' +
        `the API's base path: use "http://127.0.0.1:8787/public/api/v1"`,
      "clouddb:apiKey / CLOUDDB_API_KEY (from CLOUDDB_API_KEY): the key contains a line break at position 9 of 22: " +
        "it cannot be sent in the Authorization header. Copy the key again, without line breaks or spaces around it.",
      'clouddb:pollMaxInterval / CLOUDDB_POLL_MAX_MS (from CLOUDDB_POLL_MAX_MS): "-5" is not a number of 1 or more (milliseconds)',
    ]);
    const printed = [...r.checkFailures.map((f) => f.reason), ...r.diagnostics.map((d) => d.message), stack.pluginStderr()].join("\n");
    for (const part of key.split("\n")) expect(printed).not.toContain(part);
  });

  it("name a clouddb:ownership or CLOUDDB_OWNERSHIP that cannot be read, its value and what is allowed, at preview", async () => {
    const stack = await stackWith(
      { "clouddb:ownership": JSON.stringify({ Service: { abcde12345: "mine" } }) },
      { CLOUDDB_OWNERSHIP: '{"Database":{"abcde12345":"made"}}' },
    );
    const reasons = (await stack.preview(vpc)).checkFailures.map((f) => f.reason);
    expect(reasons).toEqual(
      expect.arrayContaining([
        'clouddb:ownership / CLOUDDB_OWNERSHIP (from clouddb:ownership): Service abcde12345 is "mine": expected "made" or "adopted"',
        expect.stringMatching(
          /^clouddb:ownership \/ CLOUDDB_OWNERSHIP \(from CLOUDDB_OWNERSHIP\): "Database" is no resource type: expected one of ReadReplicaSet, Service, Vpc, VpcPeering/,
        ),
      ]),
    );
  });

  it("never quote the credentials of a clouddb:apiUrl that cannot work", async () => {
    const stack = await stackWith({
      "clouddb:apiUrl": "https://deploy:hunter2-pw@api.example",
      "clouddb:apiKey": "k-123456",
      "clouddb:projectId": "abcde12345",
    });
    const r = await stack.preview(vpc);
    expect(r.checkFailures.map((f) => f.reason)).toEqual([
      'clouddb:apiUrl / CLOUDDB_API_URL (from clouddb:apiUrl): "https://[REDACTED]@api.example" does not end in /public/api/v1, ' +
        `the API's base path: use "https://api.example/public/api/v1"`,
    ]);
    const shown = [...r.checkFailures.map((f) => f.reason), ...r.diagnostics.map((d) => d.message), stack.pluginStderr()].join("\n");
    for (const part of ["hunter2-pw", "deploy:"]) expect(shown).not.toContain(part);
  });

  it("a value of a type the key does not take (a structured stack config value, a variable, a resource's settings) fails the check, naming the key and the type, never the value", async () => {
    const key = "sk-structured-4242";
    const stack = await stackWith(
      {
        "clouddb:apiKey": JSON.stringify({ token: key }), // a map under the key in the stack's YAML arrives as its JSON text
        "clouddb:projectId": JSON.stringify(["abcde12345"]),
        "clouddb:createTimeout": JSON.stringify({ minutes: 5 }),
        "clouddb:readCache": "[2]",
      },
      { CLOUDDB_API_URL: JSON.stringify({ url: "http://127.0.0.1:1/public/api/v1" }) },
    );
    const r = await stack.preview(vpc);
    expect(r.checkFailures.map((f) => f.reason)).toEqual([
      "clouddb:apiUrl / CLOUDDB_API_URL (from CLOUDDB_API_URL): an object (a structured config value, which arrives as JSON) where a string is expected",
      "clouddb:apiKey / CLOUDDB_API_KEY (from clouddb:apiKey): an object (a structured config value, which arrives as JSON) where a string is expected",
      'clouddb:readCache: an array (a structured config value, which arrives as JSON) where a number of seconds or a string such as "90s", "30m", "1h30m" is expected',
      "clouddb:projectId / CLOUDDB_PROJECT_ID (from clouddb:projectId): an array (a structured config value, which arrives as JSON) where a string is expected",
      'clouddb:createTimeout: an object (a structured config value, which arrives as JSON) where a number of seconds or a string such as "90s", "30m", "1h30m" is expected',
    ]);
    expect(r.steps.filter((s) => s.op !== "same")).toEqual([]);
    const settingsStack = await stackWith({ "clouddb:apiUrl": "http://127.0.0.1:1/public/api/v1", "clouddb:projectId": "abcde12345" });
    const withSettings = await settingsStack.preview(() => {
      // What a JavaScript program (no type check) or `as never` can pass.
      new clouddb.Vpc("net", {
        cidr: "10.0.0.0/16",
        regionCode: "us-east-1",
        settings: { apiKey: { token: key }, projectId: ["x"] } as never,
      });
    });
    expect(withSettings.checkFailures.map((f) => f.reason)).toEqual([
      "settings.apiKey is [secret]: expected a string, not an object",
      "settings.projectId is [secret]: expected a string, not an array",
    ]);
    const shown = [r, withSettings]
      .flatMap((x) => [...x.checkFailures.map((f) => f.reason), ...x.diagnostics.map((d) => d.message)])
      .concat(stack.pluginStderr(), settingsStack.pluginStderr())
      .join("\n");
    expect(shown).not.toContain(key);
  });

  it("fail a lookup function in the program with the same messages, leaving out what its options give", async () => {
    const saved = Object.fromEntries(Object.keys(NO_ENV).map((k) => [k, process.env[k]]));
    Object.assign(process.env, NO_ENV); // the function runs in the program's process, here
    try {
      const stack = await stackWith({ "clouddb:apiKey": "k-123456" });
      const r = await stack.up(() => ({ auth: clouddb.getAuthInfo({ apiKey: "k-123456" }) }));
      expect(r.errors.map((e) => e.message).join("\n")).toContain(everyProblem[0]);
      expect(r.errors.map((e) => e.message).join("\n")).not.toContain("clouddb:apiKey");
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  it("fail an operation that runs no check (a lookup) with every problem in one error", async () => {
    const stack = await stackWith({ "clouddb:readCache": "later" });
    const r = await stack.up(() => void clouddb.Vpc.get("net", "1234", { projectId: "abcde12345" }));
    expect(r.errors.map((e) => e.message)).toEqual([
      [
        "The provider's configuration cannot work (3 problems):",
        `  ${everyProblem[0]}`,
        `  ${everyProblem[1]}`,
        '  clouddb:readCache: "later" is not a duration: give a number of seconds (e.g. 600) or a string such as "90s", "30m", "1h30m"',
      ].join("\n"),
    ]);
  });
});

describe("an API that cannot be reached or refuses the key", () => {
  let cloud: Cloud;
  const stacks: TestStack[] = [];
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    for (const s of stacks) await s.close();
    await cloud.close();
  });

  it("an unreachable URL names what the user was creating and clouddb:apiUrl, not the client's call", async () => {
    const port = await deadPort();
    const stack = await TestStack.create({
      config: { ...stackConfig(cloud.emulator), "clouddb:apiUrl": `http://127.0.0.1:${port}/public/api/v1` },
      secretKeys: ["clouddb:apiKey"],
    });
    stacks.push(stack);
    const r = await stack.up(vpc);
    expect(r.errors).toHaveLength(1);
    const { message } = r.errors[0];
    expect(message).toMatch(
      new RegExp(
        `^Could not reach the API at http://127\\.0\\.0\\.1:${port}/public/api/v1/\\S+ while creating Vpc "net": .*ECONNREFUSED.*\\[ECONNREFUSED\\]\\. ` +
          "Check clouddb:apiUrl / CLOUDDB_API_URL and the network\\.$",
      ),
    );
    expect(message).not.toMatch(/operation|listVpcs|createVpc/);
  });

  it("a key the API refuses names what the user was doing and clouddb:apiKey, on up and on refresh", async () => {
    expectNoErrors(await cloud.stack.up(vpc));
    const id = cloud.stack.resource("net").id;
    cloud.stack.setConfig("clouddb:apiKey", "not-the-emulators-key", { secret: true });
    const denied = await cloud.stack.up(
      () => void new clouddb.Vpc("net", { name: "renamed", cidr: "10.0.0.0/16", regionCode: "us-east-1" }),
    );
    // The engine shows the provider's message under the resource as it is (CLI 3.274.1).
    const refused = (_call: string, doing: string): RegExp =>
      new RegExp(
        `^The API refused the API key while ${doing}: .+ \\(401 UNAUTHORIZED\\)\\. ` +
          "Check clouddb:apiKey / CLOUDDB_API_KEY \\(`pulumi config set --secret clouddb:apiKey <key>`\\)\\.$",
      );
    expect(denied.errors.map((e) => e.message)).toEqual([expect.stringMatching(refused("update", `updating Vpc "net" ${id}`))]);
    const refreshed = await cloud.stack.refresh();
    expect(refreshed.errors.map((e) => e.message)).toEqual([expect.stringMatching(refused("read", `reading Vpc ${id}`))]);
    for (const e of [...denied.errors, ...refreshed.errors]) expect(e.message).not.toMatch(/operation|getVpc|renameVpc|listVpcs/);
    // Refresh and destroy run with the config of the last up (engine rule P6): up with the right key first.
    cloud.stack.setConfig("clouddb:apiKey", cloud.emulator.pat, { secret: true });
    expectNoErrors(await cloud.stack.up(vpc));
    expectNoErrors(await cloud.stack.destroy());
  });

  it("twenty services with a key the API refuses: one request in all, each create naming the key", async () => {
    const stack = await TestStack.create({
      config: { ...stackConfig(cloud.emulator), "clouddb:apiKey": "not-the-emulators-key" },
      secretKeys: ["clouddb:apiKey"],
      parallel: 20,
    });
    stacks.push(stack);
    await cloud.clearRequests();
    // --continue-on-error: the engine starts every create, not only those under way at the first failure.
    const r = await stack.up(
      () => {
        for (let i = 0; i < 20; i++) new clouddb.Service(`db-${i}`, { name: `refused-${i}` });
      },
      { continueOnError: true },
    );
    expect(r.errors).toHaveLength(20);
    for (const e of r.errors)
      expect(e.message).toMatch(/^The API refused the API key while creating Service "db-\d+": .+ \(401 UNAUTHORIZED\)\. /);
    // The first create's look-alike list met the 401: no create was sent, in this provider process.
    expect((await cloud.requests()).map((q) => `${q.method} ${q.status}`)).toEqual(["GET 401"]);
    expect(stack.resources()).toEqual([]);
  });

  it("a project the key may not reach is named, with the request it refused, on create and on refresh", async () => {
    const other = cloud.emulator.secondProjectId;
    const inOther = () => void new clouddb.Vpc("far", { projectId: other, cidr: "10.7.0.0/16", regionCode: "us-east-1" });
    const created = await cloud.stack.up(inOther);
    expect(created.errors).toHaveLength(1);
    expect(created.errors[0].message).toMatch(new RegExp(`^The API key may not reach project ${other} while creating Vpc "far": `));
    // The create's look-alike list met the 403 first: the create itself was not sent.
    expect(created.errors[0].message).toContain(`it refused GET /projects/${other}/vpcs`);
    expect(created.errors[0].message).toContain(`not sent: the API refused GET /projects/${other}/vpcs at`);
    // Made with the OAuth token, which reaches both projects; refreshed with the PAT, which reaches one.
    cloud.stack.setConfig("clouddb:apiKey", cloud.emulator.oauthToken, { secret: true });
    expectNoErrors(await cloud.stack.up(inOther));
    const id = cloud.stack.resource("far").id;
    cloud.stack.setConfig("clouddb:apiKey", cloud.emulator.pat, { secret: true });
    expectNoErrors(await cloud.stack.up(inOther)); // nothing changed: no call, and the refresh runs with this config
    const refreshed = await cloud.stack.refresh();
    expect(refreshed.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(new RegExp(`^The API key may not reach project ${other} while reading Vpc ${id}: `)),
    ]);
    expect(refreshed.errors[0].message).toContain(`it refused GET /projects/${other}/vpcs/${id}`);
    cloud.stack.setConfig("clouddb:apiKey", cloud.emulator.oauthToken, { secret: true });
    expectNoErrors(await cloud.stack.up(inOther));
    expectNoErrors(await cloud.stack.destroy());
    cloud.stack.setConfig("clouddb:apiKey", cloud.emulator.pat, { secret: true });
  });
});
