/**
 * What the machine's clients of one API key share (provider/client/keySchedule.ts,
 * sharedSchedule.ts) and what they read of the API's rate-limit fields (rateLimitFields.ts).
 */
import { spawn, spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { answered, claimSlots, growRate, LONG_ROUND_TRIP_MS, refused, sent, unused } from "../../provider/client/shaping/keySchedule";
import { activeMembers, newSchedule, PACER } from "../../provider/client/shaping/schedule";
import { readLimitFields } from "../../provider/client/shaping/limitFields";
import { LIST_COST, SharedLists } from "../../provider/client/shaping/sharedLists";
import { SharedSchedule } from "../../provider/client/shaping/sharedSchedule";
import { pacingDirPerTest } from "./pacingDir";

/** No jitter on a hold, so that the tests see its length. */
const noJitter = (): number => 0;
/** A client pacing alone that counted `n` accepted requests before a 429 (of its own answers). */
const counting = (n: number) => ({ count: () => n, since: 0 });

describe("the IETF rate-limit fields", () => {
  it("reads the policy's quota per second and what is left", () => {
    expect(readLimitFields({ "ratelimit-policy": '"default";q=100;w=10', ratelimit: '"default";r=42;t=3' })).toEqual({
      perSecond: 10,
      remaining: 42,
      resetSeconds: 3,
      windowSeconds: 10,
    });
  });

  it("takes the lowest of several policies, and the earlier drafts' separate fields", () => {
    expect(readLimitFields({ "ratelimit-policy": '"burst";q=50;w=1, "day";q=86400;w=86400' }).perSecond).toBe(1);
    expect(readLimitFields({ "ratelimit-policy": "10;w=1", "ratelimit-remaining": "0", "ratelimit-reset": "1" })).toEqual({
      perSecond: 10,
      remaining: 0,
      resetSeconds: 1,
      windowSeconds: 1,
    });
  });

  it("says nothing of fields it cannot read, or of none", () => {
    expect(readLimitFields({})).toEqual({});
    expect(readLimitFields({ "ratelimit-policy": "garbage;;=", ratelimit: "r=x" })).toEqual({});
  });
});

describe("the key's schedule", () => {
  it("gives the clients' turns in the order claimed, evenly spaced at the rate", () => {
    const s = newSchedule(0);
    s.slowStart = false;
    s.rate = 10;
    const a = claimSlots(s, 0, "a", 1);
    const b = claimSlots(s, 0, "b", 1);
    const a2 = claimSlots(s, 0, "a", 1);
    expect([a, b, a2]).toEqual([[0], [100], [200]]);
  });

  it("cuts the rate to 90% of what the API accepted in the second before a 429, and a Retry-After holds every slot", () => {
    const t0 = 10_000;
    const s = newSchedule(t0);
    s.slowStart = false;
    s.rate = 20;
    for (let i = 0; i < 12; i++) claimSlots(s, t0 + i * 50, "a", 1);
    refused(s, t0 + 600, 1, true, t0 + 550, undefined, noJitter);
    expect(s.rate).toBeCloseTo(11 * PACER.afterLimit);
    expect(s.limit).toBe(11);
    expect(claimSlots(s, t0 + 700, "b", 1)[0]).toBeGreaterThanOrEqual(t0 + 600 + 1_000 + PACER.retryAfterMarginMs);
  });

  it("counts each request at the time it left, not at its slot, when a 429 measures the limit", () => {
    const t0 = 10_000;
    const s = newSchedule(t0);
    s.slowStart = false;
    s.rate = 20;
    for (let i = 0; i < 12; i++) claimSlots(s, t0 + i * 50, "a", 1);
    // The first two left 300 ms late (a busy machine): the API counted them in the second before
    // the 429 of a request that left at t0 + 1,100.
    sent(s, [
      [t0, t0 + 300],
      [t0 + 50, t0 + 310],
    ]);
    refused(s, t0 + 1_110, undefined, true, t0 + 1_100, undefined, noJitter);
    expect(s.limit).toBe(10);
    expect(s.rate).toBeCloseTo(10 * PACER.afterLimit);
  });

  it("measures the second before the congestion's first refused request, whichever 429 came back first", () => {
    const t0 = 10_000;
    const s = newSchedule(t0 - 2_000);
    s.rate = 40;
    // One request 1,029 ms before the refused one whose 429 came back first, nine in its last half
    // second, then a burst: the API's window was full when the request of t0 - 98 came.
    const sentAt = [t0 - 1_029, ...Array.from({ length: 9 }, (_, i) => t0 - 510 + i * 48), t0 - 98, t0 - 68, t0 - 38, t0];
    for (const at of sentAt) claimSlots(s, at, "a", 1);
    refused(s, t0 + 5, 1, true, t0, undefined, noJitter);
    for (const at of [t0 - 98, t0 - 68, t0 - 38]) refused(s, t0 + 20, 1, true, at, undefined, noJitter);
    claimSlots(s, t0 + 600, "a", 1);
    expect(s.limit).toBe(10);
    expect(s.rate).toBeCloseTo(10 * PACER.afterLimit);
  });

  it("counts, in a slow start's first congestion, a request that left over a second before the first refused one but reached the API within that second", () => {
    const t0 = 10_000;
    /** The limit measured when the first request, a list read opening its connection, left `leftBefore` ms before the first refused one; nine more in its last half second. */
    const measure = (leftBefore: number, answeredAt: number, told: "before" | "after" = "before"): number | undefined => {
      const s = newSchedule(t0 - 2_000);
      s.rate = 40;
      for (const at of [t0 - leftBefore, ...Array.from({ length: 9 }, (_, i) => t0 - 500 + i * 50), t0]) claimSlots(s, at, "a", 1);
      if (told === "before") answered(s, t0 - 400, [[t0 - leftBefore, answeredAt]]);
      refused(s, t0 + 5, 1, true, t0, undefined, noJitter);
      if (told === "after") answered(s, t0 + 300, [[t0 - leftBefore, answeredAt]]);
      claimSlots(s, t0 + 600, "a", 1);
      expect(s.answers).toBeUndefined();
      return s.limit;
    };
    // Answered 448 ms after it left: the middle of its round trip falls within the second before the refused one.
    expect(measure(1_054, t0 - 606)).toBe(10);
    // Told after the 429: the measure taken again counts it.
    expect(measure(1_054, t0 - 606, "after")).toBe(10);
    // Answered before that second began, or so late after leaving that its round trip's middle falls before it: the API had let it go.
    expect(measure(1_054, t0 - 1_010)).toBe(9);
    expect(measure(1_408, t0 - 978)).toBe(9);
  });

  it("keeps the times of long round trips only, and only until the slow start's limit is measured", () => {
    const s = newSchedule(0);
    answered(s, 300, [
      [0, 290],
      [100, 100 + LONG_ROUND_TRIP_MS - 1],
    ]);
    expect(s.answers).toEqual([[0, 290]]);
    // Forgotten once too old to reach any second a measure counts.
    answered(s, 10_000, [[9_000, 9_950]]);
    expect(s.answers).toEqual([[9_000, 9_950]]);
    s.slowStart = false;
    answered(s, 10_100, [[9_800, 10_050]]);
    expect(s.answers).toBeUndefined();
  });

  it("grows past a limit the slow start of several clients measured, until the next congestion measures it again; a lone client's measure caps it", () => {
    const t0 = 10_000;
    /** A slow start whose first congestion counts 7 accepted of the clients' (some told late: a lower bound), then 8 s of clients wanting more. */
    const afterSlowStart = (clients: string[]): { s: ReturnType<typeof newSchedule>; rates: number[] } => {
      const s = newSchedule(t0 - 2_000);
      s.rate = 40;
      for (let i = 0; i < 8; i++) claimSlots(s, t0 - 700 + i * 100, clients[i % clients.length], 1);
      refused(s, t0 + 5, 1, true, t0, undefined, noJitter);
      claimSlots(s, t0 + 600, clients[0], 1);
      expect(s.limit).toBe(7);
      const rates = [1, 2, 3, 4, 5, 6, 7, 8].map((k) => {
        s.wanted = true;
        growRate(s, t0 + 1_000 + k * 1_000);
        return s.rate;
      });
      return { s, rates };
    };
    const lone = afterSlowStart(["a"]);
    expect(Math.max(...lone.rates)).toBeLessThanOrEqual(7 * PACER.belowLimit);
    const fleet = afterSlowStart(["a", "b", "c", "d"]);
    // 10% a second, but in the step the 429 came in, up to twice the bound.
    expect(fleet.rates[7]).toBeCloseTo(7 * PACER.afterLimit * PACER.growth ** 7);
    for (let k = 9; k <= 20; k++) {
      fleet.s.wanted = true;
      growRate(fleet.s, t0 + 1_000 + k * 1_000);
    }
    expect(fleet.s.rate).toBeCloseTo(7 * PACER.lowerBoundReach);
    // The next congestion (ten in its second before) measures the limit: the rate is capped under it again.
    const { s } = fleet;
    const at = t0 + 30_000;
    for (let i = 0; i < 10; i++) claimSlots(s, at - 900 + i * 100, "b", 1);
    refused(s, at + 5, 1, true, at, undefined, noJitter);
    expect(s.limit).toBe(9);
    for (let k = 1; k <= 5; k++) {
      s.wanted = true;
      growRate(s, at + 2_000 + k * 1_000);
    }
    expect(s.rate).toBeCloseTo(9 * PACER.belowLimit);
  });

  it("does not count as accepted the slots a client left unused", () => {
    const t0 = 10_000;
    const s = newSchedule(t0);
    s.slowStart = false;
    s.rate = 20;
    for (let i = 0; i < 12; i++) claimSlots(s, t0 + i * 50, "a", 1);
    unused(s, [t0 + 300, t0 + 350]);
    refused(s, t0 + 560, 1, true, t0 + 550, undefined, noJitter);
    expect(s.limit).toBe(9);
  });

  it("holds the slots a bare 429 reaches only briefly", () => {
    const s = newSchedule(0);
    refused(s, 100, undefined, true, 100, undefined, noJitter);
    expect(s.pausedUntil).toBe(100 + PACER.bareRefusalPauseMs);
  });

  it("keeps the limit it knows when a later 429 measures it a little short (a request that arrived late), not when well short, above, or recurring", () => {
    const after = (accepted: number): { limit?: number; rate: number } => {
      const s = newSchedule(0);
      refused(s, 10_000, undefined, true, 10_000, counting(10), noJitter);
      s.rate = 10 * PACER.belowLimit;
      refused(s, 20_000, undefined, true, 20_000, counting(accepted), noJitter);
      return { limit: s.limit, rate: s.rate };
    };
    expect(after(9)).toEqual({ limit: 10, rate: 10 * PACER.afterLimit });
    expect(after(8).limit).toBe(10);
    expect(after(7)).toEqual({ limit: 7, rate: 7 * PACER.afterLimit });
    expect(after(11).limit).toBe(11);
    // 429s that recur within seconds say the limit fell.
    const s = newSchedule(0);
    refused(s, 10_000, undefined, true, 10_000, counting(10), noJitter);
    refused(s, 12_000, undefined, true, 12_000, counting(9), noJitter);
    expect(s.limit).toBe(9);
  });
});

describe("the schedule's file", () => {
  const pacingDir = pacingDirPerTest();

  it("keeps a limit taken as a floor across its clients' changes, as each reads it back", async () => {
    const dir = pacingDir();
    const [a, b] = [0, 1].map(() => new SharedSchedule(dir, "https://api.example.com/v1", "key"));
    // Both clients claim, then one meets the slow start's first 429: with two clients, its measure is a floor.
    await a.update((s, now) => claimSlots(s, now, a.member, 3));
    await b.update((s, now) => claimSlots(s, now, b.member, 3));
    // Met once the six slots have passed (the last 250 ms after the first): five of them accepted.
    await a.update((s, now) => refused(s, now + 400, 1, true, now + 400, undefined, noJitter));
    const read = await b.update((s) => ({ lowerBound: s.lowerBound, limit: s.limit }));
    expect(read?.result).toEqual({ lowerBound: true, limit: 5 });
  });

  it("is private, and holds neither the key nor the URL", async () => {
    const shared = new SharedSchedule(pacingDir(), "https://api.example.com/v1", "secret-key-123");
    const done = await shared.update((s, now) => claimSlots(s, now, shared.member, 1));
    expect(done?.result).toHaveLength(1);
    expect(fs.statSync(pacingDir()).mode & 0o777).toBe(0o700);
    const [file] = fs.readdirSync(pacingDir());
    expect(fs.statSync(path.join(pacingDir(), file)).mode & 0o777).toBe(0o600);
    const text = fs.readFileSync(path.join(pacingDir(), file), "utf8");
    expect(text).not.toContain("secret-key-123");
    expect(text).not.toContain("api.example.com");
  });

  it("is written over in place, and read as none while a write is half done; an earlier version's file, renamed over whole, is read as it is", async () => {
    const shared = new SharedSchedule(pacingDir(), "https://api.example.com/v1", "k");
    const many = Array.from({ length: 200 }, (_, i) => Date.now() + i);
    await shared.update((s) => void (s.slots = many));
    const file = path.join(pacingDir(), `${shared.name}.json`);
    const long = fs.readFileSync(file, "utf8");
    const inode = fs.statSync(file).ino;
    // A shorter schedule over a longer one: the same file, no end of the longer one left after it.
    await shared.update((s) => void (s.slots = []));
    const short = fs.readFileSync(file, "utf8");
    expect(fs.statSync(file).ino).toBe(inode);
    expect(short.length).toBe(long.length);
    expect((await shared.read())?.slots).toEqual([]);
    // A reader that comes while the short one is written over the long one sees the start of one and the end of the other.
    const at = short.indexOf('"slots"') + 4;
    for (const torn of [short.slice(0, at) + long.slice(at), long.slice(0, at) + short.slice(at)]) {
      fs.writeFileSync(file, torn);
      expect(await shared.read()).toBeUndefined();
    }
    // Torn so that it still parses: the marks tell.
    const other = JSON.parse(long) as Record<string, unknown>;
    fs.writeFileSync(file, JSON.stringify({ ...other, frameEnd: Number(other.frameEnd) + 1 }));
    expect(await shared.read()).toBeUndefined();
    // An earlier version's file (no marks, renamed over whole) reads as it is, and the next change frames it.
    const { frame: _f, frameEnd: _e, ...unframed } = other;
    fs.writeFileSync(file, JSON.stringify(unframed));
    expect((await shared.read())?.slots).toHaveLength(200);
    await shared.update((s) => void s.slots.splice(0, 100));
    expect((await shared.read())?.slots).toHaveLength(100);
  });

  it("no longer counts a client whose process ended as sharing the key, nor waits for the turns it was given; a running one's still count", async () => {
    const shared = new SharedSchedule(pacingDir(), "https://api.example.com/v1", "k");
    const ended = spawnSync(process.execPath, ["-e", "0"]).pid;
    const running = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"]);
    try {
      // A process's client took four turns at 0.5 a second (8 s of them) and its process ended.
      const claim = (member: string) =>
        shared.update((s, now) => {
          s.slowStart = false;
          s.rate = 0.5;
          return claimSlots(s, now, member, 4);
        });
      await claim(`${ended}.a1b2c3`);
      const view = await shared.read();
      expect(view && activeMembers(view, Date.now())).toBe(0);
      const before = Date.now();
      const mine = await shared.update((s, now) => claimSlots(s, now, shared.member, 1));
      expect(mine?.result[0]).toBeLessThanOrEqual(Date.now() + 2_000);
      expect(mine?.result[0]).toBeGreaterThanOrEqual(before);
      // A client of a process still running keeps its turns, and counts.
      await claim(`${running.pid}.d4e5f6`);
      const later = await shared.update((s, now) => claimSlots(s, now, shared.member, 1));
      expect(later?.result[0]).toBeGreaterThan(Date.now() + 6_000);
      expect(later && activeMembers(later.schedule, Date.now())).toBe(2);
    } finally {
      running.kill();
    }
  });

  it("says its lock was busy when others held it all the while, so the client tries again rather than pace alone", async () => {
    const shared = new SharedSchedule(pacingDir(), "https://api.example.com/v1", "k");
    expect(await shared.ready()).toBe(true);
    // A lock of a running process (this one), fresh: not stale, so it is not broken.
    fs.writeFileSync(path.join(pacingDir(), `${shared.name}.lock`), String(process.pid));
    expect(await shared.update(() => undefined)).toBeUndefined();
    expect(shared.busy).toBe(true);
    fs.rmSync(path.join(pacingDir(), `${shared.name}.lock`));
    expect(await shared.update(() => 1)).toMatchObject({ result: 1 });
    expect(shared.busy).toBe(false);
  });

  it("asks for a list's read for the machine again soon while others hold the schedule's lock, rather than have the client read it alone", async () => {
    const shared = new SharedSchedule(pacingDir(), "https://api.example.com/v1", "k");
    const lists = new SharedLists(shared, pacingDir());
    expect(await shared.ready()).toBe(true);
    const lock = path.join(pacingDir(), `${shared.name}.lock`);
    // A lock of a running process (this one), fresh: fifty processes' waits asking at once on two cores.
    fs.writeFileSync(lock, String(process.pid));
    const asked = Date.now();
    const turn = await lists.take("services p");
    expect(typeof turn).toBe("number");
    expect(turn as number).toBeGreaterThanOrEqual(asked);
    expect(turn as number).toBeLessThanOrEqual(Date.now() + LIST_COST.busyRetryMs);
    fs.rmSync(lock);
    expect(await lists.take("services p")).toBe(true);
  });

  it("has a list read for the machine seldom while its clients' writes wait for their turns, then as its length allows", async () => {
    const shared = new SharedSchedule(pacingDir(), "https://api.example.com/v1", "k");
    const lists = new SharedLists(shared, pacingDir());
    const key = "services p";
    expect(await lists.take(key)).toBe(true);
    const sentAt = Date.now();
    await lists.done(key, { sentAt, body: Array.from({ length: 200 }, (_, i) => ({ service_id: `s${i}` })) });
    // Another client claims turns for its writes: the next read waits the longest gap.
    await shared.update((s, now) => claimSlots(s, now, "writer", 1, true));
    expect(await lists.take(key)).toBe(sentAt + LIST_COST.writingGapMs);
    // Once no write has claimed a turn for a while, its length sets the gap.
    await shared.update((s) => {
      s.writesAt = Date.now() - 2_000;
    });
    expect(await lists.take(key)).toBe(sentAt + 200 * LIST_COST.msPerItem);
  });
});
