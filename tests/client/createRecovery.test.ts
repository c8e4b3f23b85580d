/**
 * Create recovery against the emulator's misbehaviour: answers lost after the create was
 * carried out (5xx, dropped, cut short, unreadable), concurrent creates of one name, and a
 * server clock far from the client's. Every case checks the exact counts of creates sent
 * and resources made in the emulator afterwards.
 */
import { AmbiguousCreateError, ClouddbClient, type Service } from "../../provider/client";
import { API, type OperationSpec } from "../../contract/api";
import { fitsService, serviceOfCreate, serviceOfFork, type Fields } from "../../contract";
import { ServerClock } from "../../provider/client/serverClock";
import { type Emu, control, countRequests, expectNoSecrets, fault, misbehave, rewrite, startEmulator, clientOf } from "./emulatorControl";

const WAIT = { timeoutMs: 15_000 };

describe("create recovery against the emulator", () => {
  let emu: Emu;
  let c: ClouddbClient;
  const clients: ClouddbClient[] = [];

  function newClient(retryDeadlineMs = 10_000): ClouddbClient {
    const made = clientOf(emu, { retryDeadlineMs, poll: { initialMs: 10, maxMs: 40 } });
    clients.push(made);
    return made;
  }

  async function services(name: string): Promise<Service[]> {
    const reader = newClient();
    return (await reader.perform("listServices")).items.filter((s) => s.name === name);
  }

  beforeAll(async () => {
    emu = await startEmulator({ port: 0, clockScale: 0.01 });
  });
  beforeEach(async () => {
    await control(emu, "POST", "/reset");
    c = newClient();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((x) => x.close()));
  });
  afterAll(async () => {
    await emu.close();
  });

  /** A name of its own, as the providers' autonaming makes one. */
  const own = (base: string) => `${base}-${Math.random().toString(16).slice(2, 9)}`;
  const UNIQUE = { uniqueName: true } as const;

  it.each([
    ["a 503 after the create was carried out", { status: 503, after: true }],
    ["a 504 after the create was carried out", { status: 504, after: true }],
    ["a connection dropped after it was carried out", { drop: true, after: true }],
    ["an answer cut short", { truncate: true }],
    ["a firewall's page after it was carried out", { waf: true, after: true }],
  ])("with a name of its own, takes over the one service it made after %s", async (_, mode) => {
    await misbehave(emu, { method: "POST", path: "/services$", ...mode });
    const name = own("lost");
    const s = await c.perform("createService", { body: { name }, ...UNIQUE });
    const listed = await services(name);
    expect(listed.map((x) => x.service_id)).toEqual([s.service_id]);
    expect(s.initial_password).toBeUndefined();
    expect(await countRequests(emu, "POST", /\/services$/)).toBe(1);
  });

  it("with a name the program chose, never takes over what it cannot prove it made: it stops naming the candidate and its adoptId", async () => {
    await misbehave(emu, { method: "POST", path: "/services$", status: 503, after: true });
    const err = await c.perform("createService", { body: { name: "chosen" } }).catch((e: unknown) => e);
    expect(AmbiguousCreateError.isInstance(err)).toBe(true);
    const made = await services("chosen");
    expect(made).toHaveLength(1);
    const e = err as AmbiguousCreateError;
    expect(e.candidateIds).toEqual([made[0].service_id]);
    expect(e.message).toContain(`adoptId: "${made[0].service_id}"`);
    expect(e.message).toContain("not unique to this create");
    expect(await countRequests(emu, "POST", /\/services$/)).toBe(1);
  });

  it("never takes over another client's service made while its own request never arrived (a gateway's 503)", async () => {
    // Another stack's create of the same name succeeds; ours is answered 503 without reaching the API.
    const theirs = await newClient().perform("createService", { body: { name: "orders" } });
    await fault(emu, { method: "POST", path: "/services$", status: 503, count: 1 });
    const err = await c.perform("createService", { body: { name: "orders" } }).catch((e: unknown) => e);
    // An explicit name: the provider never guesses.
    expect(AmbiguousCreateError.isInstance(err)).toBe(true);
    expect((err as AmbiguousCreateError).candidateIds).toEqual([theirs.service_id]);
    expect((err as AmbiguousCreateError).message).toContain(`adoptId: "${theirs.service_id}"`);
    // A name of its own: the other one is not its own, and nothing of its name is listed; that proves nothing (the 503 may
    // follow a request still on its way), so it stops without sending the create again.
    await fault(emu, { method: "POST", path: "/services$", status: 503, count: 1 });
    const name = own("orders");
    const stopped = await c.perform("createService", { body: { name }, ...UNIQUE }).catch((e: unknown) => e);
    expect(AmbiguousCreateError.isInstance(stopped)).toBe(true);
    expect((stopped as AmbiguousCreateError).candidateIds).toEqual([]);
    expect((stopped as AmbiguousCreateError).message).toContain("the create was not sent again");
    expect(await services(name)).toEqual([]);
    expect(await countRequests(emu, "POST", /\/services$/)).toBe(3); // theirs, and each of ours once
  });

  it("returns the service and its password when the create answer has an unreadable id", async () => {
    await rewrite(emu, { method: "POST", path: "/services$", field: "service_id", value: null });
    const name = own("no-id");
    const s = await c.perform("createService", { body: { name }, ...UNIQUE });
    const listed = await services(name);
    expect(listed.map((x) => x.service_id)).toEqual([s.service_id]);
    expect(typeof s.initial_password).toBe("string");
    expect(await countRequests(emu, "POST", /\/services$/)).toBe(1);
  });

  it("recovers VPCs, peerings (by the list read just before), forks and replica sets the same way, making exactly one of each", async () => {
    await misbehave(emu, { method: "POST", path: "/vpcs$", status: 502, after: true });
    const vpc = await c.perform("createVpc", { body: { name: own("net"), cidr: "10.3.0.0/16", region_code: "us-east-1" }, ...UNIQUE });
    expect((await c.perform("listVpcs")).items.map((v) => v.id)).toEqual([vpc.id]);

    await misbehave(emu, { method: "POST", path: "/peerings$", drop: true, after: true });
    const p = await c.perform("createPeering", {
      vpc: vpc.id,
      body: { peer_account_id: "acct", peer_region_code: "us-east-1", peer_vpc_id: "pv" },
    });
    expect((await c.perform("listPeerings", { vpc: vpc.id })).items.map((x) => x.id)).toEqual([p.id]);

    const src = await c.perform("createService", { body: { name: "src" } });
    await c.waitForService(src.service_id, { until: ["READY"], ...WAIT });
    await misbehave(emu, { method: "POST", path: "/forkService$", truncate: true });
    const fork = await c.perform("forkService", { service: src.service_id, body: { fork_strategy: "NOW", name: own("fork") }, ...UNIQUE });
    expect(fork.forked_from?.service_id).toBe(src.service_id);
    expect(
      (await c.perform("listServices")).items.filter((x) => x.forked_from?.service_id === src.service_id).map((x) => x.service_id),
    ).toEqual([fork.service_id]);

    await misbehave(emu, { method: "POST", path: "/replicaSets$", status: 500, after: true });
    const rs = await c.perform("createReplicaSet", {
      service: src.service_id,
      body: { name: own("r1"), nodes: 1, cpu_millis: 500, memory_gbs: 2 },
      ...UNIQUE,
    });
    expect((await c.perform("listReplicaSets", { service: src.service_id })).items.map((x) => x.id)).toEqual([rs.id]);

    expect(await countRequests(emu, "POST", /\/vpcs$/)).toBe(1);
    expect(await countRequests(emu, "POST", /\/peerings$/)).toBe(1);
    expect(await countRequests(emu, "POST", /\/forkService$/)).toBe(1);
    expect(await countRequests(emu, "POST", /\/replicaSets$/)).toBe(1);
  });

  it("does not take over a peering that existed before it was sent, and names both when two appeared meanwhile", async () => {
    const vpc = await c.perform("createVpc", { body: { name: "peered", cidr: "10.4.0.0/16", region_code: "us-east-1" } });
    const body = { peer_account_id: "acct", peer_region_code: "us-east-1", peer_vpc_id: "pv" } as const;
    const older = await newClient().perform("createPeering", { vpc: vpc.id, body });
    await misbehave(emu, { method: "POST", path: "/peerings$", status: 503, after: true });
    const p = await c.perform("createPeering", { vpc: vpc.id, body });
    expect(p.id).not.toBe(older.id);
    expect((await c.perform("listPeerings", { vpc: vpc.id })).items.map((x) => x.id).sort()).toEqual([older.id, p.id].sort());
  });

  describe.each([
    ["one client", (): [ClouddbClient, ClouddbClient] => [c, c]],
    ["two clients", (): [ClouddbClient, ClouddbClient] => [c, newClient()]],
  ])("two concurrent creates of one name whose answers are both lost (%s)", (_, pick) => {
    it("never both take the same service: each fails naming both ids, or each gets its own", async () => {
      await misbehave(emu, { method: "POST", path: "/services$", status: 503, after: true, count: 2 });
      const [a, b] = pick();
      const outcomes = await Promise.allSettled([
        a.perform("createService", { body: { name: "twin" } }),
        b.perform("createService", { body: { name: "twin" } }),
      ]);
      const made = (await services("twin")).map((s) => s.service_id).sort();
      expect(made).toHaveLength(2);
      expect(await countRequests(emu, "POST", /\/services$/)).toBe(2);
      const taken = outcomes.flatMap((o) => (o.status === "fulfilled" ? [o.value.service_id] : []));
      expect(new Set(taken).size).toBe(taken.length);
      for (const o of outcomes) {
        if (o.status === "fulfilled") continue;
        expect(AmbiguousCreateError.isInstance(o.reason)).toBe(true);
        const e = o.reason as AmbiguousCreateError;
        expect([...e.candidateIds].sort()).toEqual(made);
        expect(e.code).toBe("CLOUDDB_AMBIGUOUS_CREATE");
        for (const id of e.candidateIds) expect(e.message).toContain(`adoptId: "${id}"`);
        expectNoSecrets(e, [emu.pat]);
      }
    });
  });

  it.each([
    ["an hour behind", { offsetMs: -3_600_000 }],
    ["a minute behind", { offsetMs: -60_000 }],
    ["a minute ahead", { offsetMs: 60_000 }],
    ["stamped by a gateway 8 s ahead of the API's", { dateOffsetMs: 8_000 }],
    ["stamped by a gateway 8 s behind the API's", { dateOffsetMs: -8_000 }],
  ])("makes no duplicate when the clock of the Date header is %s the client's and the answer is lost", async (_, clock) => {
    await control(emu, "POST", "/clock", clock);
    await misbehave(emu, { method: "POST", path: "/services$", status: 503, after: true });
    const name = own("skewed");
    const s = await c.perform("createService", { body: { name }, ...UNIQUE });
    expect((await services(name)).map((x) => x.service_id)).toEqual([s.service_id]);
    expect(await countRequests(emu, "POST", /\/services$/)).toBe(1);
  });

  describe("a lost create past the values of the tests before (proof only: no clock window, no list read as proof of absence)", () => {
    it.each([
      ["a gateway's Date 30 minutes ahead", { dateOffsetMs: 30 * 60_000 }],
      ["a gateway's Date 2 hours behind", { dateOffsetMs: -2 * 3_600_000 }],
      ["the Dates of two gateways 40 minutes apart, taking turns", { dateFlipMs: 40 * 60_000 }],
    ])("%s: with a name the program chose, names the service it may have made and never sends it again", async (_, clock) => {
      await control(emu, "POST", "/clock", clock);
      await newClient().perform("listVpcs"); // the client's clock reads a few Dates first
      await misbehave(emu, { method: "POST", path: "/services$", status: 503, after: true });
      const err = await c.perform("createService", { body: { name: "clocked" } }).catch((e: unknown) => e);
      const made = await services("clocked");
      expect(made).toHaveLength(1);
      expect(AmbiguousCreateError.isInstance(err)).toBe(true);
      expect((err as AmbiguousCreateError).candidateIds).toEqual([made[0].service_id]);
      expect(await countRequests(emu, "POST", /\/services$/)).toBe(1);
    });

    it("a list lagging seconds behind: with a name of its own, finds nothing, and stops without sending the create again", async () => {
      await c.perform("listServices"); // the answer the lagging list gives
      await control(emu, "POST", "/faults", { method: "GET", path: "/services$", lagMs: 8_000, count: 100 });
      await misbehave(emu, { method: "POST", path: "/services$", status: 503, after: true });
      const name = own("lagging");
      const err = await c.perform("createService", { body: { name }, ...UNIQUE }).catch((e: unknown) => e);
      await control(emu, "DELETE", "/faults");
      expect(AmbiguousCreateError.isInstance(err)).toBe(true);
      expect((err as Error).message).toContain("A list may lag behind the API");
      expect((await services(name)).length).toBe(1);
      expect(await countRequests(emu, "POST", /\/services$/)).toBe(1);
    });

    it("a create held past the client's deadline, then passed on: never sent again, and the service it made is taken over", async () => {
      const impatient = clientOf(emu, { requestTimeoutMs: 400, retryDeadlineMs: 10_000, poll: { initialMs: 10, maxMs: 40 } });
      clients.push(impatient);
      await misbehave(emu, { method: "POST", path: "/services$", status: 504, after: true, holdMs: 1_500 });
      const name = own("held");
      const started = Date.now();
      const s = await impatient.perform("createService", { body: { name }, ...UNIQUE });
      await new Promise((r) => setTimeout(r, Math.max(0, started + 2_000 - Date.now()))); // the held request has been passed on by now
      expect((await services(name)).map((x) => x.service_id)).toEqual([s.service_id]);
      expect(await countRequests(emu, "POST", /\/services$/)).toBe(1);
    });

    it("a 303 after the API acted: recovered as a lost answer, never taken for nothing made", async () => {
      await misbehave(emu, { method: "POST", path: "/vpcs$", redirect: 303, after: true, location: "/public/api/v1/elsewhere" });
      const name = own("seen-other");
      const vpc = await c.perform("createVpc", { body: { name, cidr: "10.6.0.0/16", region_code: "us-east-1" }, ...UNIQUE });
      expect((await c.perform("listVpcs")).items.map((v) => v.id)).toEqual([vpc.id]);
      expect(await countRequests(emu, "POST", /\/vpcs$/)).toBe(1);
    });
  });

  it("looks again when the list lags one answer behind the create, and reads a list that repeats an item as one", async () => {
    await c.perform("listServices"); // the answer the lagging list will give again
    await misbehave(emu, { method: "POST", path: "/services$", status: 503, after: true });
    await control(emu, "POST", "/faults", { method: "GET", path: "/services$", stale: true });
    const name = own("lagged");
    const s = await c.perform("createService", { body: { name }, ...UNIQUE });
    expect((await services(name)).map((x) => x.service_id)).toEqual([s.service_id]);

    await misbehave(emu, { method: "POST", path: "/vpcs$", status: 503, after: true });
    await control(emu, "POST", "/faults", { method: "GET", path: "/vpcs$", repeat: true });
    const vpc = await c.perform("createVpc", { body: { name: own("repeated"), cidr: "10.5.0.0/16", region_code: "us-east-1" }, ...UNIQUE });
    expect((await c.perform("listVpcs")).items.map((v) => v.id)).toEqual([vpc.id]);
    expect(await countRequests(emu, "POST", /\/services$/)).toBe(1);
    expect(await countRequests(emu, "POST", /\/vpcs$/)).toBe(1);
  });

  it("with a name of its own, never takes over an older service of another name, and stops when a gateway made it twice", async () => {
    const old = await newClient().perform("createService", { body: { name: "same" } });
    await misbehave(emu, { method: "POST", path: "/services$", status: 503, after: true });
    const name = own("same");
    const s = await c.perform("createService", { body: { name }, ...UNIQUE });
    expect(s.service_id).not.toBe(old.service_id);
    expect(await countRequests(emu, "POST", /\/services$/)).toBe(2);
    // The same unique name twice (a gateway that repeated the request): never a guess between them.
    const twice = own("twice");
    await newClient().perform("createService", { body: { name: twice } });
    await newClient().perform("createService", { body: { name: twice } });
    await misbehave(emu, { method: "POST", path: "/services$", status: 503 });
    const err = await c.perform("createService", { body: { name: twice }, ...UNIQUE }).catch((e: unknown) => e);
    expect(AmbiguousCreateError.isInstance(err)).toBe(true);
    expect((err as AmbiguousCreateError).candidateIds).toHaveLength(2);
    expect((err as AmbiguousCreateError).message).toContain("carried out more than once");
  });

  it("fails naming both when someone else made an identical one at the same moment", async () => {
    const other = await newClient().perform("createService", { body: { name: "same-time" } });
    await misbehave(emu, { method: "POST", path: "/services$", drop: true, after: true });
    const err = await c.perform("createService", { body: { name: "same-time" } }).catch((e: unknown) => e);
    expect(AmbiguousCreateError.isInstance(err)).toBe(true);
    const all = (await services("same-time")).map((x) => x.service_id).sort();
    expect(all).toHaveLength(2);
    expect([...(err as AmbiguousCreateError).candidateIds].sort()).toEqual(all);
    expect(all).toContain(other.service_id);
    expect(await countRequests(emu, "POST", /\/services$/)).toBe(2);
  });

  it("runs a create through perform with the recovery its description declares", async () => {
    await misbehave(emu, { method: "POST", path: "/vpcs$", status: 503, after: true });
    const vpc = await c.perform("createVpc", {
      body: { name: own("by-perform"), cidr: "10.9.0.0/16", region_code: "us-east-1" },
      ...UNIQUE,
    });
    expect((await c.perform("listVpcs")).items.map((v) => v.id)).toEqual([vpc.id]);
    expect(await countRequests(emu, "POST", /\/vpcs$/)).toBe(1);
  });

  it("fails with no candidate, naming the create and how to adopt, when it cannot list to check", async () => {
    const short = newClient(800);
    await misbehave(emu, { method: "POST", path: "/services$", status: 503, after: true });
    await fault(emu, { method: "GET", path: "/services$", status: 503, count: 1_000 });
    const err = await short.perform("createService", { body: { name: "blind" }, ...UNIQUE }).catch((e: unknown) => e);
    await control(emu, "DELETE", "/faults");
    expect(AmbiguousCreateError.isInstance(err)).toBe(true);
    const e = err as AmbiguousCreateError;
    expect(e.candidateIds).toEqual([]);
    expect(e.message).toContain("createService");
    expect(e.message).toContain("could not list the services");
    expect(e.message).toContain('adoptId: "<id>"');
    expect((await services("blind")).length).toBe(1);
    expect(await countRequests(emu, "POST", /\/services$/)).toBe(1);
    expectNoSecrets(e, [emu.pat]);
  });
});

describe("the pure halves of create recovery", () => {
  it("declares recovery on every create of the description, each naming a list operation", () => {
    const specs: [string, OperationSpec][] = Object.entries(API);
    const creates = specs.filter(([, spec]) => spec.retry === "create");
    expect(creates.map(([name]) => name)).toEqual(expect.arrayContaining(["createVpc", "createService", "forkService"]));
    for (const [, spec] of creates) {
      const list = specs.find(([name]) => name === spec.recover?.list)?.[1];
      expect(list !== undefined && "list" in list.reply).toBe(true);
    }
  });

  it("measures the server's clock from Date headers, narrowing with each answer and starting over when it jumps", () => {
    const clock = new ServerClock();
    expect(clock.toServer(0, 10)).toEqual({ from: -Infinity, to: Infinity });
    const t0 = Date.UTC(2030, 0, 1, 12, 0, 0);
    // The server is 60 s behind; answers take 100 ms.
    clock.observe(new Date(t0 - 60_000).toUTCString(), t0, t0 + 100);
    clock.observe(new Date(t0 + 500 - 60_000).toUTCString(), t0 + 500, t0 + 600);
    const offset = clock.offsetMs!;
    expect(offset.from).toBeLessThanOrEqual(-60_000);
    expect(offset.to).toBeGreaterThanOrEqual(-60_000);
    expect(offset.to - offset.from).toBeLessThan(2_100);
    // Its clock is reset an hour ahead: the old interval no longer fits, a new one starts.
    clock.observe(new Date(t0 + 3_600_000).toUTCString(), t0 + 1_000, t0 + 1_100);
    expect(clock.offsetMs!.from).toBeGreaterThan(3_590_000);
  });

  it("compares only the fields an item shows: one it does not show never excludes it", () => {
    const fits = (item: Fields) => fitsService(serviceOfCreate({ name: "db", cpu_millis: "1000", memory_gbs: "4" }), item);
    const shown = {
      name: "db",
      service_type: "TIMESERIES",
      region_code: "us-east-1",
      status: "QUEUED",
      resources: [{ spec: { cpu_millis: 1000, memory_gbs: 4 } }],
    };
    expect(fits(shown)).toBe(true);
    expect(fits({ ...shown, resources: [{ spec: { cpu_millis: 500, memory_gbs: 2 } }] })).toBe(false);
    expect(fits({ ...shown, resources: undefined, metrics: null })).toBe(true);
    expect(fits({ ...shown, status: "DELETING" })).toBe(false);
    expect(fits({ ...shown, forked_from: { service_id: "src" } })).toBe(false);
    expect(fits({ ...shown, name: 7 })).toBe(true);
    expect(fitsService(serviceOfFork("src", { fork_strategy: "NOW" }), { ...shown, forked_from: { service_id: "src" } })).toBe(true);
    expect(fitsService(serviceOfFork("src", { fork_strategy: "NOW" }), shown)).toBe(false);
  });
});
