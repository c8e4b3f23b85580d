/**
 * Interrupted creates. When the provider process dies after the API accepted a create but
 * before Pulumi recorded the result (plugin killed, machine lost, Ctrl-C twice, or the CLI
 * killed while the provider finished on its own), the resource exists but no state names
 * it, and the next `pulumi up` would create a second one.
 *
 * So the provider keeps a journal on this machine (journalStore.ts: a private directory,
 * one file per resource being created, keyed by the API endpoint, the project, the type
 * and the SDK's `__owner`, i.e. the stack and the resource asking). Before it sends a
 * create it writes the entry (the process that owns it, told apart from a later process
 * with the same id; the Pulumi engine above it; the start time; what identifies what is
 * made, and the name it sends); it adds the id as soon as the API answers; it keeps the
 * entry when the create fails in a way that may have made the resource; and it removes the
 * entry only when the resource is in Pulumi's hands (`create` returned to a live engine, or
 * threw with its id) or nothing was made (the API refused the create). Entries never expire.
 *
 * Before the create is sent, the entry also lists the look-alikes there already are (name
 * aside): what a later recovery can prove old. The next create of the same resource reads
 * exactly that file and takes over what the interrupted create provably made:
 * - the resource of the id it recorded;
 * - without one (the process died before the answer), the resource of exactly its name
 *   when that name was the resource's own (autonamed, framework/autonaming.ts: the next
 *   `check` asks for the same name);
 * - for a peering (no name), the one fitting peering that appeared under the VPC since the
 *   entry's list of look-alikes.
 * A name the program chose proves nothing (another stack may have made a resource of that
 * name meanwhile), nor does a look-alike without its own name of a kind the API can rename
 * (a VPC renamed out of band): when a look-alike may be new, the create stops and names every
 * candidate, the `adoptId` that takes it over, and the entry to remove if none is the stack's.
 * No clock decides (an entry's time is this machine's, which may have been wrong). Nothing
 * listed proves nothing either (a list may lag, a request held on the way may still arrive):
 * the create stops, saying how to tell the provider which resource it made (`adoptId`) or that
 * it made none (remove the entry). A takeover rewrites the entry as its own, so a takeover
 * interrupted again is found again. An entry that cannot be read (`null`, torn) is an intent
 * whose outcome is unknown, not absent. Two processes of one stack decide one at a time
 * (journalLock.ts). On another machine (CI runners) the journal is not there: Pulumi's
 * pending create (`pulumi refresh --clear-pending-creates`) plus `adoptId` recover it.
 *
 * A create the engine sends again in the same run (an `onError` hook retrying a failed one,
 * a partial failure's included) finds what this process handed over: it resumes that
 * resource, never makes a second.
 */
import { AmbiguousCreateError, ApiError, ConfigurationError, NetworkError, NotFoundError, RedirectError } from "../client/errors";
import { redirectMayFollowCarriedOut } from "../client/retry";
import { sameIntent, type CreateIntent } from "./createIntent";
import { CloudStateError, InputConflictError, ProviderErrorCode } from "./errors";
import { describe, interrupted, lookAlikes, unreadable, type Recovery } from "./interruptedCreates";
import { withEntryLock } from "./journalLock";
import {
  engineProcesses,
  entryFile,
  EntryFile,
  isRunning,
  type JournalEntry,
  journalUnavailable,
  legacyEntryFile,
  readEntryAsync,
  removeEntry,
  type StoredEntry,
  thisProcess,
  usableJournalDir,
} from "./journalStore";

export type { Recovery } from "./interruptedCreates";

/**
 * The creates this process has handed to the engine (returned, or thrown with the id as a
 * partial failure), by {@link intentKey}: the resource first answered, and the entry that
 * made it. The engine may send the same Create again in the same run (an `onError` resource
 * hook re-sends a failed one, up to 100 times: pulumi/pulumi pkg/resource/deploy/retries.go),
 * and that create must resume what the first one made, not make another: the journal's
 * entry went when the first one returned.
 */
const handedOver = new Map<string, { readonly entry: JournalEntry; readonly resource: unknown }>();

/** The key of an intent among {@link handedOver}: the same resource (owner) of the same type, project and API. */
function intentKey(intent: CreateIntent): string {
  return JSON.stringify([intent.apiUrl, intent.projectId, intent.kind, intent.owner]);
}

/**
 * The resource a create of `intent` this process handed to the engine made, when it is
 * still there: the same create sent again. Its fields as it is now, with those only the
 * first answer carried (a service's initial password) kept.
 */
async function madeHere<T>(intent: CreateIntent, recovery: Recovery<T>): Promise<T | undefined> {
  const before = intent.owner === "" ? undefined : handedOver.get(intentKey(intent));
  if (before === undefined || !sameIntent(before.entry, intent) || before.entry.name !== intent.name) return undefined;
  const first = before.resource as T;
  const now = await recovery.get(recovery.idOf(first));
  return now === undefined ? undefined : { ...first, ...now };
}

/** What {@link createOnce} returns: the resource, whether it was taken over, and the hook to call once `create` returns. */
export interface Created<T> {
  readonly resource: T;
  /** True when it is what an interrupted create made, not a new one. */
  readonly takenOver: boolean;
  /** Call once the provider's `create` returns or throws with the id: the entry goes (or stays, if the engine is gone). */
  readonly settled: () => void;
}

/** `read`'s answer, or undefined when it is a NotFoundError (a recorded resource that is gone). */
export async function absentIfNotFound<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (e) {
    if (NotFoundError.isInstance(e)) return undefined;
    throw e;
  }
}

/**
 * True when a create's failure proves it made nothing: the API refused it, it never left this
 * machine, or it was redirected elsewhere (307, 308: "send it there"; a 301, 302 or 303 may
 * follow a create the server carried out).
 */
function madeNothing(e: unknown): boolean {
  if (ApiError.isInstance(e)) return e.status >= 400 && e.status < 500 && e.status !== 408;
  if (NetworkError.isInstance(e)) return !e.requestSent;
  if (RedirectError.isInstance(e)) return !redirectMayFollowCarriedOut(e.status);
  return ConfigurationError.isInstance(e) || InputConflictError.isInstance(e) || CloudStateError.isInstance(e);
}

/** The entry as this process owns it. */
function ownedNow(entry: JournalEntry): JournalEntry {
  return { ...entry, ...thisProcess(), engine: engineProcesses() };
}

/** True when `entry` is this process's own. */
function isMine(entry: JournalEntry): boolean {
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
class Journaled {
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

  /** The create made nothing: the entry goes, now. */
  end(): void {
    this.file?.remove();
  }

  /**
   * The create has returned: its id is Pulumi's now, and the entry goes, unless the engine
   * died meanwhile; then the entry stays, marked, for the next create to take the resource
   * over (written in the background: the create has returned).
   */
  returned(): void {
    if (this.entry.engine.every(isRunning)) return this.end();
    void this.save({ ...this.entry, unrecorded: true });
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

/**
 * Where earlier versions kept the entry of `intent`, in the order they are looked up: keyed
 * by the endpoint as it was given (before it had one form), and, for a name the program
 * chose, where version 0.1 kept it (with the identity that reads it).
 */
function earlierFiles(dir: string, intent: CreateIntent): Array<{ file: string; identity?: CreateIntent["identity"] }> {
  const asGiven = intent.apiUrlAsGiven ?? intent.apiUrl;
  const { projectId, kind, owner, identity } = intent;
  return [
    ...(asGiven === intent.apiUrl ? [] : [{ file: entryFile(dir, asGiven, projectId, kind, owner) }]),
    ...(intent.autonamed ? [] : [{ file: legacyEntryFile(dir, asGiven, projectId, kind, owner, identity), identity }]),
  ];
}

/**
 * The stored entry of `intent`: `file`, where this version keeps it, and `from`, the file it
 * was read from (`file`, else where an earlier version kept it: {@link earlierFiles}), which
 * is the one that blocks a create and the one a message names.
 */
async function stored(dir: string, intent: CreateIntent): Promise<{ file: string; found: StoredEntry; from: string }> {
  const file = entryFile(dir, intent.apiUrl, intent.projectId, intent.kind, intent.owner);
  let found = await readEntryAsync(file);
  let from = file;
  for (const earlier of earlierFiles(dir, intent)) {
    if (found.kind !== "none") break;
    found = await readEntryAsync(earlier.file, earlier.identity);
    from = earlier.file;
  }
  return { file, found, from: found.kind === "none" ? file : from };
}

/**
 * What the journal says of a create about to be sent, decided under its lock: the resource an
 * interrupted create of it made (taken over), or the journal of this create, its intent on
 * disk before it is sent.
 *
 * @throws InputConflictError, CloudStateError as {@link createOnce} says.
 */
async function decide<T>(
  intent: CreateIntent,
  recovery: Recovery<T>,
  entry: JournalEntry,
  dir: string,
  onTakeover: string,
): Promise<{ taken: Created<T> } | { journal: Journaled }> {
  const { file, found, from } = await stored(dir, intent);
  // A message names the file that blocks: the one the entry was read from.
  if (found.kind === "unreadable") await unreadable(intent, recovery, from, found.why);
  if (found.kind === "entry") {
    const previous = found.entry;
    if (!isMine(previous) && isRunning(previous) && previous.unrecorded !== true) {
      throw new CloudStateError(
        `A create of this ${intent.noun} is under way in another process (${describe(from, previous)}), which is still running: ` +
          `let it finish or stop it, then run \`pulumi up\` again. If no such process runs, remove ${from}.`,
        ProviderErrorCode.NotReady,
      );
    }
    // Claim it before looking (into this version's file): a takeover interrupted too is found by the next create.
    const { unrecorded: _unrecorded, ...kept } = previous;
    const claimed = ownedNow({ ...kept, interruptions: (previous.interruptions ?? 0) + 1 });
    const journal = new Journaled(file, claimed);
    await journal.save(claimed);
    if (from !== file) removeEntry(from);
    const resource = await interrupted(intent, previous, recovery, file);
    if (resource !== undefined) {
      const name = recovery.nameOf?.(resource);
      console.error(
        `clouddb: ${intent.noun} ${recovery.idOf(resource)}${name === undefined ? "" : ` (${JSON.stringify(name)})`} was made by an earlier create ` +
          `that did not finish (${describe(file, { ...previous, interruptions: claimed.interruptions })}: its provider process stopped, or Pulumi never recorded its answer); ` +
          `taking it over instead of creating another${onTakeover}`,
      );
      await journal.made(recovery.idOf(resource));
      return { taken: { resource, takenOver: true, settled: handOver(intent, journal, resource) } };
    }
  }
  // The look-alikes there are before it is sent (name aside): what a later recovery can prove old. Unread, every look-alike may be new.
  const before = await lookAlikes(recovery, undefined).then(
    (all) => all.map((r) => recovery.idOf(r)),
    () => undefined,
  );
  const fresh: JournalEntry = { ...entry, ...(before === undefined ? {} : { before }) };
  const journal = new Journaled(file, fresh);
  // The intent is on disk before the create is sent.
  await journal.save(fresh);
  return { journal };
}

/**
 * Creates at most once per intent across interrupted provider processes: takes over what
 * an interrupted create of the same resource made (see the module comment), else journals
 * and runs `send`. `onTakeover` ends the line printed when it takes one over.
 *
 * @throws InputConflictError when an interrupted create may have made what cannot be told
 *   apart from another stack's; CloudStateError when a create of the same resource is still
 *   under way in another process; what `send` throws (the entry stays when it may have made
 *   the resource, and the error says so).
 */
export async function createOnce<T>(
  intent: CreateIntent,
  recovery: Recovery<T>,
  send: () => Promise<T>,
  onTakeover = "",
): Promise<Created<T>> {
  const again = await madeHere(intent, recovery);
  if (again !== undefined) {
    const name = recovery.nameOf?.(again);
    console.error(
      `clouddb: ${intent.noun} ${recovery.idOf(again)}${name === undefined ? "" : ` (${JSON.stringify(name)})`} was made by this same create, ` +
        "which Pulumi sent again after it failed (an onError resource hook); resuming it instead of creating another",
    );
    return { resource: again, takenOver: true, settled: () => undefined };
  }
  const dir = usableJournalDir();
  const entry: JournalEntry = {
    v: 2,
    ...thisProcess(),
    engine: engineProcesses(),
    startedAt: Date.now(),
    identity: intent.identity,
    ...(intent.name === undefined ? {} : { name: intent.name, autonamed: intent.autonamed }),
  };
  let journal = new Journaled(undefined, entry);
  if (dir !== undefined) {
    // Decided by one process at a time: two processes of one stack never both create, nor both take over (journalLock.ts).
    const file = entryFile(dir, intent.apiUrl, intent.projectId, intent.kind, intent.owner);
    const decided = await withEntryLock(file, () => decide(intent, recovery, entry, dir, onTakeover));
    if ("taken" in decided) return decided.taken;
    journal = decided.journal;
  }
  let resource: T;
  try {
    resource = await send();
  } catch (e) {
    if (madeNothing(e)) {
      journal.end();
    } else {
      await journal.unknown(e instanceof Error ? e.message.slice(0, 300) : String(e));
      if (journal.where !== undefined && e instanceof Error) {
        const none = AmbiguousCreateError.isInstance(e) && e.candidateIds.length === 0;
        e.message +=
          ` The journal keeps this create's intent (${journal.where}): the next \`pulumi up\` looks for what it made before it sends anything` +
          `${none ? ", and creates nothing on a guess; once you know it made none, remove that file" : AmbiguousCreateError.isInstance(e) ? "; if none of these is this stack's, remove that file first" : ""}.`;
      }
    }
    throw e;
  }
  await journal.made(recovery.idOf(resource));
  return { resource, takenOver: false, settled: handOver(intent, journal, resource) };
}

/** The `settled` hook of a create that made (or took over) `resource`: the engine has it now, and may send the same create again. */
function handOver<T>(intent: CreateIntent, journal: Journaled, resource: T): () => void {
  return () => {
    if (intent.owner !== "") handedOver.set(intentKey(intent), { entry: journal.current, resource });
    journal.returned();
  };
}

/**
 * Forgets the interrupted create of the resource `ctx` is for (its journal entry goes): the
 * program took an existing resource over with `adoptId`, which settles the question.
 */
export function forgetInterrupted(
  ctx: { readonly settings: { readonly apiUrl?: string; readonly apiUrlAsGiven?: string }; readonly owner: string },
  kind: string,
  projectId: string,
): void {
  const dir = usableJournalDir();
  if (dir === undefined || ctx.owner === "") return;
  // This version's entry, and one an earlier version keyed by the endpoint as it was given.
  const { apiUrl = "", apiUrlAsGiven } = ctx.settings;
  for (const url of apiUrlAsGiven === undefined ? [apiUrl] : [apiUrl, apiUrlAsGiven])
    removeEntry(entryFile(dir, url, projectId, kind, ctx.owner));
}
