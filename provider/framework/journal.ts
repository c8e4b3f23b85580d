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
 * No clock decides what is whose. That nothing is listed proves nothing made only by the
 * contract's bound (a list shows what a create made within `clouddb:listLag` of when its request
 * ended): the entry records when the request ended at the latest (`endsBy`: the create's
 * deadline plus the longest a request lasts; `endedAt` once its answer was lost, which the
 * client tells through its `watch`), and a list read started that bound after it that shows
 * nothing the create made proves it made none: the next create is then sent (interruptedCreates.ts),
 * waiting for that moment if it has not come (within `timeouts.create`; else it stops, saying
 * when to run `pulumi up` again). Those times are this machine's clock, read in two runs: the
 * rule assumes the clock was not set forward between them by more than the bound. A takeover
 * rewrites the entry as its own, so a takeover
 * interrupted again is found again. An entry that cannot be read (`null`, torn) is an intent
 * whose outcome is unknown, not absent. Two processes of one stack decide one at a time
 * (journalLock.ts). On another machine (CI runners) the journal is not there: Pulumi's
 * pending create (`pulumi refresh --clear-pending-creates`) plus `adoptId` recover it.
 *
 * A create the engine sends again in the same run (an `onError` hook retrying a failed one,
 * a partial failure's included) finds what this process handed over: it resumes that
 * resource, never makes a second.
 */
import type { CreateWatch } from "../client/callArgs";
import { scopeDeadline } from "../client/deadline";
import { AmbiguousCreateError, NotFoundError } from "../client/errors";
import { sameIntent, type CreateIntent } from "./createIntent";
import { CloudStateError, ProviderErrorCode } from "./errors";
import { describe, interrupted, lookAlikes, provedByName, provenFrom, unreadable, type Recovery } from "./interruptedCreates";
import { isMine, Journaled, ownedNow } from "./journaled";
import { endpointSpellings } from "./settings";
import { listedBefore } from "./lookAlikeList";
import { withEntryLock } from "./journalLock";
import {
  engineProcesses,
  entryFile,
  isRunning,
  type JournalEntry,
  legacyEntryFile,
  readEntryAsync,
  removeEntry,
  type StoredEntry,
  thisProcess,
  usableJournalDir,
} from "./journalStore";
import { tellUser } from "./userLog";

export { listedOf, type Listed, type Recovery } from "./interruptedCreates";

/**
 * The creates this process has handed to the engine (returned, or thrown with the id as a
 * partial failure), by {@link intentKey}: the resource first answered, and the entry that
 * made it. The engine may send the same Create again in the same run (an `onError` resource
 * hook re-sends a failed one, up to 100 times: pulumi/pulumi pkg/resource/deploy/retries.go),
 * and that create must resume what the first one made, not make another: the journal's
 * entry went when the first one returned.
 */
const handedOver = new Map<string, HandedOver>();

/**
 * What {@link handedOver} keeps of a create: what tells the same create sent again (its
 * identity and name), the id it made and what only its answer carried ({@link Recovery}
 * `firstOnly`: a service's initial password); nothing else of its journal entry, whose
 * look-alikes (`before`, as many as the project has) would make a run of N creates in a
 * project of N resources hold N² ids, nor of the answer, which a read gives again (kept
 * whole, a stack of N services held N answers for the life of the process).
 */
interface HandedOver {
  readonly entry: Pick<JournalEntry, "identity" | "autonamed" | "name">;
  readonly id: string;
  readonly firstOnly: object;
}

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
  const now = await recovery.get(before.id);
  return now === undefined ? undefined : { ...(before.firstOnly as Partial<T>), ...now };
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
        `A create of this ${intent.noun}${previous.name === undefined ? "" : ` named ${JSON.stringify(previous.name)}`} is under way in another process (${describe(from, previous)}), which is still running: ` +
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
      tellUser(
        `${intent.noun} ${recovery.idOf(resource)}${name === undefined ? "" : ` (${JSON.stringify(name)})`} was made by an earlier create ` +
          `that did not finish (${describe(file, { ...previous, interruptions: claimed.interruptions })}: its provider process stopped, or Pulumi never recorded its answer); ` +
          `taking it over instead of creating another${onTakeover}`,
      );
      await journal.made(recovery.idOf(resource));
      return { taken: { resource, takenOver: true, settled: handOver(intent, journal, recovery, resource) } };
    }
  }
  // The look-alikes there are before it is sent (name aside): what a later recovery can prove old. Unread, every look-alike may be new.
  // A name of its own that the API cannot change proves what it made without them: nothing is read for it.
  const before = provedByName(intent, recovery)
    ? undefined
    : await listedBefore(intent, recovery)
        .then((listed) => lookAlikes(recovery, undefined, listed))
        .then(
          (all) => all.items.map((r) => recovery.idOf(r)),
          () => undefined,
        );
  const fresh: JournalEntry = { ...entry, ...(before === undefined ? {} : { before }) };
  const journal = new Journaled(file, fresh);
  // The intent is on disk before the create is sent.
  await journal.save(fresh);
  return { journal };
}

/**
 * The creates of this process under way, by {@link intentKey}: one create of a resource at a
 * time. The engine sends one Create per resource and run, but may send it again (an `onError`
 * hook), and a native plugin may be sent the same Create several times at once: the second
 * waits until the first is settled, then finds what it made ({@link madeHere}) or its journal
 * entry, and never makes a second resource.
 */
const underWay = new Map<string, Promise<void>>();

/** Waits for the turn of the create keyed `key` in this process; resolves with what ends it. */
async function turnOf(key: string): Promise<() => void> {
  for (let running = underWay.get(key); running !== undefined; running = underWay.get(key)) await running;
  let end = (): void => undefined;
  const mine = new Promise<void>((resolve) => (end = resolve));
  underWay.set(key, mine);
  return () => {
    if (underWay.get(key) === mine) underWay.delete(key);
    end();
  };
}

/**
 * Creates at most once per intent across interrupted provider processes: takes over what
 * an interrupted create of the same resource made (see the module comment), else journals
 * and runs `send`, which gives the client `watch` (the journal records when a lost answer's
 * request ended, and that the create is sent again). `onTakeover` ends the line printed when
 * it takes one over. Creates of one resource in this process run one at a time, each until
 * the one before is settled ({@link underWay}).
 *
 * @throws InputConflictError when an interrupted create may have made what cannot be told
 *   apart from another stack's; CloudStateError when a create of the same resource is still
 *   under way in another process, or an interrupted one's outcome cannot be proved yet; what
 *   `send` throws (the entry stays when it may have made the resource, and the error says so).
 */
export async function createOnce<T>(
  intent: CreateIntent,
  recovery: Recovery<T>,
  send: (watch: CreateWatch) => Promise<T>,
  onTakeover = "",
): Promise<Created<T>> {
  if (intent.owner === "") return createOnceNow(intent, recovery, send, onTakeover);
  const ended = await turnOf(intentKey(intent));
  try {
    const created = await createOnceNow(intent, recovery, send, onTakeover);
    return {
      ...created,
      settled: () => {
        try {
          created.settled();
        } finally {
          ended();
        }
      },
    };
  } catch (e) {
    ended();
    throw e;
  }
}

/** {@link createOnce}, once it is this create's turn in this process. */
async function createOnceNow<T>(
  intent: CreateIntent,
  recovery: Recovery<T>,
  send: (watch: CreateWatch) => Promise<T>,
  onTakeover: string,
): Promise<Created<T>> {
  const again = await madeHere(intent, recovery);
  if (again !== undefined) {
    const name = recovery.nameOf?.(again);
    tellUser(
      `${intent.noun} ${recovery.idOf(again)}${name === undefined ? "" : ` (${JSON.stringify(name)})`} was made by this same create, ` +
        "which Pulumi sent again (an onError resource hook retrying it after it failed, or the same Create twice); resuming it instead of creating another",
    );
    return { resource: again, takenOver: true, settled: () => undefined };
  }
  const dir = usableJournalDir();
  const deadline = scopeDeadline();
  const entry: JournalEntry = {
    v: 2,
    ...thisProcess(),
    engine: engineProcesses(),
    startedAt: Date.now(),
    identity: intent.identity,
    ...(intent.name === undefined ? {} : { name: intent.name, autonamed: intent.autonamed }),
    // No request of this create is sent past its deadline, and none lasts longer than a request may.
    ...(deadline === undefined ? {} : { endsBy: deadline + intent.requestTimeoutMs }),
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
    resource = await send(journal.watch);
  } catch (e) {
    if (journal.madeNothingBy(e)) {
      journal.end();
    } else {
      await journal.unknown(e instanceof Error ? e.message.slice(0, 300) : String(e));
      if (journal.where !== undefined && e instanceof Error) e.message += ` ${kept(journal, intent, e)}`;
    }
    throw e;
  }
  await journal.made(recovery.idOf(resource));
  return { resource, takenOver: false, settled: handOver(intent, journal, recovery, resource) };
}

/** What a create whose outcome is unknown adds to its error: the journal keeps its intent, and what the next `up` does with it. */
function kept(journal: Journaled, intent: CreateIntent, e: Error): string {
  const bound = provenFrom(journal.current, intent.listLagMs);
  const none = AmbiguousCreateError.isInstance(e) && e.candidateIds.length === 0;
  const then = !none
    ? AmbiguousCreateError.isInstance(e)
      ? "; if none of these is this stack's, remove that file first"
      : ""
    : bound === undefined
      ? ", and creates nothing on a guess; once you know it made none, remove that file"
      : `, and creates one once a list read from ${new Date(bound).toISOString()} on (clouddb:listLag after its request ended, this ` +
        "machine's clock) shows none: run it then, or give the resource a longer timeouts.create to wait for that in one run";
  return `The journal keeps this create's intent (${journal.where}): the next \`pulumi up\` looks for what it made before it sends anything${then}.`;
}

/** The `settled` hook of a create that made (or took over) `resource`: the engine has it now, and may send the same create again. */
function handOver<T>(intent: CreateIntent, journal: Journaled, recovery: Recovery<T>, resource: T): () => void {
  return () => {
    if (intent.owner !== "") {
      const { identity, autonamed, name } = journal.current;
      const firstOnly = recovery.firstOnly?.(resource) ?? {};
      handedOver.set(intentKey(intent), { entry: { identity, autonamed, name }, id: recovery.idOf(resource), firstOnly });
    }
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
  for (const url of endpointSpellings(ctx.settings)) removeEntry(entryFile(dir, url, projectId, kind, ctx.owner));
}
