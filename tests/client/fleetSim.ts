/**
 * A fleet on a fake clock, in process: K flows, each the only client of its own schedule (a stack
 * on a machine of its own: its pacing directory holds it alone), sharing one key that an API limits
 * to `limit` requests in any sliding second (the emulator's limit), its 429s carrying
 * `Retry-After: 1`; and, optionally, 429s of a gateway's on top (`fault`: a `Retry-After` of its
 * own, limit or not). Each flow claims its turns as the pacer does (pacer.ts: its share of 50 ms at
 * the rate, slots claimed before a 429 given back), tells the schedule when its requests left,
 * tells it of a 429 only when it is the limit's own (ownRefusals.ts `limitsOwn`), and retries a
 * refused request after its `Retry-After` (retry.ts). Pure: the clock is a counter of
 * milliseconds, the randomness seeded. Used by the tests of the rules that make such a fleet
 * converge (keySchedule.ts `refused`, `growRate`), and of a lone stack that meets a few 429s.
 * With `fields`, every answer carries the API's `RateLimit` fields as the emulator sends them,
 * read by the client's rules (keySchedule.ts `declared`, `observed`) or by a rule tried in the
 * model (`fieldsRule`: fieldsShare.ts; figures: fieldsFigures.ts).
 */
import {
  answered,
  claimSlots,
  declared,
  measuringSlowStart,
  observed,
  refused,
  sent,
  unused,
} from "../../provider/client/shaping/keySchedule";
import { fitFleet, type FleetOptions } from "../../provider/client/shaping/fleetSlots";
import { limitsOwn } from "../../provider/client/shaping/ownRefusals";
import type { LimitFields } from "../../provider/client/shaping/limitFields";
import { activeMembers, type KeySchedule, newSchedule } from "../../provider/client/shaping/schedule";
import { retryAfterWaitMs } from "../../provider/client/shaping/backoff";
import { claimTurns, type GridTurns, refusedOnTurn } from "./turnGrid";

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

/** A request as it reaches the API: `at` ms from the start, its `flow`, its number in the flow (`id`, from 0) and how many times it was refused before (`attempt`). */
export interface SimArrival {
  at: number;
  flow: number;
  id: number;
  attempt: number;
}

/** What machine `i` of a fleet told `fleet` is told when each knows its number too: `i` modulo the machines. */
export function numberedAs(fleet: FleetOptions | undefined, i: number): FleetOptions | undefined {
  return fleet === undefined ? undefined : { ...fleet, index: i % fleet.machines };
}

/** What a simulated fleet gave. */
export interface SimFleet {
  /** Answers that were 429 (the limit's and the faults'), and those accepted. */
  limited: number;
  accepted: number;
  /** When each 429 came, ms from the start. */
  limitedMs: number[];
  /** Of {@link SimFleet.limited}, the 429s of `fault`. */
  faulted: number;
  /** Each flow's last accepted answer, ms from the start. */
  doneMs: number[];
  /** The 429s, by how long after the refused flow's last hold ended its request arrived (ms; Infinity when it had none). */
  afterHoldMs: number[];
  /** Each flow's accepted requests per second, second by second. */
  perSecond: number[][];
  /** Each flow's sends, ms from the start, in order. */
  sends: number[][];
}

/** Options of {@link simulateFleet}. */
export interface SimOptions {
  /** The key's limit, requests in any sliding second. @default 10 */
  limit?: number;
  /** The `Retry-After` of the limit's 429s, seconds. @default 1 */
  retryAfter?: number;
  /** A 429 of a gateway's for this arrival, before the limit counts it: its `Retry-After`, seconds; undefined for none. */
  fault?: (r: SimArrival) => number | undefined;
  /** How many of its requests a flow has queued or under way at once (the next is queued when one is accepted). @default all */
  concurrency?: number;
  capMs?: number;
  /** The round trip's range, ms. */
  latencyMs?: [number, number];
  /** How late a request may leave after its turn (a busy machine), ms. */
  lateMs?: number;
  seed?: number;
  /** All flows on one machine: one schedule for all (sharedSchedule.ts), each a member of it. */
  oneMachine?: boolean;
  /** Each machine's clock is off the API's by up to this much either way, ms (uniform, seeded; NTP keeps them within tens of ms). @default 20 */
  clockOffsetMs?: number;
  /** Each flow, once a share, sends on turns on the common clock's grid (the model's rule, turnGrid.ts), kept while accepted and drawn again after a 429. */
  turnGrid?: boolean;
  /** With {@link SimOptions.turnGrid}: turns in this many cells a cycle (cells of the cycle over it), not at any moment. */
  gridCells?: number;
  /** Every answer carries the API's `RateLimit` fields (the emulator's: the limit, what is left of the sliding second after the request, reset 1 s), read as the pacer reads them. */
  fields?: boolean;
  /** A rule of the model's own for what the fields say (tried beside the client's), given each flow's view; undefined: the client's rules (pacer.ts `settle`). */
  fieldsRule?: FieldsRule;
  /** Each flow paced by a rule of the model's own instead of the client's schedule (e.g. slotCycle.ts), made once a flow. */
  pacer?: () => FlowPacer;
  /** The fleet told its size (and the limit, when given), as the client is (`fleetMachines`, keySchedule.ts `fitFleet`): each machine's schedule on the fleet's grid. */
  fleet?: FleetOptions;
  /** Each flow (a machine) is told its number in the fleet too (`fleet.index`: flow `i` of the machines told). */
  numbered?: boolean;
}

/** An answer as a flow's own pacer ({@link SimOptions.pacer}) hears it: its machine's clock now and when the request left, the status, and the fields when on. */
export interface PacerAnswer {
  now: number;
  sentAt: number;
  status: number;
  fields?: LimitFields;
}

/** A flow's pacing by a rule of the model's own: asked every millisecond while requests wait whether one leaves now (on its machine's clock), told each answer. */
export interface FlowPacer {
  /** Whether a request leaves at `now` (one a call at most); the pacer counts it sent when it says yes. */
  due(now: number): boolean;
  /** An answer came back. */
  answered(a: PacerAnswer): void;
}

/** What a flow knows when an answer with fields comes: its schedule, the answer, its clock, its own accepted answers (local ms, oldest first), and the model's randomness. A rule keeps what it needs between answers by schedule. */
export interface FieldsView {
  s: KeySchedule;
  fields: LimitFields;
  status: number;
  now: number;
  sentAt: number;
  accepted: number[];
  random: () => number;
}

/** A rule tried in the model for the fields: called on every answer (after the 429's own rules ran on a 429); it may change the schedule. */
export type FieldsRule = (view: FieldsView) => void;

interface Pending {
  id: number;
  attempt: number;
}

interface Flow {
  s: KeySchedule;
  /** What the flow's machine was told of its fleet. */
  fleet?: FleetOptions;
  /** Its pacer of the model's own, when {@link SimOptions.pacer}: the schedule is then not used. */
  own?: FlowPacer;
  /** The flow's machine's clock less the API's, ms. */
  offset: number;
  left: number;
  nextId: number;
  queue: Pending[];
  slots: number[];
  claimedAt: number;
  unusedSlots: number[];
  used: [number, number][];
  answers: [number, number][];
  retries: (Pending & { at: number })[];
  inFlight: (Pending & {
    leftAt: number;
    arriveAt: number;
    answerAt: number;
    status?: number;
    retryAfter?: number;
    fields?: LimitFields;
  })[];
  /** Its accepted answers, local ms, oldest first (the pacer's `accepted`). */
  accepted: number[];
  lastHoldEnd: number;
  doneAt?: number;
}

/**
 * Runs `k` flows of `requests` each against a limit of `limit` a second, up to `capMs` (see
 * {@link SimOptions}).
 */
export function simulateFleet(
  k: number,
  requests: number,
  {
    limit = 10,
    retryAfter = 1,
    fault,
    concurrency = requests,
    capMs = 300_000,
    latencyMs = [10, 60],
    lateMs = 20,
    seed = 1,
    oneMachine = false,
    clockOffsetMs = 20,
    turnGrid = false,
    gridCells,
    fields = false,
    fieldsRule,
    pacer,
    fleet,
    numbered = false,
  }: SimOptions = {},
): SimFleet {
  const random = seeded(seed);
  // Grid turns drawn in cells: a draw of [0, 1) rounded down to a cell.
  const turnRandom = gridCells === undefined ? random : () => Math.floor(random() * gridCells) / gridCells;
  const t0 = 1_000_000;
  const machine = newSchedule(t0);
  const told = (i: number): FleetOptions | undefined => (numbered ? numberedAs(fleet, i) : fleet);
  const schedule = (i: number): KeySchedule => {
    const s = oneMachine ? machine : newSchedule(t0);
    fitFleet(s, t0, told(i), random);
    return s;
  };
  const grid: GridTurns = new WeakMap();
  const machineOffset = (random() * 2 - 1) * clockOffsetMs;
  const flows: Flow[] = Array.from({ length: k }, (_, i) => ({
    s: schedule(i),
    fleet: told(i),
    own: pacer?.(),
    offset: Math.round(oneMachine ? machineOffset : (random() * 2 - 1) * clockOffsetMs),
    left: requests,
    nextId: Math.min(requests, concurrency),
    queue: Array.from({ length: Math.min(requests, concurrency) }, (_, id) => ({ id, attempt: 0 })),
    slots: [],
    claimedAt: -Infinity,
    unusedSlots: [],
    used: [],
    answers: [],
    retries: [],
    inFlight: [],
    lastHoldEnd: -Infinity,
    accepted: [],
  }));
  const admitted: number[] = [];
  const out: SimFleet = {
    limited: 0,
    limitedMs: [],
    accepted: 0,
    faulted: 0,
    doneMs: [],
    afterHoldMs: [],
    perSecond: flows.map(() => []),
    sends: flows.map(() => []),
  };
  /** The flow's next queued request leaves (up to `lateMs` after `now`); returns when. */
  const send = (f: Flow, i: number, now: number): number => {
    const req = f.queue.shift()!;
    const leftAt = now + Math.floor(random() * lateMs);
    const rtt = latencyMs[0] + random() * (latencyMs[1] - latencyMs[0]);
    out.sends[i].push(leftAt - t0);
    f.inFlight.push({ ...req, leftAt, arriveAt: leftAt + Math.round(rtt / 2), answerAt: leftAt + Math.round(rtt) });
    return leftAt;
  };
  for (let now = t0; now < t0 + capMs && flows.some((f) => f.doneAt === undefined); now++) {
    for (const [i, f] of flows.entries()) {
      // The flow's machine's clock: what its schedule is told, and the times of its slots.
      const local = now + f.offset;
      // The API: each request as it arrives (a gateway's 429 first, then the limit).
      for (const r of f.inFlight) {
        if (r.status !== undefined || r.arriveAt > now) continue;
        while (admitted.length > 0 && admitted[0] <= now - 1_000) admitted.shift();
        const faulted = fault?.({ at: now - t0, flow: i, id: r.id, attempt: r.attempt });
        if (faulted !== undefined || admitted.length >= limit) {
          r.status = 429;
          r.retryAfter = faulted ?? retryAfter;
          out.limited++;
          out.limitedMs.push(now - t0);
          if (faulted !== undefined) out.faulted++;
          out.afterHoldMs.push(now - f.lastHoldEnd);
        } else {
          admitted.push(now);
          r.status = 200;
          out.accepted++;
          const second = Math.floor((now - t0) / 1_000);
          while (out.perSecond[i].length <= second) out.perSecond[i].push(0);
          out.perSecond[i][second]++;
        }
        if (fields) r.fields = { perSecond: limit, windowSeconds: 1, remaining: Math.max(0, limit - admitted.length), resetSeconds: 1 };
      }
      // The answers that came back.
      for (const r of f.inFlight.filter((x) => x.answerAt <= now)) {
        f.inFlight.splice(f.inFlight.indexOf(r), 1);
        if (f.own !== undefined) {
          f.own.answered({ now: local, sentAt: r.leftAt + f.offset, status: r.status!, fields: r.fields });
          if (r.status === 200) {
            if (--f.left === 0) f.doneAt = now;
            if (f.nextId < requests) f.queue.push({ id: f.nextId++, attempt: 0 });
          } else f.retries.push({ id: r.id, attempt: r.attempt + 1, at: now + retryAfterWaitMs(r.retryAfter ?? 0, random) });
          continue;
        }
        while (f.accepted.length > 0 && f.accepted[0] < local - 6_000) f.accepted.shift();
        if (r.fields !== undefined && fieldsRule === undefined) {
          declaredBy(f.s, local, r.fields, f.accepted);
          fitFleet(f.s, local, f.fleet, random);
        }
        if (r.status === 200) {
          f.accepted.push(local);
          if (r.fields !== undefined && fieldsRule === undefined) observedBy(f.s, local, r.fields, f.accepted);
          f.left--;
          if (measuringSlowStart(f.s)) f.answers.push([r.leftAt + f.offset, local]);
          if (f.left === 0) f.doneAt = now;
          if (f.nextId < requests) f.queue.push({ id: f.nextId++, attempt: 0 });
        } else {
          // The limit's own holds the key; one that stands alone holds its own request only (pacer.ts `settle`).
          if (limitsOwn(f.s, r.retryAfter, r.fields)) {
            // The turn it met drawn again first (before the hold's jitter draws), as when the schedule kept the turns.
            if (turnGrid) refusedOnTurn(grid, f.s, Math.min(local, r.leftAt + f.offset), turnRandom);
            refused(f.s, local, r.retryAfter, true, r.leftAt + f.offset, undefined, random);
            f.lastHoldEnd = f.s.pausedUntil - f.offset;
          }
          f.retries.push({ id: r.id, attempt: r.attempt + 1, at: now + retryAfterWaitMs(r.retryAfter ?? 0, random) });
        }
        if (r.fields !== undefined && fieldsRule !== undefined) {
          fieldsRule({
            s: f.s,
            fields: r.fields,
            status: r.status!,
            now: local,
            sentAt: r.leftAt + f.offset,
            accepted: f.accepted,
            random,
          });
        }
      }
      for (const r of f.retries.filter((x) => x.at <= now)) f.queue.push({ id: r.id, attempt: r.attempt });
      f.retries = f.retries.filter((x) => x.at > now);
      // The pacer: turns claimed, requests sent on them.
      const queued = f.queue.length;
      if (queued === 0) continue;
      if (f.own !== undefined) {
        if (f.own.due(local)) send(f, i, now);
        continue;
      }
      while (f.slots.length > 0 && f.slots[0] < f.s.pausedUntil) f.unusedSlots.push(f.slots.shift()!);
      if (f.s.last429At > f.claimedAt) f.unusedSlots.push(...f.slots.splice(0));
      if (f.slots.length === 0) {
        const share = f.s.slowStart ? 1 : Math.floor((f.s.rate * 50) / 1_000 / Math.max(1, activeMembers(f.s, local)));
        const n = Math.max(1, Math.min(queued, share));
        unused(f.s, f.unusedSlots);
        sent(f.s, f.used);
        answered(f.s, local, f.answers);
        [f.unusedSlots, f.used, f.answers] = [[], [], []];
        f.slots = turnGrid ? claimTurns(grid, f.s, local, `flow-${i}`, n, turnRandom) : claimSlots(f.s, local, `flow-${i}`, n, true);
        f.claimedAt = local;
      }
      while (f.queue.length > 0 && f.slots.length > 0 && f.slots[0] <= local && f.slots[0] >= f.s.pausedUntil) {
        const leftAt = send(f, i, now);
        f.used.push([f.slots.shift()!, leftAt + f.offset]);
      }
    }
  }
  out.doneMs = flows.map((f) => (f.doneAt ?? Infinity) - t0);
  return out;
}

/** Accepted answers of `accepted` (local ms) within the `windowMs` before `now`. */
function countIn(accepted: readonly number[], now: number, windowMs: number): number {
  return accepted.filter((t) => t >= now - windowMs && t <= now).length;
}

/** pacer.ts `settle`'s reading of an announced limit (`RateLimit-Policy`), as the client runs it: others on the key when more is used than this machine sent. */
function declaredBy(s: KeySchedule, now: number, fields: LimitFields, accepted: readonly number[]): void {
  const perSecond = fields.perSecond;
  if (perSecond === undefined || perSecond <= 0 || (s.declared === true && s.limit === perSecond)) return;
  const windowMs = (fields.windowSeconds ?? 1) * 1_000;
  const used = fields.remaining === undefined ? 0 : (perSecond * windowMs) / 1_000 - fields.remaining;
  const sentIn = Math.max(countIn(accepted, now, windowMs), s.slots.filter((t) => t >= now - windowMs && t <= now).length);
  declared(s, now, perSecond, used - sentIn > 1);
}

/** pacer.ts `observe`: an accepted answer's `RateLimit` fields, given this flow's accepted answers in the window. */
function observedBy(s: KeySchedule, now: number, fields: LimitFields, accepted: readonly number[]): void {
  if (fields.remaining === undefined) return;
  observed(s, now, fields, countIn(accepted, now, (fields.windowSeconds ?? 1) * 1_000));
}

/**
 * Two 429s of `Retry-After: 5` every 5 s: in each period of 5 s, from a moment at random in it
 * (`seed`), the next two requests that reach the API, whatever their flow; those not given in a
 * period lapse at its end (a gateway that sprinkles them, issue 43 item 3, as bench/fleet.ts does).
 */
export function sprinkled(seed = 7): (r: SimArrival) => number | undefined {
  const random = seeded(seed);
  const from = new Map<number, number>();
  let period = -1;
  let given = 0;
  return (r) => {
    const p = Math.floor(r.at / 5_000);
    if (p !== period) [period, given] = [p, 0];
    if (!from.has(p)) from.set(p, p * 5_000 + random() * 5_000);
    if (given >= 2 || r.at < from.get(p)!) return undefined;
    given++;
    return 5;
  };
}
