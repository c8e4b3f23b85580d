/**
 * The poll hub's bookkeeping of shared sources, at the edges the emulator cannot time: a
 * wait that begins on a source while the poll that ended the source's last wait is still
 * being delivered (the hub must then poll for the new wait alone, and stop once it is
 * over), and the choice between the list and each wait's own read as the waits on a list
 * of a known length come and go.
 */
import type { Service } from "../../provider/client";
import { PollHub, type WatchSpec } from "../../provider/client/pollHub";
import { listPays, POLL_COST } from "../../provider/client/readCost";
import { TransitionDurations } from "../../provider/client/transitionDurations";

/** The answer of the fake service list: two services, both READY. */
const LIST = [{ service_id: "a", status: "READY" } as Service, { service_id: "b", status: "READY" } as Service];

/**
 * Waits for services to be READY, polled from the project's list (`items()` when read) or
 * each from its own read; `reads` records each read in order: `"list"`, or the service's id.
 */
function servicesWatched(items: () => Service[]) {
  const reads: string[] = [];
  const source = {
    key: "services of p",
    fetch: async () => {
      reads.push("list");
      return { answer: items(), sentAt: Date.now() };
    },
    size: (answer: Service[]) => answer.length,
  };
  const spec = (id: string): WatchSpec<"service", Service[]> => ({
    resource: { kind: "service", id, projectId: "p" },
    operation: "waitForService",
    goal: { status: ["READY"] },
    timeoutMs: 10_000,
    schedule: { initialMs: 10, maxMs: 20 },
    source,
    locate: (answer) => ({ present: true, value: answer.find((s) => s.service_id === id)! }),
    own: async () => {
      reads.push(id);
      return { answer: { present: true, value: { service_id: id, status: "READY" } as Service }, sentAt: Date.now() };
    },
  });
  return { reads, source, spec };
}

describe("PollHub", () => {
  it("stops polling a source once its waits are over, also when one begins as the last one ends", async () => {
    const hub = new PollHub(new TransitionDurations());
    let fetches = 0;
    const source = {
      key: "services of p",
      fetch: async () => {
        fetches += 1;
        return { answer: LIST, sentAt: Date.now() };
      },
      size: (answer: Service[]) => answer.length,
    };
    const spec = (id: string): WatchSpec<"service", Service[]> => ({
      resource: { kind: "service", id, projectId: "p" },
      operation: "waitForService",
      goal: { status: ["READY"] },
      timeoutMs: 10_000,
      schedule: { initialMs: 10, maxMs: 50 },
      source,
      locate: async (answer) => {
        const found = answer.find((s) => s.service_id === id);
        return found ? { present: true, value: found } : { present: false };
      },
      own: async () => {
        fetches += 1;
        return { answer: { present: true, value: LIST.find((s) => s.service_id === id)! }, sentAt: Date.now() };
      },
    });
    try {
      // `then` runs as soon as the first wait is resolved, before the poll's delivery ends.
      const second = await new Promise((resolve, reject) => {
        hub.watch(spec("a")).then(() => hub.watch(spec("b")).then(resolve, reject), reject);
      });
      expect(second).toMatchObject({ service_id: "b", status: "READY" });
      expect(hub.waiting).toBe(0);
      const polled = fetches;
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(fetches).toBe(polled);
    } finally {
      hub.close();
    }
  });

  it("reads each due wait's own resource while few waits share a long list, and the list once enough do", async () => {
    const hub = new PollHub(new TransitionDurations());
    const LONG = 400;
    const ready = new Set<string>();
    const items = Array.from({ length: LONG }, (_, i) => ({ service_id: `s${i}`, status: "QUEUED" }) as Service);
    const reads: string[] = [];
    const source = {
      key: "services of p",
      fetch: async () => {
        reads.push("list");
        return { answer: items.map((s) => (ready.has(s.service_id) ? { ...s, status: "READY" } : s)), sentAt: Date.now() };
      },
      size: (answer: Service[]) => answer.length,
    };
    const spec = (id: string): WatchSpec<"service", Service[]> => ({
      resource: { kind: "service", id, projectId: "p" },
      operation: "waitForService",
      goal: { status: ["READY"] },
      timeoutMs: 10_000,
      schedule: { initialMs: 10, maxMs: 20 },
      source,
      locate: async (answer) => ({ present: true, value: answer.find((s) => s.service_id === id)! }),
      own: async () => {
        reads.push(id);
        return {
          answer: { present: true, value: { service_id: id, status: ready.has(id) ? "READY" : "QUEUED" } as Service },
          sentAt: Date.now(),
        };
      },
    });
    const waitFor = (ids: string[]) => Promise.all(ids.map((id) => hub.watch(spec(id))));
    const settle = (ids: string[]) => setTimeout(() => ids.forEach((id) => ready.add(id)), 100);
    try {
      // Enough waits to learn the list's length: one list, then the long list does not pay for them.
      const learners = Array.from({ length: POLL_COST.learnAt }, (_, i) => `s${i}`);
      settle(learners);
      await waitFor(learners);
      expect(reads.filter((r) => r === "list")).toHaveLength(1);
      expect(listPays(learners.length, LONG)).toBe(false);
      expect(reads.slice(reads.indexOf("list") + 1).every((r) => learners.includes(r))).toBe(true);

      // One wait, the list's length known: its own reads.
      reads.length = 0;
      settle(["s50"]);
      await waitFor(["s50"]);
      expect(reads.length).toBeGreaterThan(0);
      expect(reads.every((r) => r === "s50")).toBe(true);

      // As many waits as the list is worth: the list serves them all.
      const many = Array.from(
        { length: Math.ceil((POLL_COST.requestItems + LONG) / (POLL_COST.requestItems + 1)) },
        (_, i) => `s${100 + i}`,
      );
      expect(listPays(many.length, LONG)).toBe(true);
      reads.length = 0;
      settle(many);
      await waitFor(many);
      expect(reads.length).toBeGreaterThan(0);
      expect(reads.every((r) => r === "list")).toBe(true);
    } finally {
      hub.close();
    }
  });

  it("once the API limits the rate, learns the list's length only when 20 waits share it, and reads it only where it downloads no more than the waits' own reads", async () => {
    const hub = new PollHub(new TransitionDurations(), () => "limited");
    let items: Service[] = [];
    const { reads, spec } = servicesWatched(() => items);
    const listOf = (n: number) => Array.from({ length: n }, (_, i) => ({ service_id: `s${i}`, status: "READY" }) as Service);
    try {
      // Its length unknown, the list is not read for two waits: it may be a project other stacks fill.
      items = listOf(POLL_COST.limitedLearnAt + 1);
      expect(listPays(2, undefined, "limited")).toBe(false);
      await Promise.all([hub.watch(spec("s0")), hub.watch(spec("s00"))]);
      expect(reads.sort()).toEqual(["s0", "s00"]);
      // Learnt once 20 waits share it (for them, a list of 21 items pays).
      reads.length = 0;
      await Promise.all(Array.from({ length: POLL_COST.limitedLearnAt }, (_, i) => hub.watch(spec(`s${i + 1}`))));
      expect(reads).toEqual(["list"]);
      reads.length = 0;
      // Known, the list is read as when the rate is not limited: by bytes. Two waits on 21 items read their own.
      expect([listPays(2, 21, "limited"), listPays(2, 21)]).toEqual([false, false]);
      expect([listPays(2, 4, "limited"), listPays(2, 4)]).toEqual([true, true]);
      await Promise.all([hub.watch(spec("s1")), hub.watch(spec("s2"))]);
      expect(reads.sort()).toEqual(["s1", "s2"]);
      // Two waits on a list of 5,000 (a project other stacks share): their own reads, not 5,000 services.
      items = listOf(5_000);
      reads.length = 0;
      expect(listPays(2, 5_000, "limited")).toBe(false);
      await Promise.all([hub.watch(spec("s4")), hub.watch(spec("s5"))]);
      expect(reads.sort()).toEqual(["s4", "s5"]);
    } finally {
      hub.close();
    }
  });
  it("once the API limits the rate, takes a list's length learned 3 s ago as unknown: a fleet's other stacks may have grown it by 30 services since", async () => {
    const hub = new PollHub(new TransitionDurations(), () => "limited");
    const items = [{ service_id: "s1", status: "READY" } as Service, { service_id: "s2", status: "READY" } as Service];
    const { reads, source, spec } = servicesWatched(() => items);
    const realNow = Date.now.bind(Date);
    try {
      // Learned just now (a create's look-alikes): two services, which two waits read at once.
      hub.learnLength(source.key, 2);
      await Promise.all([hub.watch(spec("s1")), hub.watch(spec("s2"))]);
      expect(reads).toEqual(["list"]);
      reads.length = 0;
      // The same length, learned 3 s before the waits poll (more than POLL_COST.limitedLengthFreshMs): the project may be 30 longer by now; each wait reads its own.
      hub.learnLength(source.key, 2);
      const later = realNow() + 3_000;
      const offset = later - realNow();
      jest.spyOn(Date, "now").mockImplementation(() => realNow() + offset);
      await Promise.all([hub.watch(spec("s1")), hub.watch(spec("s2"))]);
      expect(reads.sort()).toEqual(["s1", "s2"]);
    } finally {
      jest.restoreAllMocks();
      hub.close();
    }
  });
  it("once the API limits the rate, takes a list's length as unknown while the client's writes wait for their turns: its poll is sent after them", async () => {
    let writesQueued = true;
    const hub = new PollHub(
      new TransitionDurations(),
      () => "limited",
      undefined,
      () => writesQueued,
    );
    const items = [{ service_id: "s1", status: "READY" } as Service, { service_id: "s2", status: "READY" } as Service];
    const { reads, source, spec } = servicesWatched(() => items);
    try {
      // Learned just now, two services long, but writes are queued: the list would be read after them, longer; each wait reads its own.
      hub.learnLength(source.key, 2);
      await Promise.all([hub.watch(spec("s1")), hub.watch(spec("s2"))]);
      expect(reads.sort()).toEqual(["s1", "s2"]);
      // The writes sent: the same length, just learned, pays for one list.
      writesQueued = false;
      reads.length = 0;
      hub.learnLength(source.key, 2);
      await Promise.all([hub.watch(spec("s1")), hub.watch(spec("s2"))]);
      expect(reads).toEqual(["list"]);
    } finally {
      hub.close();
    }
  });
  it("on a told fleet's grid (a request a slot of the machine's), reads the list for two waits unless its length outweighs the slot saved, and a lone wait's own", async () => {
    const hub = new PollHub(
      new TransitionDurations(),
      () => "slot",
      undefined,
      () => true,
    );
    // A project of 200 services (a fleet's), its length unknown and writes queued: a list read saves a slot.
    let items = Array.from({ length: 200 }, (_, i) => ({ service_id: `s${i}`, status: "READY" }) as Service);
    const { reads, source, spec } = servicesWatched(() => items);
    try {
      expect([listPays(2, 200, "slot"), listPays(2, undefined, "slot"), listPays(1, 1, "slot")]).toEqual([true, true, false]);
      await Promise.all([hub.watch(spec("s1")), hub.watch(spec("s2"))]);
      expect(reads).toEqual(["list"]);
      reads.length = 0;
      await hub.watch(spec("s3"));
      expect(reads).toEqual(["s3"]);
      // Known to be 5,000 long, writes still queued (a limited client would take the length as unknown; on the grid it bounds a slot's worth): two waits read their own.
      items = Array.from({ length: 5_000 }, (_, i) => ({ service_id: `s${i}`, status: "READY" }) as Service);
      hub.learnLength(source.key, 5_000);
      reads.length = 0;
      expect([listPays(2, 5_000, "slot"), listPays(6, 5_000, "slot")]).toEqual([false, true]);
      await Promise.all([hub.watch(spec("s4")), hub.watch(spec("s5"))]);
      expect(reads.sort()).toEqual(["s4", "s5"]);
    } finally {
      hub.close();
    }
  });
});
