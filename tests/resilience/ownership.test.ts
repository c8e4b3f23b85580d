/**
 * Only provable ownership is taken over (issue "Ownership you can prove", case 1): two
 * stacks create a Service with the same name at about the same time; dev's POST never
 * reaches the API (a gateway holds it and answers 503, or dev's plugin is killed while it
 * is held) and staging's create succeeds meanwhile. Dev never takes staging's database over
 * and never sets a password on it: with a name the program chose it stops, naming the
 * candidate and its adoptId; with a name of its own (autonaming) it makes its own in the same
 * `up`, once a list read `clouddb:listLag` after the 503 shows nothing of its name (the contract's
 * bound: nothing listed that late proves nothing made), and never touches staging's. Killed
 * while held, the next `up` stops while that bound is ahead, and makes its own once the user
 * says its create made none (removes the journal entry). And
 * autonaming itself, through the plugin host: the name is made up from the logical name,
 * kept, new on a replacement, and not made up when adopting.
 */
import * as fs from "fs";
import * as path from "path";
import * as clouddb from "pulumi-clouddb";
import { expectNoErrors, until } from "../../harness";
import { journalEntries, ops, startCloud, writes, type Cloud } from "../../harness/cloud";
import { short } from "./support/log";

const OWN_NAME = /^db-[0-9a-f]{7}$/;

describe("a gateway holds dev's create and answers 503 while staging makes one of the same name", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud({ config: { "clouddb:listLag": "2s" } });
  });
  afterEach(async () => {
    expectNoErrors(await cloud.stack.destroy());
    await cloud.controls.reset();
    for (const f of journalEntries(cloud.journalDir)) fs.rmSync(path.join(cloud.journalDir, f));
  });
  afterAll(async () => {
    await cloud.close();
  });

  /** Starts dev's `up`, waits until its create is held by the gateway, lets "staging" make `theirs`, and returns dev's result. */
  async function heldWhileStagingCreates(program: () => void, theirs: string) {
    // The API logs a request only once answered, so nothing shows dev's POST while it is held: the
    // margins stand in, each about 3x what a loaded machine needs (dev's POST at the gateway within
    // 1 s of its journal entry; staging's create done within the 3 s left of the hold). Were staging's
    // POST first, it would take the gateway's 503 meant for dev's.
    await cloud.controls.fault({ method: "POST", path: "/services$", status: 503, holdMs: 4_000 });
    const running = cloud.stack.up(program);
    await until("dev's create in the journal", async () => (journalEntries(cloud.journalDir).length > 0 ? true : undefined));
    await new Promise((r) => setTimeout(r, 1_000)); // dev's POST is at the gateway, held
    const made = await cloud.api.perform("createService", { body: { name: theirs } }); // staging's create, inside dev's window
    return { result: await running, theirs: made };
  }

  it("with the name the program chose: dev stops, names staging's service and its adoptId, and never touches it", async () => {
    const program = () => void new clouddb.Service("db", { name: "orders" });
    const { result, theirs } = await heldWhileStagingCreates(program, "orders");
    expect(result.errors).toHaveLength(1);
    const message = result.errors[0].message;
    expect(message).toContain(`adoptId: "${theirs.service_id}"`);
    expect(message).toContain("not unique to this create");
    expect(cloud.stack.resources()).toEqual([]);
    const log = await cloud.requests();
    // Never a password set on it, never anything sent to it.
    expect(writes(log).map(short).sort()).toEqual(["POST /services 202", "POST /services 503"]);
    // The next up (the journal kept the intent) says the same, and still touches nothing.
    await cloud.clearRequests();
    const again = await cloud.stack.up(program);
    expect(again.errors).toHaveLength(1);
    expect(again.errors[0].message).toContain(`adoptId: "${theirs.service_id}"`);
    expect(writes(await cloud.requests())).toEqual([]);
    expect((await cloud.api.perform("listServices")).items.map((s) => s.service_id)).toEqual([theirs.service_id]);
  });

  it("with a name of its own: dev never touches staging's, and makes its own in the same up once a list read a bound after the 503 shows none", async () => {
    const program = () => ({ name: new clouddb.Service("db", {}).name });
    const { result: made, theirs } = await heldWhileStagingCreates(program, "db-0a1b2c3");
    // Nothing of its own name listed 2 s (clouddb:listLag) after the 503: it made nothing, and is sent again.
    expect(made.errors).toEqual([]);
    expect(
      writes(await cloud.requests())
        .map(short)
        .sort(),
    ).toEqual(["POST /services 202", "POST /services 202", "POST /services 503"]);
    const mine = cloud.stack.resource("db");
    expect(mine.id).not.toBe(theirs.service_id);
    expect(made.outputs.name).toMatch(OWN_NAME);
    expect((await cloud.api.perform("listServices")).items.map((s) => s.service_id).sort()).toEqual([mine.id, theirs.service_id].sort());
    const toTheirs = writes(await cloud.requests()).filter((r) => r.path.includes(theirs.service_id));
    expect(toTheirs).toEqual([]);
    expect(journalEntries(cloud.journalDir)).toEqual([]);
  });
});

describe("dev's plugin is killed while its create is held; staging makes one of the same name; dev's next up", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud({ host: "plugin" });
  });
  afterEach(async () => {
    await cloud.controls.reset();
  });
  afterAll(async () => {
    await cloud.close();
  });

  async function killedWhileHeld(program: () => void): Promise<void> {
    await cloud.controls.fault({ method: "POST", path: "/services$", status: 503, holdMs: 1_000 });
    const running = cloud.stack.up(program);
    await until("dev's create in the journal", async () => (journalEntries(cloud.journalDir).length > 0 ? true : undefined));
    await new Promise((r) => setTimeout(r, 200));
    await cloud.stack.plugin.kill();
    expect((await running).errors.length).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 1_000)); // the gateway answers 503 to no one: nothing was made
  }

  it("with the name the program chose: stops naming staging's service, and takes it over only when told (adoptId)", async () => {
    const program = (adoptId?: string) => () => void new clouddb.Service("db", { name: "orders", ...(adoptId ? { adoptId } : {}) });
    await killedWhileHeld(program());
    const theirs = await cloud.api.perform("createService", { body: { name: "orders" } });
    await cloud.clearRequests();
    const r = await cloud.stack.up(program());
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0].message).toContain(`adoptId: "${theirs.service_id}"`);
    expect(r.errors[0].message).toMatch(/journal entry .*\.json/);
    expect(writes(await cloud.requests())).toEqual([]);
    // The user says which: it is taken over (and the journal's question is settled).
    expectNoErrors(await cloud.stack.up(program(theirs.service_id)));
    expect(cloud.stack.resource("db").id).toBe(theirs.service_id);
    expect(journalEntries(cloud.journalDir)).toEqual([]);
    expectNoErrors(await cloud.stack.destroy());
  });

  it("with a name of its own: asks for the same name again, stops while nothing of it is listed, and makes it once told it made none", async () => {
    const program = () => ({ name: new clouddb.Service("db", {}).name });
    await killedWhileHeld(program);
    const theirs = await cloud.api.perform("createService", { body: { name: "db-4d5e6f7" } });
    const stopped = await cloud.stack.up(program);
    expect(stopped.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/journal entry .*\.json.*does not create another on a guess/),
    ]);
    for (const f of journalEntries(cloud.journalDir)) fs.rmSync(path.join(cloud.journalDir, f));
    const r = expectNoErrors(await cloud.stack.up(program));
    const mine = cloud.stack.resource("db");
    expect(mine.id).not.toBe(theirs.service_id);
    expect(r.outputs.name).toMatch(OWN_NAME);
    expect((await cloud.api.perform("listServices")).items.filter((s) => s.name === r.outputs.name).map((s) => s.service_id)).toEqual([
      mine.id,
    ]);
    expect(writes(await cloud.requests()).filter((x) => x.path.includes(theirs.service_id))).toEqual([]);
    expectNoErrors(await cloud.stack.destroy());
  });
});

describe("autonaming", () => {
  let cloud: Cloud;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(async () => {
    await cloud.close();
  });

  it("fills in the logical name and a random suffix for all named kinds, keeps it, and gives a replacement a new one", async () => {
    const program = (region: string) => () => {
      const net = new clouddb.Vpc("net", { cidr: "10.60.0.0/16", regionCode: "us-east-1" });
      new clouddb.VpcPeering("peer", { vpcId: net.vpcId, peerAccountId: "123456789012", peerRegionCode: "us-east-1", peerVpcId: "vpc-1" });
      const db = new clouddb.Service("db", { regionCode: region });
      new clouddb.ReadReplicaSet("reads", { serviceId: db.serviceId, nodes: 1, cpuMillis: 500, memoryGbs: 2 });
      return { db: db.name, net: net.name };
    };
    const first = expectNoErrors(await cloud.stack.up(program("us-east-1")));
    expect(first.outputs.db).toMatch(OWN_NAME);
    expect(first.outputs.net).toMatch(/^net-[0-9a-f]{7}$/);
    expect(cloud.stack.resource("reads").outputs.name).toMatch(/^reads-[0-9a-f]{7}$/);
    expect(cloud.stack.resource("db").inputs).toMatchObject({ name: first.outputs.db, __autonamed: true });
    const preview = expectNoErrors(await cloud.stack.preview(program("us-east-1")));
    expect(ops(preview)).toEqual({ net: "same", peer: "same", db: "same", reads: "same" });
    const again = expectNoErrors(await cloud.stack.up(program("us-east-1")));
    expect(ops(again)).toEqual({ net: "same", peer: "same", db: "same", reads: "same" });
    expect(again.outputs.db).toBe(first.outputs.db);
    const replaced = expectNoErrors(await cloud.stack.up(program("eu-west-1")));
    expect(ops(replaced).db).toBe("replace,delete-replaced");
    expect(replaced.outputs.db).toMatch(OWN_NAME);
    expect(replaced.outputs.db).not.toBe(first.outputs.db);
    expectNoErrors(await cloud.stack.destroy());
  });

  it("makes up no name when adopting: the adopted service keeps its own, and nothing is replaced later", async () => {
    const existing = await cloud.api.perform("createService", { body: { name: "legacy-orders" } });
    const program = (adopt: boolean) => () => void new clouddb.Service("db", adopt ? { adoptId: existing.service_id } : {});
    expectNoErrors(await cloud.stack.up(program(true)));
    expect(cloud.stack.resource("db")).toMatchObject({ id: existing.service_id, outputs: { name: "legacy-orders" } });
    expect(ops(expectNoErrors(await cloud.stack.up(program(true))))).toEqual({ db: "same" });
    // Removing adoptId hands the service to the stack: an update that records it and sends nothing, not a replacement.
    await cloud.clearRequests();
    expect(ops(expectNoErrors(await cloud.stack.up(program(false))))).toEqual({ db: "update" });
    expect(writes(await cloud.requests())).toEqual([]);
    expect(cloud.stack.resource("db").outputs.name).toBe("legacy-orders");
    expectNoErrors(await cloud.stack.destroy());
  });
});
