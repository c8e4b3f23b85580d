/**
 * What the machine's clients of one API key share (provider/client/keySchedule.ts,
 * sharedSchedule.ts) and what they read of the API's rate-limit fields (rateLimitFields.ts).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { claimSlots, newSchedule, PACER, refused, sent, unused } from "../../provider/client/keySchedule";
import { readLimitFields } from "../../provider/client/rateLimitFields";
import { SharedSchedule } from "../../provider/client/sharedSchedule";

describe("the IETF rate-limit fields", () => {
  it("reads the policy's quota per second and what is left", () => {
    expect(readLimitFields({ "ratelimit-policy": '"default";q=100;w=10', ratelimit: '"default";r=42;t=3' })).toEqual({
      perSecond: 10,
      remaining: 42,
      resetSeconds: 3,
    });
  });

  it("takes the lowest of several policies, and the earlier drafts' separate fields", () => {
    expect(readLimitFields({ "ratelimit-policy": '"burst";q=50;w=1, "day";q=86400;w=86400' }).perSecond).toBe(1);
    expect(readLimitFields({ "ratelimit-policy": "10;w=1", "ratelimit-remaining": "0", "ratelimit-reset": "1" })).toEqual({
      perSecond: 10,
      remaining: 0,
      resetSeconds: 1,
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
    refused(s, t0 + 600, 1, true, 0, t0 + 550);
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
    refused(s, t0 + 1_110, undefined, true, 0, t0 + 1_100);
    expect(s.limit).toBe(10);
    expect(s.rate).toBeCloseTo(10 * PACER.afterLimit);
  });

  it("does not count as accepted the slots a client left unused", () => {
    const t0 = 10_000;
    const s = newSchedule(t0);
    s.slowStart = false;
    s.rate = 20;
    for (let i = 0; i < 12; i++) claimSlots(s, t0 + i * 50, "a", 1);
    unused(s, [t0 + 300, t0 + 350]);
    refused(s, t0 + 560, 1, true, 0, t0 + 550);
    expect(s.limit).toBe(9);
  });

  it("holds the slots a bare 429 reaches only briefly", () => {
    const s = newSchedule(0);
    refused(s, 100, undefined, true);
    expect(s.pausedUntil).toBe(100 + PACER.bareRefusalPauseMs);
  });
});

describe("the schedule's file", () => {
  let dir: string;
  beforeEach(() => {
    dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pacing-")), "pacing");
  });
  afterEach(() => {
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  });

  it("is private, and holds neither the key nor the URL", async () => {
    const shared = new SharedSchedule(dir, "https://api.example.com/v1", "secret-key-123");
    const done = await shared.update((s, now) => claimSlots(s, now, shared.member, 1));
    expect(done?.result).toHaveLength(1);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    const [file] = fs.readdirSync(dir);
    expect(fs.statSync(path.join(dir, file)).mode & 0o777).toBe(0o600);
    const text = fs.readFileSync(path.join(dir, file), "utf8");
    expect(text).not.toContain("secret-key-123");
    expect(text).not.toContain("api.example.com");
  });

  it("says its lock was busy when others held it all the while, so the client tries again rather than pace alone", async () => {
    const shared = new SharedSchedule(dir, "https://api.example.com/v1", "k");
    expect(await shared.ready()).toBe(true);
    // A lock of a running process (this one), fresh: not stale, so it is not broken.
    fs.writeFileSync(path.join(dir, `${shared.name}.lock`), String(process.pid));
    expect(await shared.update(() => undefined)).toBeUndefined();
    expect(shared.busy).toBe(true);
    fs.rmSync(path.join(dir, `${shared.name}.lock`));
    expect(await shared.update(() => 1)).toMatchObject({ result: 1 });
    expect(shared.busy).toBe(false);
  });
});
