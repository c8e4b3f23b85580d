/**
 * The pacer on a fake clock: priority order, the pause after a 429, slow start, the rate
 * it settles at against an API that accepts 10 requests a second (a sliding one-second
 * window, as the emulator's rate limit), and a queue of 100,000 requests drained in order.
 */
import { PACER, Pacer, type Priority } from "../../provider/client/shaping/pacer";

beforeEach(() => {
  jest.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  jest.useRealTimers();
});

/** An API that accepts `limit` requests in any sliding second and answers 429 (Retry-After 1) beyond. */
function limitedApi(limit: number) {
  const accepted: number[] = [];
  let refused = 0;
  return {
    answer(now: number): number {
      while (accepted.length > 0 && accepted[0] <= now - 1_000) accepted.shift();
      if (accepted.length >= limit) {
        refused++;
        return 429;
      }
      accepted.push(now);
      return 200;
    },
    get refused() {
      return refused;
    },
  };
}

/** Sends one request through the pacer to `api` until it is accepted; resolves with the time it was. */
async function send(pacer: Pacer, api: ReturnType<typeof limitedApi>, priority: Priority): Promise<number> {
  for (;;) {
    await pacer.acquire(priority);
    const status = api.answer(Date.now());
    pacer.settle(status, status === 429 ? 1 : undefined);
    if (status !== 429) return Date.now();
  }
}

describe("pacer", () => {
  it("lets writes go before reads, and reads before polls", async () => {
    const pacer = new Pacer();
    const order: string[] = [];
    // Use up the first slot so that the rest queue.
    await pacer.acquire("read");
    const all = [
      pacer.acquire("poll").then(() => order.push("poll")),
      pacer.acquire("read").then(() => order.push("read")),
      pacer.acquire("write").then(() => order.push("write")),
    ];
    await jest.advanceTimersByTimeAsync(1_000);
    await Promise.all(all);
    expect(order).toEqual(["write", "read", "poll"]);
  });

  it("pauses every request until Retry-After has passed, and sets the rate to 90% of what the API accepted", async () => {
    const pacer = new Pacer();
    for (let i = 0; i < 8; i++) {
      await pacer.acquire("read");
      pacer.settle(200);
      await jest.advanceTimersByTimeAsync(50);
    }
    pacer.settle(429, 2);
    // And up to one turn at the rate more (the hold's jitter: flows refused together come back apart).
    const jitter = pacer.pausedUntil - (Date.now() + 2_000 + PACER.retryAfterMarginMs);
    expect(jitter).toBeGreaterThanOrEqual(0);
    expect(jitter).toBeLessThanOrEqual(1_000 / pacer.rate);
    expect(pacer.rate).toBeCloseTo(8 * PACER.afterLimit);
    let released = false;
    void pacer.acquire("write").then(() => (released = true));
    await jest.advanceTimersByTimeAsync(2_000);
    expect(released).toBe(false);
    await jest.advanceTimersByTimeAsync(PACER.retryAfterMarginMs + jitter + 1);
    expect(released).toBe(true);
  });

  it("starts fast until the API pushes back: 200 writes at once leave within 1.5 s, doubling its rate every step", async () => {
    const pacer = new Pacer();
    const api = limitedApi(1_000);
    const started = Date.now();
    const done = Promise.all(Array.from({ length: 200 }, () => send(pacer, api, "write")));
    await jest.advanceTimersByTimeAsync(5_000);
    const last = Math.max(...(await done));
    // 20/s doubling every 250 ms sends 5, 10, 20, 40, 80 in its first five steps, the rest in the sixth.
    expect(last - started).toBeLessThan(1_500);
    expect(pacer.rate).toBeGreaterThanOrEqual(PACER.initialRate * 16);
    expect(api.refused).toBe(0);
  });

  it("drains 100,000 queued requests in the order they came, each priority in turn, at its rate rather than one a timer tick", async () => {
    const pacer = new Pacer();
    const order: number[] = [];
    const N = 100_000;
    const all = Array.from({ length: N }, (_, i) =>
      pacer.acquire(i % 10 === 0 ? "poll" : "write").then((sent) => {
        order.push(i);
        pacer.settle(200);
        return sent;
      }),
    );
    expect(pacer.queued).toBeGreaterThan(N - 10);
    // Doubling from 20/s every 250 ms, the slow start has sent 100,000 by its 15th step (3.75 s);
    // a request a timer tick (a millisecond at best) would take 100 s.
    await jest.advanceTimersByTimeAsync(4_000);
    expect(pacer.queued).toBe(0);
    expect(await Promise.all(all)).toEqual(Array(N).fill(true));
    const expected = Array.from({ length: N }, (_, i) => i);
    // The first request left at once; then every write before any poll, each in arrival order.
    expect(order).toEqual([0, ...expected.filter((i) => i % 10 !== 0), ...expected.filter((i) => i !== 0 && i % 10 === 0)]);
  });

  it("lets a request go unsent, at once, when a pause reaches past what it may wait, and keeps the others in order", async () => {
    const pacer = new Pacer();
    await pacer.acquire("read");
    const patient = [pacer.acquire("read"), pacer.acquire("read")];
    const hasty = pacer.acquire("read", Date.now() + 500);
    pacer.settle(429, 2);
    expect(await hasty).toBe(false);
    expect(await pacer.acquire("write", Date.now() + 1_000)).toBe(false);
    // The hold, its jitter, and two turns at the least rate (a first request refused measures nothing: keySchedule.ts).
    await jest.advanceTimersByTimeAsync(2_000 + PACER.retryAfterMarginMs + 1_000 + 2_000 / PACER.minRate);
    expect(await Promise.all(patient)).toEqual([true, true]);
  });

  it("lets a poll go unsent when its turn comes after it went stale behind the writes, and sends the others", async () => {
    const pacer = new Pacer();
    await pacer.acquire("write");
    const started = Date.now();
    const writes = Array.from({ length: 200 }, () => pacer.acquire("write"));
    const stale = pacer.acquire("poll", Infinity, started + PACER.pollStaleMs);
    const patient = pacer.acquire("poll");
    let staleAt = 0;
    void stale.then(() => (staleAt = Date.now()));
    await jest.advanceTimersByTimeAsync(3_000);
    expect(await Promise.all(writes)).toEqual(writes.map(() => true));
    // 200 writes take longer than the poll may wait: it is let go unsent when its turn comes, the other is sent.
    expect(await stale).toBe(false);
    expect(staleAt - started).toBeGreaterThan(PACER.pollStaleMs);
    expect(pacer.held.by).toBe("queue");
    expect(await patient).toBe(true);
  });

  it("sends a poll that waited past its staleAt only for its turn, with nothing sent ahead of it", async () => {
    const pacer = new Pacer();
    await pacer.acquire("poll");
    pacer.settle(429, 2);
    const poll = pacer.acquire("poll", Infinity, Date.now() + PACER.pollStaleMs);
    // The hold, its jitter, and a turn at the least rate (a first request refused measures nothing: keySchedule.ts).
    await jest.advanceTimersByTimeAsync(2_000 + PACER.retryAfterMarginMs + 1_000 + 1_000 / PACER.minRate + 100);
    expect(await poll).toBe(true);
  });

  it("40 writes and 60 polls against 10 requests a second: few 429s, and close to the API's pace", async () => {
    const pacer = new Pacer();
    const api = limitedApi(10);
    const started = Date.now();
    const writes = Array.from({ length: 40 }, () => send(pacer, api, "write"));
    const polls = Array.from({ length: 60 }, () => send(pacer, api, "poll"));
    const lastWrite = Promise.all(writes).then((t) => Math.max(...t));
    await jest.advanceTimersByTimeAsync(30_000);
    const writesDoneAt = await lastWrite;
    const pollsDoneAt = Math.max(...(await Promise.all(polls)));
    const answers = 100 + api.refused;
    // Writes first: all 40 done before any of the 60 polls is needed.
    expect(writesDoneAt - started).toBeLessThan(pollsDoneAt - started);
    // One 429 (the first time the limit is met, in the slow start), then 98% of it.
    expect(api.refused).toBe(1);
    expect(api.refused / answers).toBeLessThanOrEqual(0.1);
    // 100 accepted requests at 10 a second take 10 s at best.
    expect(pollsDoneAt - started).toBeLessThanOrEqual(1.15 * 10_000);
    expect(pacer.rate).toBeCloseTo(10 * PACER.belowLimit);
  });
});
