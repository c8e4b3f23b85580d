/**
 * Lists read once for the machine. While the API limits a key, its clients on this machine
 * (the processes of a fleet of stacks: sharedSchedule.ts) read each list they wait on (a
 * project's services) once for all of them, rather than each for its own few waits:
 *
 * - each client tells the shared schedule how many of its waits each list serves, so a list
 *   pays when the machine's waits on it do (readCost.ts), not when one client's do;
 * - one client at a time reads it: one whose own writes are all sent (a read queued behind
 *   writes would hold the others), no sooner than {@link LIST_COST.msPerItem} × its length after
 *   the last read for the machine (a list of 200 services every 3 s at most: its bytes are what
 *   a fleet's waiting costs), or {@link LIST_COST.writingGapMs} while any client of the machine
 *   has writes waiting for their turns (a read takes a turn from a write, and the answer of a long
 *   list holds the API a moment, so that the writes after it arrive bunched and meet the limit:
 *   writes go first on the machine as in each client); after the writes, a read is moved later
 *   by less than that gap so that one falls when the list's last service is due, or brought to
 *   that time when it comes within the gap (listReadiness.ts); it leaves the answer in a file
 *   beside the schedule;
 * - the others take that answer from the file instead of asking the API, each wait as it would
 *   its own poll's (an answer to a request sent before a wait began is not shown to it).
 *
 * The file holds what the API's list shows, which holds no secret (the API never lists a
 * password); an answer in which a secret the client knows appears is not kept. Best effort:
 * where the file cannot be written or read, each client reads the list itself.
 */
import { createHash } from "crypto";
import * as fs from "fs";
import * as path from "path";
import { activeMembers, type KeySchedule, writesWaiting } from "./schedule";
import { WAITS_FRESH_MS } from "./scheduleReading";
import { alignedRead, lastDueAfterMs } from "./listReadiness";
import { redact } from "../redact";
import { type SharedSchedule, writeWhole } from "./sharedSchedule";

/** What reading a list costs the machine (exported for tests and the README). */
export const LIST_COST = {
  /** A list of L items is read for the machine at most every L × this many ms. */
  msPerItem: 15,
  /** ...and at least every this many ms, however long it is. */
  maxGapMs: 10_000,
  /** While the machine's clients have writes waiting for their turns, at most every this many ms. */
  writingGapMs: 30_000,
  /** How long a client holds the read of a list before another may take it over. */
  holdMs: 5_000,
  /** How often a client says its waits again while they do not change. */
  repeatMs: 10_000,
  /** The most often a client says its waits. */
  sayEveryMs: 500,
  /** A read meant to meet the list's last service when it is due comes this long after (listReadiness.ts). */
  dueMarginMs: 50,
  /** When the schedule's lock was held by others all the while, the read is asked for again this much later. */
  busyRetryMs: 250,
} as const;

/** An answer read for the machine: when its request was sent, and its body as the API sent it. */
export interface SharedAnswer {
  sentAt: number;
  body: unknown;
}

/** The list-sharing of one client of a key (see the module comment). */
export class SharedLists {
  private saidAt = -Infinity;
  private said = "";
  private saying = false;
  private waits: Record<string, number> = {};
  private view: KeySchedule | undefined;
  private readonly cached = new Map<string, { mtimeMs: number; answer: SharedAnswer }>();

  /**
   * @param schedule - the key's shared schedule (its file holds who waits on which list, and who reads it).
   * @param dir - where the answers are kept (the schedule's directory).
   */
  constructor(
    private readonly schedule: SharedSchedule,
    private readonly dir: string,
  ) {}

  private fileOf(key: string): string {
    return path.join(this.dir, `${this.schedule.name}-list-${createHash("sha256").update(key).digest("hex").slice(0, 16)}.json`);
  }

  /** Tells the machine how many of this client's waits each list serves (at most every half second; again every 10 s while unchanged). */
  setWaits(waits: ReadonlyMap<string, number>): void {
    this.waits = Object.fromEntries([...waits].filter(([, n]) => n > 0));
    this.say();
  }

  private say(): void {
    const text = JSON.stringify(this.waits);
    const now = Date.now();
    if (this.saying || (text === this.said && now - this.saidAt < LIST_COST.repeatMs)) return;
    if (now - this.saidAt < LIST_COST.sayEveryMs) {
      setTimeout(() => this.say(), LIST_COST.sayEveryMs - (now - this.saidAt)).unref();
      return;
    }
    this.saying = true;
    this.saidAt = now;
    this.said = text;
    const on = this.waits;
    void this.schedule
      .update((s, at) => {
        s.waits ??= {};
        if (Object.keys(on).length === 0) delete s.waits[this.schedule.member];
        else s.waits[this.schedule.member] = { at, on };
      })
      .then((done) => {
        this.saying = false;
        if (done !== undefined) this.view = done.schedule;
        if (Object.keys(this.waits).length > 0) setTimeout(() => this.say(), LIST_COST.repeatMs).unref();
      });
  }

  /** The waits of the machine's clients on the list `key`, as last seen (this client's own at least). */
  machineWaits(key: string): number {
    const now = Date.now();
    let n = this.waits[key] ?? 0;
    for (const [member, w] of Object.entries(this.view?.waits ?? {})) {
      if (member !== this.schedule.member && now - w.at < WAITS_FRESH_MS) n += w.on[key] ?? 0;
    }
    return n;
  }

  /** Clients of the key on this machine that took turns lately, as last seen (1 at least). */
  get sharedWith(): number {
    return this.view === undefined ? 1 : Math.max(1, activeMembers(this.view, Date.now()));
  }

  /** The answer to the list `key` read for the machine, when one was sent after `after` (epoch ms). Never rejects. */
  async newer(key: string, after: number): Promise<SharedAnswer | undefined> {
    const file = this.fileOf(key);
    try {
      const { mtimeMs } = await fs.promises.stat(file);
      let hit = this.cached.get(key);
      if (hit === undefined || hit.mtimeMs !== mtimeMs) {
        const parsed = JSON.parse(await fs.promises.readFile(file, "utf8")) as Partial<SharedAnswer>;
        if (typeof parsed.sentAt !== "number" || !("body" in parsed)) return undefined;
        hit = { mtimeMs, answer: { sentAt: parsed.sentAt, body: parsed.body } };
        this.cached.set(key, hit);
      }
      return hit.answer.sentAt > after ? hit.answer : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Asks to read the list `key` for the machine now: `true` when it is this client's to read,
   * else when to ask again (epoch ms: the next read's earliest time, or soon when another
   * client reads it now, or when other clients held the schedule's lock all the while: tens of
   * processes on few cores, whose each reading the list alone would cost it tens of times).
   * Undefined when the schedule cannot be used. Never rejects.
   * `askedAt`: the read was asked for then (machineReads.ts): only another client's read under
   * way holds it, not the time since the last one, and one sent since is to be looked at (now).
   */
  async take(key: string, askedAt?: number): Promise<true | number | undefined> {
    const me = this.schedule.member;
    const done = await this.schedule.update((s, now) => {
      s.lists ??= {};
      const l = s.lists[key];
      if (l !== undefined && l.by !== undefined && l.by !== me && (l.until ?? 0) > now) return Math.min(l.until ?? now, now + 250);
      // Asked at `askedAt`: an answer sent since is there to be read (the caller looks again); else the gap since the last read.
      if (askedAt !== undefined && l !== undefined && l.sentAt >= askedAt) return now;
      // While the machine's writes wait for their turns, a read takes one of them: the gap is the longest then.
      const writing = writesWaiting(s, now);
      const gap = writing ? LIST_COST.writingGapMs : Math.min(LIST_COST.maxGapMs, (l?.items ?? 0) * LIST_COST.msPerItem);
      // After the writes, the reads fall so that one comes when the list's last service is due (listReadiness.ts).
      const next = l === undefined || askedAt !== undefined ? now : alignedRead(l.sentAt + gap, gap, writing ? undefined : l.dueAt);
      if (next > now) return next;
      s.lists[key] = { ...l, sentAt: l?.sentAt ?? 0, items: l?.items ?? 0, by: me, until: now + LIST_COST.holdMs };
      return true;
    });
    if (done === undefined) return this.schedule.busy ? Date.now() + LIST_COST.busyRetryMs : undefined;
    this.view = done.schedule;
    return done.result;
  }

  /**
   * Keeps the answer this client read for the machine (not when a secret it knows appears in
   * it), and tells the schedule; `undefined` when the read failed (another client may read it
   * now). Never rejects.
   */
  async done(key: string, answer: SharedAnswer | undefined): Promise<void> {
    if (answer !== undefined) {
      const text = JSON.stringify({ sentAt: answer.sentAt, body: answer.body });
      if (redact(text) === text) await writeWhole(this.fileOf(key), text).catch(() => undefined);
    }
    const done = await this.schedule.update((s) => {
      s.lists ??= {};
      const l = s.lists[key];
      const items = answer === undefined ? (l?.items ?? 0) : Array.isArray(answer.body) ? answer.body.length : 0;
      const due = answer === undefined ? undefined : lastDueAfterMs(answer.body);
      const dueAt = answer === undefined || due === undefined ? l?.dueAt : answer.sentAt + due + LIST_COST.dueMarginMs;
      s.lists[key] = { sentAt: Math.max(l?.sentAt ?? 0, answer?.sentAt ?? 0), items, ...(dueAt === undefined ? {} : { dueAt }) };
    });
    if (done !== undefined) this.view = done.schedule;
  }
}
