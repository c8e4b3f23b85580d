/**
 * Pacing across machines (issue 43): what a `Retry-After` holds, decided per answer (the key,
 * when it is the limit's own refusal; its request only, when it stands alone), in process and
 * over HTTP against the emulator; and fleets of clients sharing one key, each with a pacing
 * directory of its own (as on machines of their own) or one for all (one machine), counted in
 * the emulator's request log.
 */
import { setTimeout as sleep } from "timers/promises";
import { EmulatorControl } from "../../emulator/control-client";
import { newGrid } from "../../provider/client/shaping/fleetSlots";
import { observed } from "../../provider/client/shaping/keySchedule";
import { limitsOwn } from "../../provider/client/shaping/ownRefusals";
import { Pacer } from "../../provider/client/shaping/pacer";
import { newSchedule, PACER } from "../../provider/client/shaping/schedule";
import { clientOf, type Emu, startEmulator } from "./emulatorControl";
import { type FleetFigures, runFleetOfClients } from "./fleetOfClients";
import { pacingDirPerTest } from "./pacingDir";

describe("what a Retry-After holds, decided per answer", () => {
  it("holds the key for a bare 429, or one whose Retry-After is the limit's window; not for a much longer one", () => {
    const s = newSchedule(0);
    expect(limitsOwn(s, undefined)).toBe(true);
    expect(limitsOwn(s, 1)).toBe(true);
    expect(limitsOwn(s, 2)).toBe(true);
    // A gateway's, or another client's penalty: 5 s where the limit's window is a second.
    expect(limitsOwn(s, 5)).toBe(false);
    // Measured congestions that asked for 3 s make the window 3 s: 5 s is within twice that.
    s.retryAfters = [3, 4];
    expect(limitsOwn(s, 5)).toBe(true);
    expect(limitsOwn(s, 7)).toBe(false);
  });

  it("with the RateLimit fields, holds the key only when they say nothing is left of the quota", () => {
    const s = newSchedule(0);
    expect(limitsOwn(s, 5, { perSecond: 10, remaining: 0, windowSeconds: 1 })).toBe(true);
    expect(limitsOwn(s, 1, { perSecond: 10, remaining: 4, windowSeconds: 1 })).toBe(false);
    // The announced window: a 10 s policy's refusal of 15 s is the limit's own.
    expect(limitsOwn(s, 15, { perSecond: 1, windowSeconds: 10 })).toBe(true);
  });

  it("lets the RateLimit fields cut a share only when others use the quota, not when this machine used most of it", () => {
    const at = (own: number): number => {
      const s = newSchedule(0);
      s.slowStart = false;
      s.rate = 9;
      observed(s, 100_000, { perSecond: 10, remaining: 0, windowSeconds: 1 }, own);
      return s.rate;
    };
    // Nine of the ten its own: it met its own limit (which its rate paces), as on one machine.
    expect(at(9)).toBe(9);
    // Two of the ten: others use the key, and the share is cut.
    expect(at(2)).toBeCloseTo(9 * PACER.fieldsCut);
  });

  describe("in the pacer", () => {
    beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
    afterEach(() => jest.useRealTimers());

    it("lets the other requests go on after a 429 that stands alone, with the rate unchanged", async () => {
      const pacer = new Pacer();
      for (let i = 0; i < 8; i++) {
        await pacer.acquire("read");
        pacer.settle(200);
        await jest.advanceTimersByTimeAsync(50);
      }
      const rate = pacer.rate;
      const pausedBefore = pacer.pausedUntil;
      pacer.settle(429, 5);
      expect(pacer.pausedUntil).toBe(pausedBefore);
      expect(pacer.rate).toBe(rate);
      let released = false;
      void pacer.acquire("write").then(() => (released = true));
      await jest.advanceTimersByTimeAsync(1_000);
      expect(released).toBe(true);
      // The limit's own (Retry-After: 1) still holds every request.
      pacer.settle(429, 1);
      expect(pacer.pausedUntil).toBeGreaterThanOrEqual(Date.now() + 1_000);
    });
  });

  describe("over HTTP, two clients of one machine", () => {
    const pacingDir = pacingDirPerTest();
    let emu: Emu;
    beforeAll(async () => {
      emu = await startEmulator({ port: 0, clockScale: 0.01 });
    });
    afterAll(async () => {
      await emu.close();
    });

    it("holds only the refused request for a gateway's lone Retry-After: 5, not the machine's other client", async () => {
      const a = clientOf(emu, { pacingDir: pacingDir() });
      const b = clientOf(emu, { pacingDir: pacingDir() });
      const control = new EmulatorControl(emu.url, emu.pat);
      try {
        // Both have met the API (and share the machine's schedule) before the gateway refuses.
        await Promise.all([a.perform("listServices"), b.perform("listServices")]);
        await control.fault({ method: "POST", path: "/services$", status: 429, count: 1, retryAfter: 5 });
        const t0 = Date.now();
        const created = a.perform("createService", { body: { name: "held-alone" } }).then(() => Date.now() - t0);
        // Once the 429 came back to `a`, `b`'s reads go at once.
        await sleep(300);
        const t1 = Date.now();
        await b.perform("listServices");
        await b.perform("listServices");
        expect(Date.now() - t1).toBeLessThan(2_000);
        // The refused create waited its Retry-After, then went.
        expect(await created).toBeGreaterThanOrEqual(5_000);
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    }, 30_000);
  });
});

describe("fleets of clients sharing one key, over HTTP", () => {
  let emu: Emu;
  beforeAll(async () => {
    // Services ready in about 2 s.
    emu = await startEmulator({ port: 0, clockScale: 0.3 });
  });
  afterAll(async () => {
    await emu.close();
  });
  /** 20 stacks of 10 services, each a machine of its own, against a limit of 10 a second whose 429s carry `Retry-After`. */
  const twentyMachines = {
    k: 20,
    services: 10,
    machines: "many",
    limit: { requestsPerSecond: 10, retryAfter: true },
  } as const;
  /** Every client's services made and ready: no failed operation. */
  const allDone = (f: FleetFigures): void => {
    expect(f.errors).toEqual([]);
    expect(f.clientMs.every((ms) => ms !== undefined)).toBe(true);
  };

  it("on 20 machines (a pacing directory each), converges with few 429s and no failed operation (57 % were 429 before)", async () => {
    const f = await runFleetOfClients(emu, twentyMachines);
    allDone(f);
    // Indicative on a loaded machine: 25 % measured; the judged figures are the bench's (bench/fleet.ts).
    expect(f.refused / f.answers).toBeLessThan(0.4);
  }, 240_000);

  it("on 20 machines told the fleet (20 machines, 10 a second), each in a slot of its own: under 15 % of 429s on a loaded machine, no failed operation", async () => {
    const f = await runFleetOfClients(emu, { ...twentyMachines, fleet: { machines: 20, limitPerSecond: 10 } });
    allDone(f);
    // The model gives 3 % (tests/client/fleetGridFigures.ts); untold, the same fleet meets 25 to 30 %. Indicative here, beside
    // other suites on the same cores (10.4 % in one CI run, 2026-12-03, where timers fired late); the judged figures are the
    // bench's (bench/fleet.ts), as for the untold fleet above.
    expect(f.refused / f.answers).toBeLessThan(0.15);
  }, 240_000);

  it("on 20 machines each told its number too, each keeps the slot of its number: two requests in one slot, and a 429, only where a timer fired late (2 at most)", async () => {
    const f = await runFleetOfClients(emu, { ...twentyMachines, fleet: { machines: 20, limitPerSecond: 10 }, numbered: true });
    allDone(f);
    // The grid's slots (fleetSlots.ts), by when each request arrived.
    const { slotMs } = newGrid(20, 10, Math.random, 0);
    const perSlot = new Map<number, number>();
    for (const slot of f.log.map((r) => Math.floor(Date.parse(r.at) / slotMs))) perSlot.set(slot, (perSlot.get(slot) ?? 0) + 1);
    const met = [...perSlot.values()].filter((n) => n > 1).length;
    // Drawn at random (told the machines only), 58 of 178 slots held two requests or more in a run (0 of 250 numbered).
    expect(met).toBeLessThanOrEqual(2);
    // A 429 needs 11 requests in a second, so two in one slot: a request whose timer fired late (other suites share the
    // cores) landed in the next machine's slot. As many as the slots met above may cost one each (2 in one CI run of
    // Node.js 24's suites, 2026-12-03; untold, a fleet meets 25 to 30 % of its answers refused).
    expect(f.refused).toBeLessThanOrEqual(2);
  }, 240_000);

  it("on one machine, with a gateway's sprinkled Retry-After: 5, every client done and no failed operation (all failed before)", async () => {
    const f = await runFleetOfClients(emu, {
      k: 20,
      services: 10,
      machines: "one",
      limit: { requestsPerSecond: 10, retryAfter: true },
      sprinkled: true,
    });
    allDone(f);
  }, 240_000);
});
