/**
 * A key's shared schedule as its file holds it (sharedSchedule.ts), read back: what reads as a
 * recent schedule of this version, each field checked, and nothing else (a file torn by a
 * crash of another writer, of another version, a day old, counts as none).
 */
import { readGrid } from "./fleetSlots";
import { type KeySchedule, MEMBER_ACTIVE_MS, PACER, RECENT } from "./schedule";

/** A schedule last changed longer ago than this is forgotten: its limit may have changed since. */
export const SCHEDULE_MAX_AGE_MS = 24 * 3_600_000;

/** True for a finite number. */
const num = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/** `value` (a parsed file) as a schedule, if it is a recent one of this version; undefined otherwise. Never throws. */
export function readSchedule(value: unknown, now: number): KeySchedule | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const r = value as Partial<KeySchedule>;
  if (r.v !== 1 || !num(r.rate) || r.rate <= 0 || !num(r.next) || !num(r.pausedUntil) || !num(r.updatedAt)) return undefined;
  if (!num(r.grownAt) || !num(r.last429At) || typeof r.slowStart !== "boolean") return undefined;
  if (now - r.updatedAt > SCHEDULE_MAX_AGE_MS || r.updatedAt - now > 60_000) return undefined;
  const times = (list: unknown): number[] => (Array.isArray(list) ? list.filter(num).slice(-RECENT) : []);
  const pairs = (list: unknown[]): [number, number][] =>
    list.filter((p): p is [number, number] => Array.isArray(p) && p.length === 2 && num(p[0]) && num(p[1])).slice(-RECENT);
  const members = r.members !== null && typeof r.members === "object" ? r.members : {};
  return {
    v: 1,
    rate: Math.max(PACER.shareMinRate, r.rate),
    slowStart: r.slowStart,
    ...(num(r.limit) && r.limit > 0 ? { limit: r.limit, declared: r.declared === true } : {}),
    ...(r.share === true ? { share: true } : {}),
    ...(r.unproven === true ? { unproven: true } : {}),
    ...(r.lowerBound === true ? { lowerBound: true } : {}),
    next: r.next,
    pausedUntil: r.pausedUntil,
    last429At: r.last429At,
    grownAt: r.grownAt,
    wanted: r.wanted === true,
    refusedSince: r.refusedSince === true,
    ...(num(r.cutAt) ? { cutAt: r.cutAt } : {}),
    ...(num(r.writesAt) ? { writesAt: r.writesAt } : {}),
    ...(r.remeasure !== null && typeof r.remeasure === "object" && num(r.remeasure.at) && num(r.remeasure.ref)
      ? {
          remeasure: {
            at: r.remeasure.at,
            ref: r.remeasure.ref,
            ...(num(r.remeasure.prior) ? { prior: r.remeasure.prior } : {}),
          },
        }
      : {}),
    slots: times(r.slots),
    refusals: times(r.refusals),
    ...(Array.isArray(r.pauses) ? { pauses: pairs(r.pauses) } : {}),
    ...(Array.isArray(r.retryAfters) ? { retryAfters: r.retryAfters.filter((v) => num(v) && v >= 0).slice(-8) } : {}),
    ...(Array.isArray(r.answers) ? { answers: pairs(r.answers) } : {}),
    members: Object.fromEntries(Object.entries(members).filter(([, at]) => num(at) && now - at < MEMBER_ACTIVE_MS * 2)),
    ...readLists(r, now),
    ...readTurns(r),
    ...withGrid(readGrid(r.fleet)),
    updatedAt: r.updatedAt,
  };
}

/** How long a client's word on its waits counts: it says it again while unchanged (sharedLists.ts). */
export const WAITS_FRESH_MS = 30_000;

/** The `waits` and `lists` of a parsed schedule that read as such (the others are dropped). */
function readLists(r: Partial<KeySchedule>, now: number): Pick<KeySchedule, "waits" | "lists"> {
  const obj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
  const waits: NonNullable<KeySchedule["waits"]> = {};
  for (const [member, w] of Object.entries(obj(r.waits) ? r.waits : {})) {
    if (!obj(w) || !num(w.at) || now - w.at > WAITS_FRESH_MS || !obj(w.on)) continue;
    waits[member] = { at: w.at, on: Object.fromEntries(Object.entries(w.on).filter(([, n]) => num(n) && n > 0)) };
  }
  const lists: NonNullable<KeySchedule["lists"]> = {};
  for (const [key, l] of Object.entries(obj(r.lists) ? r.lists : {})) {
    if (!obj(l) || !num(l.sentAt) || !num(l.items)) continue;
    lists[key] = {
      sentAt: l.sentAt,
      items: l.items,
      ...(typeof l.by === "string" && num(l.until) ? { by: l.by, until: l.until } : {}),
      ...(num(l.dueAt) ? { dueAt: l.dueAt } : {}),
    };
  }
  return { waits, lists };
}

/** The `writeTurns` of a parsed schedule that read as such (fairTurns.ts). */
function readTurns(r: Partial<KeySchedule>): Pick<KeySchedule, "writeTurns"> {
  if (r.writeTurns === null || typeof r.writeTurns !== "object") return {};
  const turns = Object.entries(r.writeTurns as Record<string, Partial<{ n: unknown; at: unknown }>>).filter(
    (e): e is [string, { n: number; at: number }] => e[1] !== null && typeof e[1] === "object" && num(e[1].n) && num(e[1].at),
  );
  return { writeTurns: Object.fromEntries(turns.map(([m, t]) => [m, { n: t.n, at: t.at }])) };
}

/** The `fleet` of a parsed schedule when it read as a grid (fleetSlots.ts). */
function withGrid(fleet: KeySchedule["fleet"]): Pick<KeySchedule, "fleet"> {
  return fleet === undefined ? {} : { fleet };
}
