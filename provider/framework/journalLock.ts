/**
 * One process at a time decides what a journal entry says: two provider processes of one
 * stack (two `pulumi up`s run at once, or a CLI that started a second plugin) that reach the
 * create of the same resource must not both read "no entry" and both send a create, nor
 * both take an interrupted create over. So the decision (read the entry, look, write the
 * entry) runs under a lock: a file beside the entry, made whole and at once by a hard link
 * (which fails when the file exists), naming the process that holds it. A lock whose holder
 * no longer runs (killed mid-decision) is broken by renaming it away (one process wins the
 * rename), and only when what was renamed is still that holder's.
 */
import * as fs from "fs";
import { isRunning, newFileFor, type ProcessRef, thisProcess } from "./journalStore";
import { pause } from "./cancellation";

/** How long a process waits for another's decision before it says so: a decision takes a few requests. */
const WAIT_MS = 120_000;
/** The pause between two tries. */
const RETRY_MS = 25;

/** The holder a lock file names, or undefined when it cannot be read (gone, or being written). */
function holderOf(lock: string): ProcessRef | undefined {
  try {
    const ref = JSON.parse(fs.readFileSync(lock, "utf8")) as ProcessRef;
    return Number.isInteger(ref.pid) ? ref : undefined;
  } catch {
    return undefined;
  }
}

/** True when `a` and `b` name the same process. */
function same(a: ProcessRef | undefined, b: ProcessRef | undefined): boolean {
  return a !== undefined && b !== undefined && a.pid === b.pid && a.startTime === b.startTime && a.bootId === b.bootId;
}

/** Breaks the lock of `stale`, a holder that no longer runs; a lock that is someone else's by now is put back. */
function breakStale(lock: string, stale: ProcessRef): void {
  const moved = newFileFor(lock);
  try {
    fs.renameSync(lock, moved);
  } catch {
    return; // another process broke it first
  }
  if (!same(holderOf(moved), stale)) {
    try {
      fs.linkSync(moved, lock); // a live holder's, taken by mistake between the read and the rename: back it goes
    } catch {
      // a third process holds it now: the live holder's decision is already written
    }
  }
  fs.rmSync(moved, { force: true });
}

/** Takes the lock, or returns false when another running process held it for {@link WAIT_MS}. */
async function acquire(lock: string): Promise<boolean> {
  const me = thisProcess();
  const mine = newFileFor(lock);
  fs.writeFileSync(mine, JSON.stringify(me), { mode: 0o600 });
  try {
    const until = Date.now() + WAIT_MS;
    for (;;) {
      try {
        fs.linkSync(mine, lock);
        return true;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      }
      const holder = holderOf(lock);
      if (holder !== undefined && !isRunning(holder)) breakStale(lock, holder);
      else if (Date.now() > until) return false;
      else await pause(RETRY_MS);
    }
  } finally {
    fs.rmSync(mine, { force: true });
  }
}

/**
 * Runs `decide` holding the lock of the journal entry `file`. When another running process
 * holds it for too long, runs `decide` anyway: it then reads that process's entry, and stops.
 * A lock that cannot be made (a journal that cannot be written) is skipped: the journal is best effort.
 */
export async function withEntryLock<T>(file: string, decide: () => Promise<T>): Promise<T> {
  const lock = `${file}.lock`;
  const held = await acquire(lock).catch(() => false);
  try {
    return await decide();
  } finally {
    if (held && same(holderOf(lock), thisProcess())) fs.rmSync(lock, { force: true });
  }
}
