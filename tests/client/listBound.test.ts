/**
 * A create whose answer is lost, and the contract's bound (issue 40, item 4): the API's list
 * shows what a create made within `listLagMs` of when the client stopped waiting for its
 * request. A list read started that long after the request ended that shows nothing it made
 * proves it made nothing, and the create is sent again in the same call; what is found
 * meanwhile is settled as before (its own name: taken; a name the program chose: ambiguous,
 * with adoptId; a peering: by the list just before). A list that lags less than the bound,
 * or a gateway that passes a held request on within it, never makes a second resource; one that
 * lags more, or passes it on later, breaks the assumption, and is shown to.
 * Against the emulator over HTTP, its request log as the witness.
 */
import { AmbiguousCreateError, ClouddbClient, type CreateWatch } from "../../provider/client";
import { looksAgain } from "../../provider/client/createRecovery";
import { type Emu, clientOf, control, countRequests, misbehave, requestLog, startEmulator } from "./emulatorControl";

describe("the looks at a list that shows nothing yet", () => {
  it("come after each short pause, never past the bound, then at the bound; without one, stop once the pauses are spent", () => {
    const withBound = looksAgain(10_000);
    expect([withBound(0), withBound(1_000), withBound(3_000), withBound(11_000)]).toEqual([500, 2_500, 10_000, 11_000]);
    const soonBound = looksAgain(800);
    expect([soonBound(0), soonBound(600)]).toEqual([500, 800]);
    const none = looksAgain();
    expect([none(0), none(1_000), none(3_000)]).toEqual([500, 2_500, undefined]);
  });
});

describe("a lost create's answer and the list's bound", () => {
  let emu: Emu;
  const clients: ClouddbClient[] = [];

  /** A client whose list bound is `listLagMs`, and whose calls may wait `retryDeadlineMs`. */
  function client(listLagMs: number, retryDeadlineMs = 20_000): ClouddbClient {
    const made = clientOf(emu, { listLagMs, retryDeadlineMs, poll: { initialMs: 10, maxMs: 40 } });
    clients.push(made);
    return made;
  }

  /** A watch that records what it is told, and when. */
  function watching(): CreateWatch & { told: string[]; endedAt: number[] } {
    const told: string[] = [];
    const endedAt: number[] = [];
    return {
      told,
      endedAt,
      lost: (t) => {
        told.push("lost");
        endedAt.push(t);
      },
      madeNothing: (again) => void told.push(`madeNothing(${again})`),
    };
  }

  const names = async (name: string): Promise<string[]> =>
    (await client(0).perform("listServices")).items.filter((s) => s.name === name).map((s) => s.service_id);
  const own = (base: string) => `${base}-${Math.random().toString(16).slice(2, 9)}`;

  beforeAll(async () => {
    emu = await startEmulator({ port: 0, clockScale: 0.01 });
  });
  beforeEach(async () => {
    await control(emu, "POST", "/reset");
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await emu.close();
  });

  it.each([
    ["a name of its own", true],
    ["a name the program chose", false],
  ])(
    "a 503 before the API acted, %s: sent again once a list read a bound after the 503 shows nothing; one service",
    async (_, uniqueName) => {
      await control(emu, "POST", "/faults", { method: "POST", path: "/services$", status: 503, count: 1 });
      const name = own("again");
      const watch = watching();
      const s = await client(1_000).perform("createService", { body: { name }, uniqueName, watch });
      expect(await names(name)).toEqual([s.service_id]);
      expect(typeof s.initial_password).toBe("string"); // the answer of the create sent again
      expect(await countRequests(emu, "POST", /\/services$/)).toBe(2);
      expect(watch.told).toEqual(["lost", "madeNothing(true)"]);
      // The list read that proved it made nothing started at least the bound after the 503 came.
      const log = await requestLog(emu);
      const [first, second] = log.filter((r) => r.method === "POST" && r.path.endsWith("/services")).map((r) => log.indexOf(r));
      const proof = log.slice(first, second).filter((r) => r.method === "GET" && r.path.endsWith("/services"));
      expect(Date.parse(proof[proof.length - 1].at)).toBeGreaterThanOrEqual(watch.endedAt[0] + 1_000 - 5);
    },
  );

  it("a list lagging less than the bound: the service the lost create made is found, never a second", async () => {
    await client(0).perform("listServices"); // an answer for the lagging list to give
    // Longer than the looks right after the loss (2 s), shorter than the bound.
    await control(emu, "POST", "/faults", { method: "GET", path: "/services$", lagMs: 3_000, count: 100 });
    await misbehave(emu, { method: "POST", path: "/services$", status: 503, after: true });
    const name = own("lagging-less");
    const s = await client(5_000).perform("createService", { body: { name }, uniqueName: true });
    await control(emu, "DELETE", "/faults");
    expect(await names(name)).toEqual([s.service_id]);
    expect(await countRequests(emu, "POST", /\/services$/)).toBe(1);
  });

  it("a list lagging more than the bound breaks the contract's assumption: a second service (documented, never within the bound)", async () => {
    await client(0).perform("listServices");
    await control(emu, "POST", "/faults", { method: "GET", path: "/services$", lagMs: 4_000, count: 100 });
    await misbehave(emu, { method: "POST", path: "/services$", status: 503, after: true });
    const name = own("lagging-more");
    await client(500).perform("createService", { body: { name }, uniqueName: true });
    await control(emu, "DELETE", "/faults");
    expect(await names(name)).toHaveLength(2);
    expect(await countRequests(emu, "POST", /\/services$/)).toBe(2);
  });

  it.each([
    ["within the bound after the client gave up: the service it made is found, never a second", 1_000, 1],
    ["later than the bound after the client gave up breaks the assumption: a second service (documented)", 2_500, 2],
  ])("a gateway holding the POST past the request's deadline, then passing it on %s", async (_, holdMs, services) => {
    // The client gives up at 300 ms (its request's deadline); the bound runs from then: 1.5 s.
    const impatient = clientOf(emu, {
      requestTimeoutMs: 300,
      listLagMs: 1_500,
      retryDeadlineMs: 20_000,
      poll: { initialMs: 10, maxMs: 40 },
    });
    clients.push(impatient);
    await misbehave(emu, { method: "POST", path: "/services$", status: 504, after: true, holdMs });
    const name = own("held");
    await impatient.perform("createService", { body: { name }, uniqueName: true });
    await new Promise((r) => setTimeout(r, holdMs + 500)); // the held request has been passed on by now
    expect(await names(name)).toHaveLength(services);
    expect(await countRequests(emu, "POST", /\/services$/)).toBe(services);
  });

  it("a name the program chose, another client's of that name appearing while it waits: ambiguous, with adoptId, never taken", async () => {
    await control(emu, "POST", "/faults", { method: "POST", path: "/services$", status: 503, count: 1 });
    const waiting = client(6_000)
      .perform("createService", { body: { name: "contested" } })
      .catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 3_000)); // past the looks right after the loss: while it waits for the bound
    const theirs = await client(0).perform("createService", { body: { name: "contested" } });
    const err = await waiting;
    expect(AmbiguousCreateError.isInstance(err)).toBe(true);
    expect((err as AmbiguousCreateError).candidateIds).toEqual([theirs.service_id]);
    expect((err as Error).message).toContain(`adoptId: "${theirs.service_id}"`);
    expect(await countRequests(emu, "POST", /\/services$/)).toBe(2); // ours once, theirs once
  });

  it("a peering, which has no name: sent again once the list shows it made nothing; one peering, the older one kept apart", async () => {
    const c = client(800);
    const vpc = await c.perform("createVpc", { body: { name: "peered", cidr: "10.4.0.0/16", region_code: "us-east-1" } });
    const body = { peer_account_id: "acct", peer_region_code: "us-east-1", peer_vpc_id: "pv" } as const;
    const older = await client(0).perform("createPeering", { vpc: vpc.id, body });
    await control(emu, "POST", "/faults", { method: "POST", path: "/peerings$", status: 503, count: 1 });
    const p = await c.perform("createPeering", { vpc: vpc.id, body });
    expect(p.id).not.toBe(older.id);
    const listed = (await c.perform("listPeerings", { vpc: vpc.id })).items.map((x) => x.id);
    expect(listed.sort()).toEqual([older.id, p.id].sort());
    expect(await countRequests(emu, "POST", /\/peerings$/)).toBe(3); // the older one, ours twice
  });

  it("a bound that would pass the call's deadline: stops, saying when a list read would prove it, and sends nothing again", async () => {
    await control(emu, "POST", "/faults", { method: "POST", path: "/services$", status: 503, count: 1 });
    const name = own("too-late");
    const started = Date.now();
    const err = await client(60_000, 5_000)
      .perform("createService", { body: { name }, uniqueName: true })
      .catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(AmbiguousCreateError.isInstance(err)).toBe(true);
    const message = (err as Error).message;
    expect(message).toContain(`(service "${name}", project ${emu.projectId})`);
    expect(message).toMatch(/within 60 s \(listLag\) of when the request ended/);
    expect(message).toContain("the create was not sent again");
    expect(await countRequests(emu, "POST", /\/services$/)).toBe(1);
  });

  it("the client closed while it waits for the bound: stops at once, its outcome unknown, and sends nothing again", async () => {
    await control(emu, "POST", "/faults", { method: "POST", path: "/services$", status: 503, count: 1 });
    const c = client(30_000, 60_000);
    const watch = watching();
    const waiting = c.perform("createService", { body: { name: own("closed") }, uniqueName: true, watch }).catch((e: unknown) => e);
    while (watch.told.length === 0) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 2_500)); // past the looks: waiting for the bound
    const closedAt = Date.now();
    clients.splice(clients.indexOf(c), 1);
    await c.close();
    const err = await waiting;
    expect(Date.now() - closedAt).toBeLessThan(1_000);
    expect(AmbiguousCreateError.isInstance(err)).toBe(true);
    expect((err as Error).message).toContain("the client was stopped (closed, or the operation cancelled) while it waited for that");
    expect(await countRequests(emu, "POST", /\/services$/)).toBe(1);
  });
});
