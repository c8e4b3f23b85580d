/**
 * One endpoint, spelled two ways (issue 40, item 3): an `up` interrupted while its create was
 * under way, then an `up` whose `clouddb:apiUrl` names the same API otherwise (a trailing
 * slash, the scheme's or host's letter case, a default port written out, a percent-encoded
 * letter, a user and password), takes over what the first one made: the journal's entries are
 * keyed by the endpoint in its one form. An entry an earlier version keyed by the endpoint as
 * it was given is still found. Through the real plugin host, the plugin killed while the
 * create's answer is held back (the API acted; the entry holds no id).
 */
import * as fs from "fs";
import * as net from "net";
import * as path from "path";
import * as clouddb from "pulumi-clouddb";
import { expectNoErrors } from "../../harness";
import { journalEntries, startCloud, type Cloud } from "../../harness/cloud";
import { interruptedUp } from "./support/interrupted";
import { entryFile } from "../../provider/framework/journalStore";

/** A TCP forwarder on port 80 of a loopback address of its own, to `port` on 127.0.0.1: an endpoint whose port is the default one. */
async function onPort80(port: number): Promise<{ host: string; close(): Promise<void> }> {
  const host = "127.83.0.1";
  const server = net.createServer((client) => {
    const upstream = net.connect(port, "127.0.0.1");
    client.pipe(upstream).pipe(client);
    const end = () => (client.destroy(), upstream.destroy());
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(80, host, resolve));
  return { host, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe("an interrupted create, and the next up naming the same API otherwise", () => {
  let cloud: Cloud;
  let port: number;
  beforeAll(async () => {
    cloud = await startCloud({ host: "plugin" });
    port = Number(new URL(cloud.emulator.baseUrl).port);
  });
  afterEach(async () => {
    cloud.stack.setConfig("clouddb:apiUrl", cloud.emulator.baseUrl);
    expectNoErrors(await cloud.stack.destroy());
    for (const f of journalEntries(cloud.journalDir)) fs.rmSync(path.join(cloud.journalDir, f));
  });
  afterAll(async () => {
    await cloud.close();
  });

  const program = () => ({ name: new clouddb.Vpc("net", { cidr: "10.60.0.0/16", regionCode: "us-east-1" }).name });
  const posts = async () => (await cloud.requests()).filter((r) => r.method === "POST" && /\/vpcs$/.test(r.path)).length;

  /** An `up` with `apiUrl`, its plugin killed once the API has the create and before its answer comes. */
  async function interrupted(apiUrl: string): Promise<void> {
    cloud.stack.setConfig("clouddb:apiUrl", apiUrl);
    expect((await interruptedUp(cloud, program, /\/vpcs$/)).errors.length).toBeGreaterThan(0);
    expect(await posts()).toBe(1);
  }

  /** The next `up`, with `apiUrl`: the VPC the interrupted create made is taken over, and no second one is made. */
  async function takenOverWith(apiUrl: string): Promise<void> {
    cloud.stack.setConfig("clouddb:apiUrl", apiUrl);
    const r = expectNoErrors(await cloud.stack.up(program));
    const vpcs = (await cloud.api.perform("listVpcs")).items;
    expect(vpcs.map((v) => v.id)).toEqual([cloud.stack.resource("net").id]);
    expect(r.outputs.name).toBe(vpcs[0].name);
    expect(await posts()).toBe(1);
    expect(cloud.stack.pluginStderr()).toContain("was made by an earlier create that did not finish");
    expect(journalEntries(cloud.journalDir)).toEqual([]);
  }

  /** Each spelling of the API at `port` the first `up` uses, and the next `up`'s. */
  const spellings: Array<[string, (port: number) => string, (port: number) => string]> = [
    ["a trailing slash", (p) => `http://127.0.0.1:${p}/public/api/v1`, (p) => `http://127.0.0.1:${p}/public/api/v1/`],
    ["two trailing slashes, then none", (p) => `http://127.0.0.1:${p}/public/api/v1//`, (p) => `http://127.0.0.1:${p}/public/api/v1`],
    ["the scheme and host in capitals", (p) => `HTTP://LOCALHOST:${p}/public/api/v1`, (p) => `http://localhost:${p}/public/api/v1/`],
    [
      "letters of the path percent-encoded",
      (p) => `http://127.0.0.1:${p}/public/api/v1`,
      (p) => `http://127.0.0.1:${p}/public/%61pi/%76%31`,
    ],
    [
      "a user and password before the host",
      (p) => `http://127.0.0.1:${p}/public/api/v1`,
      (p) => `http://someone:pa%24%24word@127.0.0.1:${p}/public/api/v1`,
    ],
  ];

  it.each(spellings)("%s: the first one's VPC is taken over, never a second", async (_, first, then) => {
    await interrupted(first(port));
    await takenOverWith(then(port));
  });

  // Port 80 of a loopback address of this test's own: an endpoint whose default port is written out, or not.
  (process.getuid?.() === 0 ? it : it.skip)("the default port written out: the first one's VPC is taken over, never a second", async () => {
    const forwarder = await onPort80(port);
    try {
      await interrupted(`http://${forwarder.host}/public/api/v1`);
      await takenOverWith(`http://${forwarder.host}:80/public/api/v1`);
    } finally {
      // A destroy runs with the provider's configuration as state recorded it: through the forwarder.
      expectNoErrors(await cloud.stack.destroy());
      await forwarder.close();
    }
  });

  it("an entry an earlier version keyed by the endpoint as it was given is still found, and moved to this version's file", async () => {
    const given = `${cloud.emulator.baseUrl}/`;
    await interrupted(given);
    const [file] = journalEntries(cloud.journalDir).map((f) => path.join(cloud.journalDir, f));
    const owner = "test-project/test/clouddb.Vpc/net"; // the SDK's `__owner`: project, stack, type, name
    expect(file).toBe(entryFile(cloud.journalDir, cloud.emulator.baseUrl, cloud.emulator.projectId, "Vpc", owner));
    // Where the version before kept it: under the text as it was given.
    const earlier = entryFile(cloud.journalDir, given, cloud.emulator.projectId, "Vpc", owner);
    fs.renameSync(file, earlier);
    await takenOverWith(given);
    expect(fs.existsSync(earlier)).toBe(false);
  });
});
