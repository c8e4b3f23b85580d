/**
 * A transient error needs no person (issue 40, item 4). A create whose POST a gateway answers
 * `503 UNAVAILABLE` before the API acted has an unknown outcome; the contract's bound (a list
 * shows what a create made within `clouddb:listLag` of when its request ended) turns a list
 * read that late that shows nothing into proof that it made nothing, and the create is sent
 * again: in the same `up` when `timeouts.create` allows the wait, else in the next `up`, which
 * waits no more than what is left of it (the journal recorded when the request ended). Where
 * a stop remains, its message says when to run `pulumi up` again, and running it then works.
 * The provider in process, against the emulator over HTTP.
 */
import * as fs from "fs";
import * as path from "path";
import * as clouddb from "pulumi-clouddb";
import { expectNoErrors, until } from "../../harness";
import { journalEntries, startCloud, type Cloud } from "../../harness/cloud";

describe("creates whose POST a gateway answered 503 before the API acted", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud({ config: { "clouddb:listLag": "2s" } });
  });
  afterEach(async () => {
    await cloud.controls.reset();
    cloud.stack.setConfig("clouddb:listLag", "2s");
    expectNoErrors(await cloud.stack.destroy());
    for (const f of journalEntries(cloud.journalDir)) fs.rmSync(path.join(cloud.journalDir, f));
  });
  afterAll(async () => {
    await cloud.close();
  });

  const posts = async () => (await cloud.requests()).filter((r) => r.method === "POST" && /\/services$/.test(r.path));
  const services = async () => (await cloud.api.perform("listServices")).items;

  it("twenty creates under a limit of 2 requests a second, three POSTs answered 503: one up makes the 20, no failure, no second", async () => {
    await cloud.clearRequests();
    await cloud.controls.rateLimit(2);
    await cloud.controls.fault({ method: "POST", path: "/services$", status: 503, count: 3 });
    const program = () => {
      for (let i = 0; i < 10; i++) new clouddb.Service(`own-${i}`, {}); // names of their own
      for (let i = 0; i < 10; i++) new clouddb.Service(`named-${i}`, { name: `tenant-${i}` }); // names the program chose
    };
    expectNoErrors(await cloud.stack.up(program));
    const made = await services();
    expect(made).toHaveLength(20);
    expect(new Set(made.map((s) => s.name)).size).toBe(20);
    expect(
      cloud.stack
        .resources()
        .map((r) => r.id)
        .sort(),
    ).toEqual(made.map((s) => s.service_id).sort());
    const sent = await posts();
    expect(sent.filter((p) => p.status === 503)).toHaveLength(3);
    expect(sent.filter((p) => p.status === 202)).toHaveLength(20);
    expect(journalEntries(cloud.journalDir)).toEqual([]);
  }, 180_000); // 59 requests at 2 a second

  it("an up interrupted while it waits after the 503: the next up creates the service, waiting only what is left of the bound", async () => {
    cloud.stack.setConfig("clouddb:listLag", "6s");
    await cloud.clearRequests();
    await cloud.controls.fault({ method: "POST", path: "/services$", status: 503, count: 1 });
    const program = () => ({ name: new clouddb.Service("db", {}).name });
    const running = cloud.stack.up(program);
    // The journal has recorded when the request ended (the client told it before it looked): now it waits.
    const file = await until("the entry of the lost answer", async () => {
      const [entry] = journalEntries(cloud.journalDir).map((f) => path.join(cloud.journalDir, f));
      return entry !== undefined && fs.readFileSync(entry, "utf8").includes('"endedAt"') ? entry : undefined;
    });
    const endedAt = (JSON.parse(fs.readFileSync(file, "utf8")) as { endedAt: number }).endedAt;
    await cloud.stack.plugin.kill();
    expect((await running).errors.length).toBeGreaterThan(0);
    expect(await services()).toEqual([]);
    const r = expectNoErrors(await cloud.stack.up(program));
    const made = await services();
    expect(made.map((s) => s.service_id)).toEqual([cloud.stack.resource("db").id]);
    expect(made[0].name).toBe(r.outputs.name);
    // It was sent again only after a list read 6 s after the first request ended, which showed nothing.
    const sent = await posts();
    expect(sent.map((p) => p.status)).toEqual([503, 202]);
    expect(Date.parse(sent[1].at)).toBeGreaterThanOrEqual(endedAt + 6_000);
    expect(cloud.stack.pluginStderr()).toMatch(/a list read 6s \(clouddb:listLag\) after its request ended shows no service it made/);
    expect(journalEntries(cloud.journalDir)).toEqual([]);
  });

  it("a bound past timeouts.create: the create stops, saying when to run up again; run then, it creates the one service", async () => {
    cloud.stack.setConfig("clouddb:listLag", "15s");
    await cloud.clearRequests();
    await cloud.controls.fault({ method: "POST", path: "/services$", status: 503, count: 1 });
    const program = () => void new clouddb.Service("db", { name: "short-wait", timeouts: { create: "5s" } });
    const first = await cloud.stack.up(program);
    expect(first.errors).toHaveLength(1);
    expect(first.errors[0].message).toContain('(service "short-wait", project');
    expect(first.errors[0].message).toMatch(/creates one once a list read from \S+ on \(clouddb:listLag after its request ended/);
    // Run at once, the next up stops too, saying when.
    const second = await cloud.stack.up(program);
    expect(second.errors).toHaveLength(1);
    const message = second.errors[0].message;
    expect(message).toContain('service named "short-wait"');
    const after = /Run `pulumi up` again after (\S+) \(/.exec(message);
    expect(after).not.toBeNull();
    // The way to wait longer, on either host: the dynamic providers' timeouts, the native plugin's customTimeouts.
    expect(message).toContain(
      "give the resource a longer `timeouts.create` (`customTimeouts.create` on the native plugin), or every resource with `pulumi config set clouddb:createTimeout 1h`",
    );
    expect(await services()).toEqual([]);
    // As the message says: run it again after that time.
    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(after![1]) - Date.now() + 50)));
    expectNoErrors(await cloud.stack.up(program));
    expect((await services()).map((s) => s.service_id)).toEqual([cloud.stack.resource("db").id]);
    expect((await posts()).map((p) => p.status)).toEqual([503, 202]);
  });

  it("an up killed while its POST was held and never passed on: the next up, once the create's bound has passed, creates one", async () => {
    cloud.stack.setConfig("clouddb:listLag", "1s");
    cloud.stack.setConfig("clouddb:requestTimeout", "3s");
    try {
      await cloud.clearRequests();
      // A gateway holds the POST, then answers 503 without passing it on.
      await cloud.controls.fault({ method: "POST", path: "/services$", status: 503, holdMs: 10_000 });
      const program = () => ({ name: new clouddb.Service("db", { timeouts: { create: "5s" } }).name });
      const running = cloud.stack.up(program);
      await until("the journalled create", async () => (journalEntries(cloud.journalDir).length > 0 ? true : undefined));
      await new Promise((r) => setTimeout(r, 300)); // the POST is held (or about to be sent: either way, nothing is made)
      await cloud.stack.plugin.kill();
      await running;
      await cloud.control("DELETE", "/faults");
      // The entry says when the create's request ended at the latest: its deadline plus a request's longest.
      const [file] = journalEntries(cloud.journalDir).map((f) => path.join(cloud.journalDir, f));
      const entry = JSON.parse(fs.readFileSync(file, "utf8")) as { endsBy: number; endedAt?: number; startedAt: number };
      expect(entry.endedAt).toBeUndefined();
      expect(entry.endsBy - entry.startedAt).toBeGreaterThan(3_000);
      expect(entry.endsBy - entry.startedAt).toBeLessThanOrEqual(8_000);
      await new Promise((r) => setTimeout(r, Math.max(0, entry.endsBy + 1_000 - Date.now() + 50)));
      const r = expectNoErrors(await cloud.stack.up(program));
      expect((await services()).map((s) => s.name)).toEqual([r.outputs.name]);
    } finally {
      cloud.stack.setConfig("clouddb:requestTimeout", "30s");
    }
  });
});
