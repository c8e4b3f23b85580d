/**
 * What an interrupted create made (journal.ts keeps the journal): the resource of the id its
 * entry recorded; without one, the resource of exactly its name when that name was the
 * resource's own; for a peering, the one fitting peering that appeared since the entry
 * listed its look-alikes. Anything less than proof stops the create, naming every candidate
 * and the `adoptId` that takes each over. No clock decides what is whose. That nothing is
 * listed proves it made nothing only at the contract's bound: a list shows what a create made
 * within `clouddb:listLag` of when its request ended (the entry's `endedAt`, else its `endsBy`),
 * so a list read started that long after that shows nothing proves it made none, and the
 * create is sent (waiting for that moment within the operation's deadline). Before that moment
 * (a list may lag, a request held on the way may still be carried out), or for an entry that
 * does not say when its request ended (an earlier version's, or one that cannot be read), the
 * create stops, saying when to run `pulumi up` again, how to take over what it made
 * (`adoptId`), and which entry to remove once you know it made none.
 */
import { looksAgain } from "../client/createRecovery";
import { scopeDeadline } from "../client/deadline";
import { logicalNameOf } from "./autonaming";
import { pause as pauseFor } from "./cancellation";
import { sameIntent, type CreateIntent } from "./createIntent";
import { CloudStateError, InputConflictError, ProviderErrorCode } from "./errors";
import type { JournalEntry } from "./journalStore";
import { describeMs, longerTimeoutAdvice, timeoutNamed } from "./timeouts";
import { tellUser } from "./userLog";

/** What a list read showed, and when its request was sent (epoch ms, this machine's clock; undefined when not known). */
export interface Listed<T> {
  readonly items: T[];
  readonly sentAt: number | undefined;
}

/** How to find what an interrupted create of one type made. */
export interface Recovery<T> {
  /** The live resource with this id, or undefined when it is gone. */
  get(id: string): Promise<T | undefined>;
  /**
   * The live resources where the intent's would be (the project's services, the VPC's peerings, ...), none being deleted.
   * `opts.sharedMaxAgeMs`: an answer another client of this machine read up to that long ago may serve (lookAlikeList.ts).
   */
  list(opts?: { readonly sharedMaxAgeMs?: number }): Promise<Listed<T>>;
  /** Whether a resource has the intent's fixed fields (its name aside). */
  fits(resource: T): boolean;
  /** Its name, for types that have one. */
  nameOf?(resource: T): string | undefined;
  /** The resource's id. */
  idOf(resource: T): string;
  /**
   * What of a create's answer a read of the resource never gives again (a service's initial
   * password): what a create the engine sends again in the same run resumes with. None by default.
   */
  firstOnly?(resource: T): Partial<T>;
  /** True when the API can rename the resource (VPCs): a look-alike without its name may still be what it made. */
  renamable?: boolean;
  /**
   * What names the list `list` reads (`services`, `replica sets of <id>`), when creates of this
   * process made shortly after one another may share one read of it for the look-alikes there
   * before them: a kind whose look-alikes are told apart by name, so that a list read earlier
   * only makes more of them "maybe new", never proof (lookAlikeList.ts). Undefined (peerings, whose
   * look-alikes are told apart by that list alone): each create reads it.
   */
  sharedList?: string;
}

/** `reading`'s items that are not being deleted (`leaving`), as a {@link Listed}. */
export function listedOf<T>(reading: { readonly items: T[]; readonly sentAt?: number }, leaving?: (item: T) => boolean): Listed<T> {
  return { items: leaving === undefined ? reading.items : reading.items.filter((i) => !leaving(i)), sentAt: reading.sentAt };
}

/** `"<id>" (name)` and the adoptId of each, for messages. */
function listed<T>(recovery: Recovery<T>, found: readonly T[]): string {
  return found
    .map((r) => {
      const name = recovery.nameOf?.(r);
      return `${recovery.idOf(r)}${name === undefined ? "" : ` (${JSON.stringify(name)})`}: adoptId: "${recovery.idOf(r)}"`;
    })
    .join("; ");
}

/** What the journal says of an entry, for messages. */
export function describe(file: string, entry: JournalEntry): string {
  const times = (entry.interruptions ?? 0) > 1 ? `, interrupted ${entry.interruptions} times` : "";
  return `journal entry ${file}, written at ${new Date(entry.startedAt).toISOString()} by process ${entry.pid}${times}`;
}

/** A time for messages: ISO 8601, this machine's clock. */
const at = (ms: number): string => new Date(ms).toISOString();

/**
 * From when a list read proves what the create of `entry` made: `listLag` after its request
 * ended (`endedAt` once its answer was lost, else `endsBy`); undefined when the entry does not
 * say when that was (an earlier version's).
 */
export function provenFrom(entry: JournalEntry, listLagMs: number): number | undefined {
  const ended = entry.endedAt ?? entry.endsBy;
  return ended === undefined ? undefined : ended + listLagMs;
}

/** What {@link look} found: items, or none, proven (a read started at the bound showed none) or not. */
type Looked<T> = { readonly found: T[]; readonly proven: boolean };

/**
 * Reads what `read` finds, again after a pause while it finds nothing (a list may lag behind a
 * create); with a `bound` (see {@link provenFrom}), until a read started at it shows nothing,
 * which proves the create made nothing, waiting for it while the operation's deadline allows.
 */
async function look<T>(read: () => Promise<Listed<T>>, bound?: number): Promise<Looked<T>> {
  const lookAgain = looksAgain(bound);
  const limit = scopeDeadline() ?? Infinity;
  for (;;) {
    const listed = await read();
    if (listed.items.length > 0) return { found: listed.items, proven: false };
    if (bound !== undefined && (listed.sentAt ?? -Infinity) >= bound) return { found: [], proven: true };
    const next = lookAgain();
    if (next === undefined) return { found: [], proven: false };
    // No wait starts past the operation's deadline.
    if (next >= limit) return { found: [], proven: false };
    await pauseFor(next - Date.now());
  }
}

/**
 * The error of an interrupted create nothing of which is listed before its bound (or whose
 * entry says no bound): that proves nothing yet (a list may lag, a request held on the way may
 * still arrive), so nothing is created on it.
 */
function nothingListed(intent: CreateIntent, file: string, what: string, bound: number | undefined): CloudStateError {
  const when =
    bound === undefined
      ? "That does not prove it made none (a list may lag behind the API, and a request held on the way may still be carried out)"
      : `That does not prove it made none yet: a list shows what a create made within ${describeMs(intent.listLagMs)} ` +
        `(clouddb:listLag) of when its request ended, so only a list read from ${at(bound)} on (this machine's clock) that shows ` +
        `none proves it, and this create may wait only until ${at(scopeDeadline() ?? Date.now())} (${timeoutNamed("create")}). Run \`pulumi up\` ` +
        `again after ${at(bound)} (it then looks, and creates one if none is listed), or ${longerTimeoutAdvice("create")} ` +
        `to wait for that in one run`;
  return new CloudStateError(
    `${what}, and no ${intent.noun} it may have made is listed now. ${when}, so the provider does not create another on a guess. ` +
      `If a ${intent.noun} it made appears, the next \`pulumi up\` takes it over; take one over yourself with adoptId on the resource; ` +
      `or, once you know it made none, remove ${file} and run \`pulumi up\` again (it then creates one).`,
    ProviderErrorCode.CreateUnsettled,
  );
}

/**
 * What `read` finds of what the interrupted create of `entry` may have made (see {@link look});
 * none when a read at the bound proves it made none (said on standard error).
 * @throws CloudStateError when nothing is listed and that proves nothing yet
 */
async function lookFor<T>(
  intent: CreateIntent,
  entry: JournalEntry,
  file: string,
  what: string,
  read: () => Promise<Listed<T>>,
): Promise<T[]> {
  const bound = provenFrom(entry, intent.listLagMs);
  const looked = await look(read, bound);
  if (looked.found.length > 0) return looked.found;
  if (!looked.proven) throw nothingListed(intent, file, what, bound);
  tellUser(
    `${what}, and a list read ${describeMs(intent.listLagMs)} (clouddb:listLag) after its request ended shows no ${intent.noun} ` +
      `it made: it made none, so this create makes one`,
  );
  return [];
}

/** Look-alikes of the intent in `listed` (else a list read now): its fixed fields, and `name` when given. */
export async function lookAlikes<T>(recovery: Recovery<T>, name: string | undefined, listed?: Listed<T>): Promise<Listed<T>> {
  const all = listed ?? (await recovery.list());
  return { ...all, items: all.items.filter((r) => recovery.fits(r) && (name === undefined || recovery.nameOf?.(r) === name)) };
}

/**
 * Whether what a create made is proved by its name alone: a name of the resource's own
 * (autonamed), of a kind the API cannot rename. A recovery of it ({@link interrupted}) takes
 * over the resource of exactly that name, or sends the create again when none is listed at the
 * bound, and never asks which look-alikes were there before it: none is read for its entry.
 */
export function provedByName(
  intent: { readonly autonamed?: boolean; readonly name?: string },
  recovery: Pick<Recovery<unknown>, "renamable">,
): boolean {
  return intent.autonamed === true && intent.name !== undefined && recovery.renamable !== true;
}

/** `listed` with only the items `keep` keeps. */
const keeping = <T>(listed: Listed<T>, keep: (item: T) => boolean): Listed<T> => ({ ...listed, items: listed.items.filter(keep) });

/**
 * An entry that cannot be read: whatever fits the intent may be what that create made.
 * @throws InputConflictError naming them, when there are any
 */
export async function unreadable<T>(intent: CreateIntent, recovery: Recovery<T>, file: string, why: string): Promise<void> {
  // A name the program set is the one that create sent too; one of the resource's own was made up again (the entry told none).
  const named = intent.autonamed || intent.name === undefined ? "" : ` named ${JSON.stringify(intent.name)}`;
  const logical = logicalNameOf(intent.owner, intent.kind.toLowerCase()).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const ownName = new RegExp(`^${logical}-[0-9a-f]{7}$`);
  const { found: maybe } = await look(async () =>
    keeping(await lookAlikes(recovery, undefined), (r) => {
      const name = recovery.nameOf?.(r);
      const named = intent.name === undefined || name === undefined || (intent.autonamed ? ownName.test(name) : name === intent.name);
      return named || recovery.renamable === true;
    }),
  );
  if (maybe.length === 0)
    throw nothingListed(
      intent,
      file,
      `The journal entry ${file} of an earlier create of this ${intent.noun}${named} cannot be read (${why})`,
      undefined,
    );
  throw new InputConflictError(
    "adoptId",
    `The journal entry ${file} of an earlier create of this ${intent.noun}${named} cannot be read (${why}), so that create may have made a ${intent.noun} ` +
      `this stack does not know of. These fit: ${listed(recovery, maybe)}. Take over the one it made with adoptId on the resource, and delete the others; ` +
      `if none is this stack's, remove ${file} and run \`pulumi up\` again.`,
  );
}

/**
 * What the interrupted create of `entry` provably made (see the module comment): the
 * resource, or undefined when it made nothing that remains.
 * @throws InputConflictError when what it may have made cannot be told apart from another stack's, or no longer fits the program
 */
export async function interrupted<T>(
  intent: CreateIntent,
  entry: JournalEntry,
  recovery: Recovery<T>,
  file: string,
): Promise<T | undefined> {
  const where = describe(file, entry);
  if (!sameIntent(entry, intent)) {
    const then = Object.entries(entry.identity)
      .map(([k, v]) => `${k} ${JSON.stringify(v)}`)
      .join(", ");
    const found =
      entry.id !== undefined
        ? await recovery.get(entry.id)
        : entry.name === undefined
          ? undefined
          : (await recovery.list()).items.find((r) => recovery.nameOf?.(r) === entry.name);
    if (found === undefined) return undefined;
    throw new InputConflictError(
      "adoptId",
      `An earlier create of this ${intent.noun} (${then}; ${where}) did not finish, and may have made ${intent.noun} ${listed(recovery, [found])}, ` +
        `but the program now asks for something else. To keep it, set the program back and take it over with adoptId; otherwise delete it ` +
        `(or, if it is not this stack's, remove ${file}), then run \`pulumi up\` again.`,
    );
  }
  // The id it recorded is proof; a recorded id that is gone means what it made is gone.
  if (entry.id !== undefined) return recovery.get(entry.id);
  const named = entry.name === undefined ? "" : ` named ${JSON.stringify(entry.name)}`;
  const unfinished = `An earlier create of this ${intent.noun}${named} (${where}) did not finish`;
  // What may be new: a look-alike the entry's list just before the create did not show (every look-alike, without that list).
  const before = entry.before === undefined ? undefined : new Set(entry.before);
  const isNew = (r: T): boolean => before === undefined || !before.has(recovery.idOf(r));
  if (entry.autonamed === true && entry.name !== undefined) {
    // Proved by its name alone (provedByName), `isNew` is not asked: the entry of such a create keeps no look-alikes.
    const name = entry.name;
    const byName = provedByName(entry, recovery);
    const found = await lookFor(intent, entry, file, unfinished, async () =>
      keeping(await lookAlikes(recovery, undefined), (r) => recovery.nameOf?.(r) === name || (!byName && isNew(r))),
    );
    // None is listed at the bound: it made none, and a create is sent.
    if (found.length === 0) return undefined;
    const mine = found.filter((r) => recovery.nameOf?.(r) === name);
    if (mine.length === 1) return mine[0];
    if (mine.length > 1) {
      throw new InputConflictError(
        "adoptId",
        `${unfinished}, and ${mine.length} ${intent.noun}s carry its name ${JSON.stringify(name)}, ` +
          `which is this resource's own (the request was carried out more than once): ${listed(recovery, mine)}. Take over one with adoptId, and delete the others.`,
      );
    }
    if (found.length > 0) {
      throw new InputConflictError(
        "adoptId",
        `${unfinished}, and no ${intent.noun} carries its name ${JSON.stringify(name)}, but ${found.length === 1 ? "this one fits it and is" : "these fit it and are"} ` +
          `new since it began, and may be what it made, renamed since: ${listed(recovery, found)}. Take over the one it made with adoptId on the resource; ` +
          `if none is this stack's, remove ${file} and run \`pulumi up\` again (it then creates one).`,
      );
    }
  }
  const made = await lookFor(intent, entry, file, unfinished, async () => keeping(await lookAlikes(recovery, entry.name), isNew));
  // None is listed at the bound: it made none, and a create is sent.
  if (made.length === 0) return undefined;
  if (entry.name === undefined && before !== undefined && made.length === 1) return made[0];
  const why =
    entry.name === undefined
      ? before === undefined
        ? `the list of look-alikes before it began was not kept, so the provider cannot tell which of these it made`
        : `${made.length} ${intent.noun}s that fit it appeared since, and the provider does not guess which one it made`
      : `its name ${JSON.stringify(entry.name)} is the program's, not unique to this stack, so ${made.length === 1 ? "this one" : "each of these"} may be another stack's`;
  throw new InputConflictError(
    "adoptId",
    `${unfinished}, and ${why}: ${listed(recovery, made)}. ` +
      `Take over the one it made with adoptId on the resource; if none is this stack's, remove ${file} and run \`pulumi up\` again (it then creates one).`,
  );
}
