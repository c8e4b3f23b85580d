/**
 * The journal entry of one create in flight, as the create writes it (journal.ts says what the
 * journal is for), and what a create's failure says of what it made.
 */
import type { CreateWatch } from "../client/callArgs";
import { ApiError, CancelledError, ConfigurationError, NetworkError, RedirectError } from "../client/errors";
import { redirectMayFollowCarriedOut } from "../client/retry";
import { tracked } from "./cancellation";
import { engineIsGone } from "./engineWatch";
import { CloudStateError, InputConflictError } from "./errors";
import { engineProcesses, EntryFile, isRunning, type JournalEntry, journalUnavailable, thisProcess } from "./journalStore";

/**
 * True when a create's failure proves it made nothing: the API refused it, it never left this
 * machine (or the operation was stopped before it did), or it was redirected elsewhere (307,
 * 308: "send it there"; a 301, 302 or 303 may follow a create the server carried out).
 */
export function madeNothing(e: unknown): boolean {
  if (ApiError.isInstance(e)) return e.status >= 400 && e.status < 500 && e.status !== 408;
  if (NetworkError.isInstance(e)) return !e.requestSent;
  if (RedirectError.isInstance(e)) return !redirectMayFollowCarriedOut(e.status);
  // Stopped (Cancel, the engine gone) before its request was sent, or in a pause after an attempt that made nothing:
  // an attempt that may have made it is settled by the client's recovery, which ends in an AmbiguousCreateError when stopped.
  if (CancelledError.isInstance(e)) return true;
  return ConfigurationError.isInstance(e) || InputConflictError.isInstance(e) || CloudStateError.isInstance(e);
}

/** The entry as this process owns it. */
export function ownedNow(entry: JournalEntry): JournalEntry {
  return { ...entry, ...thisProcess(), engine: engineProcesses() };
}

/** True when `entry` is this process's own. */
export function isMine(entry: JournalEntry): boolean {
  const me = thisProcess();
  return entry.pid === me.pid && (entry.startTime === undefined || entry.startTime === me.startTime);
}

/**
 * The journal of one create in flight. Its writes leave the event loop (journalStore.ts
 * `EntryFile`), and the create waits for each as it waited for the synchronous writes
 * before (the intent is on disk before the create is sent, the id before the create goes
 * on), while every other create goes on; removing the entry is immediate and final.
 * Every write is best effort: a journal that cannot be written is said once, and skipped.
 */
export class Journaled {
  private file: EntryFile | undefined;

  constructor(
    file: string | undefined,
    private entry: JournalEntry,
  ) {
    this.file = file === undefined ? undefined : new EntryFile(file);
  }

  /** Records the id the API answered with. */
  made(id: string): Promise<void> {
    const { unsettled: _unsettled, ...rest } = this.entry;
    return this.save({ ...rest, id });
  }

  /** The create failed in a way that may have made the resource: the entry stays, saying why. */
  unknown(why: string): Promise<void> {
    return this.save({ ...this.entry, unsettled: why });
  }

  /**
   * What the client tells of the create's lost answer (its `watch`), each written before the
   * client goes on: when its request ended (a later `up` proves from it what the create made
   * without waiting again), and that a list read proved it made nothing (the create is then
   * sent again, a new request whose end is not known until its own answer is lost: back to the
   * create's `endsBy`; or it fails, having made nothing, and the entry goes).
   */
  readonly watch: CreateWatch = {
    lost: (endedAt) => {
      this.madeNone = false;
      return this.save({ ...this.entry, endedAt });
    },
    madeNothing: () => {
      this.madeNone = true;
      const { endedAt: _endedAt, ...rest } = this.entry;
      return this.save(rest);
    },
  };

  /** True when a list read proved that the create's last request made nothing, and no request was lost since. */
  private madeNone = false;

  /** True when the create's failure proves that it made nothing ({@link madeNothing}), or a list read proved it after its last lost answer. */
  madeNothingBy(failure: unknown): boolean {
    return this.madeNone || madeNothing(failure);
  }

  /** The create made nothing: the entry goes, now. */
  end(): void {
    this.file?.remove();
  }

  /**
   * The create has returned: its id is Pulumi's now, and the entry goes, unless the engine
   * died meanwhile (a process of it is gone, or its pipe ended: engineWatch.ts); then the entry
   * stays, marked, for the next create to take the resource over (written in the background:
   * the create has returned).
   */
  returned(): void {
    if (!engineIsGone() && this.entry.engine.every(isRunning)) return this.end();
    // Counted among the operations under way: a process whose engine is gone exits once it is written.
    void tracked(() => this.save({ ...this.entry, unrecorded: true }));
  }

  /** The entry as last written. */
  get current(): JournalEntry {
    return this.entry;
  }

  /** Where the entry is, for messages. */
  get where(): string | undefined {
    return this.file?.path;
  }

  /** Writes `entry`; resolves once it is on disk, or the journal was given up. Never rejects. */
  async save(entry: JournalEntry): Promise<void> {
    this.entry = entry;
    const file = this.file;
    if (file === undefined) return;
    try {
      await file.write(entry);
    } catch (e) {
      journalUnavailable(file.path, (e as NodeJS.ErrnoException).code ?? (e as Error).message);
      if (this.file === file) this.file = undefined;
    }
  }
}
