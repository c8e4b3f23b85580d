/**
 * What an interrupted create made (journal.ts keeps the journal): the resource of the id its
 * entry recorded; without one, the resource of exactly its name when that name was the
 * resource's own; for a peering, the one fitting peering that appeared since the entry
 * listed its look-alikes. Anything less than proof stops the create, naming every candidate
 * and the `adoptId` that takes each over. No clock decides anything (the entry's time may
 * be this machine's before its clock was set right), and absence proves nothing: a list may
 * lag behind the API, and a request held on the way may still be carried out, so when
 * nothing it may have made is listed the create stops too, saying how to tell the provider
 * that nothing was made (remove the entry) or which resource it made (`adoptId`).
 */
import { pause } from "./cancellation";
import { logicalNameOf } from "./autonaming";
import { sameIntent, type CreateIntent } from "./createIntent";
import { CloudStateError, InputConflictError, ProviderErrorCode } from "./errors";
import type { JournalEntry } from "./journalStore";

/** The pauses before a list that showed nothing is read again (it may lag behind the create): looking more finds more, never proves absence. */
const LOOK_AGAIN_MS: readonly number[] = [500, 1_500];

/** How to find what an interrupted create of one type made. */
export interface Recovery<T> {
  /** The live resource with this id, or undefined when it is gone. */
  get(id: string): Promise<T | undefined>;
  /** The live resources where the intent's would be (the project's services, the VPC's peerings, ...), none being deleted. */
  list(): Promise<T[]>;
  /** Whether a resource has the intent's fixed fields (its name aside). */
  fits(resource: T): boolean;
  /** Its name, for types that have one. */
  nameOf?(resource: T): string | undefined;
  /** The resource's id. */
  idOf(resource: T): string;
  /** True when the API can rename the resource (VPCs): a look-alike without its name may still be what it made. */
  renamable?: boolean;
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

/** Reads what `read` finds, again after a pause while it finds nothing (a list may lag behind a create). */
async function look<T>(read: () => Promise<T[]>): Promise<T[]> {
  let found = await read();
  for (const wait of LOOK_AGAIN_MS) {
    if (found.length > 0) break;
    await pause(wait);
    found = await read();
  }
  return found;
}

/**
 * The error of an interrupted create nothing of which is listed: that proves nothing (a list
 * may lag, a request held on the way may still arrive), so nothing is created on it.
 */
function nothingListed(intent: CreateIntent, file: string, what: string): CloudStateError {
  return new CloudStateError(
    `${what}, and no ${intent.noun} it may have made is listed now. That does not prove it made none (a list may lag behind the API, ` +
      `and a request held on the way may still be carried out), so the provider does not create another on a guess. If a ${intent.noun} ` +
      `it made appears, the next \`pulumi up\` takes it over; take one over yourself with adoptId on the resource; or, once you know ` +
      `it made none, remove ${file} and run \`pulumi up\` again (it then creates one).`,
    ProviderErrorCode.CreateUnsettled,
  );
}

/** Look-alikes of the intent: its fixed fields, and `name` when given. */
export async function lookAlikes<T>(recovery: Recovery<T>, name: string | undefined): Promise<T[]> {
  return (await recovery.list()).filter((r) => recovery.fits(r) && (name === undefined || recovery.nameOf?.(r) === name));
}

/**
 * An entry that cannot be read: whatever fits the intent may be what that create made.
 * @throws InputConflictError naming them, when there are any
 */
export async function unreadable<T>(intent: CreateIntent, recovery: Recovery<T>, file: string, why: string): Promise<void> {
  const logical = logicalNameOf(intent.owner, intent.kind.toLowerCase()).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const ownName = new RegExp(`^${logical}-[0-9a-f]{7}$`);
  const maybe = await look(async () =>
    (await lookAlikes(recovery, undefined)).filter((r) => {
      const name = recovery.nameOf?.(r);
      const named = intent.name === undefined || name === undefined || (intent.autonamed ? ownName.test(name) : name === intent.name);
      return named || recovery.renamable === true;
    }),
  );
  if (maybe.length === 0)
    throw nothingListed(intent, file, `The journal entry ${file} of an earlier create of this ${intent.noun} cannot be read (${why})`);
  throw new InputConflictError(
    "adoptId",
    `The journal entry ${file} of an earlier create of this ${intent.noun} cannot be read (${why}), so that create may have made a ${intent.noun} ` +
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
          : (await recovery.list()).find((r) => recovery.nameOf?.(r) === entry.name);
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
  const unfinished = `An earlier create of this ${intent.noun} (${where}) did not finish`;
  // What may be new: a look-alike the entry's list just before the create did not show (every look-alike, without that list).
  const before = entry.before === undefined ? undefined : new Set(entry.before);
  const isNew = (r: T): boolean => before === undefined || !before.has(recovery.idOf(r));
  if (entry.autonamed === true && entry.name !== undefined) {
    const name = entry.name;
    const found = await look(async () =>
      (await lookAlikes(recovery, undefined)).filter((r) => recovery.nameOf?.(r) === name || (recovery.renamable === true && isNew(r))),
    );
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
    throw nothingListed(intent, file, unfinished);
  }
  const made = await look(async () => (await lookAlikes(recovery, entry.name)).filter(isNew));
  if (made.length === 0) throw nothingListed(intent, file, unfinished);
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
