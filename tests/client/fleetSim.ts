/**
 * A fleet on a fake clock, in process: K flows, each the only client of its own schedule (a stack
 * on a machine of its own: its pacing directory holds it alone), sharing one key that an API limits
 * to `limit` requests in any sliding second (the emulator's limit), its 429s carrying
 * `Retry-After: 1`. Each flow claims its turns as the pacer does (pacer.ts: its share of 50 ms at
 * the rate, slots claimed before a 429 given back), tells the schedule when its requests left, and
 * retries a refused request after its `Retry-After` (backoff.ts). Pure: the clock is a counter of
 * milliseconds, the randomness seeded. Used by the tests of the rules that make such a fleet
 * converge (keySchedule.ts `refused`, `growRate`).
 */
import { answered, claimSlots, measuringSlowStart, refused, sent, unused } from "../../provider/client/shaping/keySchedule";
import { type KeySchedule, newSchedule } from "../../provider/client/shaping/schedule";

/** A seeded source of numbers in [0, 1) (mulberry32). */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What a simulated fleet gave. */
export interface SimFleet {
  /** Answers that were 429, and those accepted. */
  limited: number;
  accepted: number;
  /** Each flow's last accepted answer, ms from the start. */
  doneMs: number[];
  /** The 429s, by how long after the refused flow's last hold ended its request arrived (ms; Infinity when it had none). */
  afterHoldMs: number[];
  /** Each flow's accepted requests per second, second by second. */
  perSecond: number[][];
}

interface Flow {
  s: KeySchedule;
  left: number;
  slots: number[];
  claimedAt: number;
  unusedSlots: number[];
  used: [number, number][];
  answers: [number, number][];
  retries: number[];
  inFlight: { leftAt: number; arriveAt: number; answerAt: number; status?: number }[];
  lastHoldEnd: number;
  doneAt?: number;
}

/**
 * Runs `k` flows of `requests` each (all wanted at once) against a limit of `limit` a second, up
 * to `capMs`; `latencyMs` the round trip's range, `lateMs` how late a request may leave after its
 * turn (a busy machine).
 */
export function simulateFleet(
  k: number,
  requests: number,
  { limit = 10, capMs = 300_000, latencyMs = [10, 60], lateMs = 20, seed = 1 } = {},
): SimFleet {
  const random = seeded(seed);
  const t0 = 1_000_000;
  const flows: Flow[] = Array.from({ length: k }, () => ({
    s: newSchedule(t0),
    left: requests,
    slots: [],
    claimedAt: -Infinity,
    unusedSlots: [],
    used: [],
    answers: [],
    retries: [],
    inFlight: [],
    lastHoldEnd: -Infinity,
  }));
  const admitted: number[] = [];
  const out: SimFleet = { limited: 0, accepted: 0, doneMs: [], afterHoldMs: [], perSecond: flows.map(() => []) };
  for (let now = t0; now < t0 + capMs && flows.some((f) => f.doneAt === undefined); now++) {
    for (const [i, f] of flows.entries()) {
      // The API: each request as it arrives.
      for (const r of f.inFlight) {
        if (r.status !== undefined || r.arriveAt > now) continue;
        while (admitted.length > 0 && admitted[0] <= now - 1_000) admitted.shift();
        if (admitted.length >= limit) {
          r.status = 429;
          out.limited++;
          out.afterHoldMs.push(now - f.lastHoldEnd);
        } else {
          admitted.push(now);
          r.status = 200;
          out.accepted++;
          const second = Math.floor((now - t0) / 1_000);
          while (out.perSecond[i].length <= second) out.perSecond[i].push(0);
          out.perSecond[i][second]++;
        }
      }
      // The answers that came back.
      for (const r of f.inFlight.filter((x) => x.answerAt <= now)) {
        f.inFlight.splice(f.inFlight.indexOf(r), 1);
        if (r.status === 200) {
          f.left--;
          if (measuringSlowStart(f.s)) f.answers.push([r.leftAt, now]);
          if (f.left === 0) f.doneAt = now;
        } else {
          refused(f.s, now, 1, true, r.leftAt, undefined, random);
          f.lastHoldEnd = f.s.pausedUntil;
          f.retries.push(now + 1_025 + random() * 100);
        }
      }
      // The pacer: turns claimed, requests sent on them.
      const queued = f.left - f.inFlight.length - f.retries.filter((t) => t > now).length;
      f.retries = f.retries.filter((t) => t > now);
      if (queued <= 0) continue;
      while (f.slots.length > 0 && f.slots[0] < f.s.pausedUntil) f.unusedSlots.push(f.slots.shift()!);
      if (f.s.last429At > f.claimedAt) f.unusedSlots.push(...f.slots.splice(0));
      if (f.slots.length === 0) {
        const share = f.s.slowStart ? 1 : Math.floor((f.s.rate * 50) / 1_000);
        const n = Math.max(1, Math.min(queued, share));
        unused(f.s, f.unusedSlots);
        sent(f.s, f.used);
        answered(f.s, now, f.answers);
        [f.unusedSlots, f.used, f.answers] = [[], [], []];
        f.slots = claimSlots(f.s, now, "me", n, true);
        f.claimedAt = now;
      }
      let sending = queued;
      while (sending > 0 && f.slots.length > 0 && f.slots[0] <= now && f.slots[0] >= f.s.pausedUntil) {
        const slot = f.slots.shift()!;
        const leftAt = now + Math.floor(random() * lateMs);
        const rtt = latencyMs[0] + random() * (latencyMs[1] - latencyMs[0]);
        f.used.push([slot, leftAt]);
        f.inFlight.push({ leftAt, arriveAt: leftAt + Math.round(rtt / 2), answerAt: leftAt + Math.round(rtt) });
        sending--;
      }
    }
  }
  out.doneMs = flows.map((f) => (f.doneAt ?? Infinity) - t0);
  return out;
}
