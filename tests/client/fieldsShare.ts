/**
 * Rules tried in the fleet model (fleetSim.ts `fieldsRule`) for a share paced by the API's
 * `RateLimit` fields alone (explicit feedback): each answer tells the key's use of the window
 * (limit - remaining), the flow knows its own, and sets its rate from both.
 */
import type { FieldsRule, FieldsView } from "./fleetSim";
import { type KeySchedule, PACER } from "../../provider/client/shaping/schedule";

/** Options of {@link explicitShare}. */
export interface ExplicitOptions {
  /** The fleet's total aimed at, as a share of the limit. */
  safety?: number;
  /** How the rate moves: `direct`, to target × own / total; `aimd`, + step under the target, × target / total over it. */
  mode?: "direct" | "aimd";
  /** Additive step a window (share of the limit), `aimd` only. */
  step?: number;
  /** How long the samples of the key's use and the flow's own are averaged over, ms. */
  averageMs?: number;
  /** Hold the flow after an answer with nothing left (r = 0) until the reset and a random part of the next window. */
  holdOnEmpty?: boolean;
  /** Leave the schedule a share the rules of shareRate.ts know (not declared), so that the model's grid turns (turnGrid.ts) pace it. */
  onGrid?: boolean;
}

interface Memo {
  samples: [number, number][];
  rate?: number;
  at: number;
  firstAt: number;
  flows?: number;
}

/** Explicit feedback: the flow's rate set from the key's use (the fields) and its own (see {@link ExplicitOptions}). */
export function explicitShare({
  safety = 0.9,
  mode = "aimd",
  step = 0.02,
  averageMs = 3_000,
  holdOnEmpty = true,
  onGrid = false,
}: ExplicitOptions = {}): FieldsRule {
  // What the rule keeps between answers, by schedule (one a machine).
  const memos = new WeakMap<KeySchedule, Memo>();
  return (v: FieldsView) => {
    const { s, fields, now } = v;
    const { perSecond, remaining } = fields;
    if (perSecond === undefined || remaining === undefined) return;
    const w = (fields.windowSeconds ?? 1) * 1_000;
    const quota = (perSecond * w) / 1_000;
    const m = memos.get(s) ?? { samples: [], at: -Infinity, firstAt: v.sentAt };
    memos.set(s, m);
    m.samples.push([now, quota - remaining]);
    while (m.samples[0][0] < now - averageMs) m.samples.shift();
    const span = Math.max(w, Math.min(averageMs, now - m.firstAt));
    const used = m.samples.reduce((a, [, u]) => a + u, 0) / m.samples.length; // requests in a window, on average
    const total = (used * 1_000) / w; // the key's rate
    // The machine's own: its answers accepted, or the slots its schedule gave (one schedule for all the machine's flows).
    const mine = Math.max(v.accepted.filter((t) => t > now - span).length, s.slots.filter((t) => t > now - span && t <= now).length);
    const own = (mine * 1_000) / span;
    const target = safety * perSecond;
    // The number of flows on the key as this one sees it (its own use against the key's).
    m.flows = total / Math.max(own, PACER.shareMinRate);
    if (m.rate === undefined) {
      // The first answer: the share at once (the lone flow: all the use is its own).
      const k =
        Math.max(1, quota - remaining) /
        Math.max(1, v.accepted.filter((t) => t > now - w).length, s.slots.filter((t) => t > now - w && t <= now).length);
      m.rate = target / Math.max(1, k);
      m.at = now;
    } else if (now - m.at >= w) {
      const windows = Math.min(5, (now - m.at) / w);
      if (mode === "direct")
        m.rate = total > 0 ? Math.max(PACER.shareMinRate, (target * Math.max(own, PACER.shareMinRate)) / total) : target;
      else if (total > target) m.rate = Math.max(PACER.shareMinRate, (m.rate * target) / total);
      else m.rate = Math.min(target, m.rate + windows * step * perSecond);
      m.at = now;
    }
    Object.assign(s, { rate: m.rate, limit: perSecond, declared: !onGrid, share: true, slowStart: false });
    if (holdOnEmpty && remaining === 0 && (m.flows ?? 1) >= 1.5) {
      const until = now + (fields.resetSeconds ?? 1) * 1_000 + v.random() * w;
      if (until > s.pausedUntil) {
        s.pausedUntil = until;
        s.next = Math.max(s.next, until);
      }
    }
  };
}
