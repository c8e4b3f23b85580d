/**
 * Interrupted creates. When the provider process dies after the API accepted a create but
 * before Pulumi recorded the result (plugin killed, machine lost, Ctrl-C twice, or the CLI
 * killed while the provider finished on its own), the resource exists but no state names
 * it, and the next `pulumi up` would create a second one. Names are not unique in the API,
 * so "a resource with this name exists" proves nothing: it may be another stack's, or the
 * old half of a `--replace`.
 *
 * So the provider keeps a journal on this machine, one file per resource being created,
 * named by a hash of the intent: the API endpoint, the project, the resource type, the
 * stack and resource asking (the SDK's `__owner` input) and the fields that identify what
 * is made. Before it sends a create it writes the entry (its process id, those of the Pulumi
 * engine above it, the start time, and, for types whose answers carry no creation time,
 * the ids of look-alikes that already exist); it adds the id as soon as the API answers;
 * and it removes the entry when `create` returns to a live engine (the id is then in
 * Pulumi's hands). An entry whose process is no longer alive is an interrupted create; so
 * is one whose create returned after the engine had died.
 *
 * The next create of the same intent reads exactly that file (no directory scan) and takes
 * over the resource it recorded; without a recorded id (the process died before the
 * answer), the one look-alike made since the entry, if exactly one is; several: it fails,
 * naming them and how to adopt one. Nothing else is ever taken over. The entry holds no
 * secret. It lives in `CLOUDDB_JOURNAL_DIR`, else `<tmpdir>/clouddb-pending-creates-<uid>`;
 * entries older than {@link MAX_AGE_MS} are ignored. On another machine (CI runners) the
 * journal is not there: Pulumi's pending create (`pulumi refresh --clear-pending-creates`)
 * plus `adoptId` recover it.
 */
import { createHash, randomBytes } from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { NotFoundError } from "../client/errors";
import { InputConflictError } from "./errors";

/** Entries older than this are ignored (and removed). */
export const MAX_AGE_MS = 24 * 60 * 60_000;
/** Tolerated clock difference between this machine and the API, for creation times. */
const SKEW_MS = 10_000;

/** What identifies one create: the same resource of the same stack, asked for again. */
export interface CreateIntent {
  readonly apiUrl: string;
  readonly projectId: string;
  /** The resource type, e.g. `Service`. */
  readonly kind: string;
  /** The stack and resource asking (`__owner`); empty for programs of SDKs that did not send it. */
  readonly owner: string;
  /** The fields that identify what is made (name, type, region, parent id, ...). */
  readonly identity: Readonly<Record<string, string>>;
}

/** The intent of a create of `kind` in `projectId`, identified by `identity`, that a provider call (`ctx`) makes. */
export function intentOf(
  ctx: { readonly settings: { readonly apiUrl?: string }; readonly owner: string },
  kind: string,
  projectId: string,
  identity: CreateIntent["identity"],
): CreateIntent {
  return { apiUrl: ctx.settings.apiUrl ?? "", projectId, kind, owner: ctx.owner, identity };
}

/** How to find what an interrupted create of one type made. */
export interface Recovery<T> {
  /** The live resource with this id, or undefined when it is gone. */
  get(id: string): Promise<T | undefined>;
  /** The live resources that look like the intent's (same identifying fields). */
  lookAlikes(): Promise<T[]>;
  /** The resource's id. */
  idOf(resource: T): string;
  /** Its creation time in ms, when the API tells it (services); otherwise look-alikes are listed before each create. */
  createdAt?(resource: T): number | undefined;
}

interface Entry {
  pid: number;
  /** The Pulumi engine's processes above this one (the shim's shell, the CLI). */
  engine: number[];
  startedAt: number;
  /** Look-alikes that existed before the create (types without creation times). */
  before?: string[];
  id?: string;
  /** The create returned, but its engine was gone: the answer reached no one. */
  unrecorded?: boolean;
}

/** Where the journal (and the learned transition durations) live: `CLOUDDB_JOURNAL_DIR`, else a per-user temp dir. */
export function journalDir(): string {
  const uid = typeof process.getuid === "function" ? process.getuid() : "user";
  return process.env.CLOUDDB_JOURNAL_DIR || path.join(os.tmpdir(), `clouddb-pending-creates-${uid}`);
}

function fileOf(intent: CreateIntent): string {
  const identity = Object.entries(intent.identity).sort(([a], [b]) => a.localeCompare(b));
  const text = JSON.stringify([intent.apiUrl, intent.projectId, intent.kind, intent.owner, identity]);
  return path.join(journalDir(), `${createHash("sha256").update(text).digest("hex").slice(0, 40)}.json`);
}

/** `/proc/<pid>/stat` after the command name: state, ppid, ...; undefined without /proc. */
function procStat(pid: number): string[] | undefined {
  try {
    // "<pid> (<comm>) <state> <ppid> ...": comm may hold spaces and parentheses.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** True while process `pid` runs. A zombie (dead, not yet reaped by its parent) is dead. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  return procStat(pid)?.[0] !== "Z";
}

/** The parent of process `pid`, or undefined when it cannot be told. */
function parentOf(pid: number): number | undefined {
  const ppid = Number(procStat(pid)?.[1]);
  return Number.isInteger(ppid) && ppid > 1 ? ppid : undefined;
}

/**
 * The processes of the Pulumi engine above this provider process: its parent (the CLI, or
 * the `pulumi-resource-pulumi-nodejs` shell script the CLI runs) and that one's parent. On
 * systems without /proc, only the parent.
 */
export function engineProcesses(): number[] {
  const parent = process.ppid;
  const grandparent = parentOf(parent);
  return grandparent === undefined ? [parent] : [parent, grandparent];
}

function write(file: string, entry: Entry): void {
  const tmp = `${file}.${randomBytes(4).toString("hex")}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(entry), { mode: 0o600 });
  fs.renameSync(tmp, file);
}

function remove(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch {
    // already gone
  }
}

/** The entry of one create in flight; every method is best effort (a journal that cannot be written is skipped). */
class JournalEntry {
  constructor(
    private readonly file: string,
    private readonly entry: Entry,
    private writable: boolean,
  ) {}

  /** Records the id the API answered with. */
  made(id: string): void {
    this.entry.id = id;
    this.save();
  }

  /** The create made nothing: the entry goes. */
  end(): void {
    if (this.writable) remove(this.file);
  }

  /**
   * The create has returned: its id is Pulumi's now, and the entry goes, unless the engine
   * died meanwhile; then the entry stays, marked, for the next create to take the resource over.
   */
  returned(): void {
    if (this.entry.engine.every(alive)) return this.end();
    this.entry.unrecorded = true;
    this.save();
  }

  private save(): void {
    if (!this.writable) return;
    try {
      write(this.file, this.entry);
    } catch {
      this.writable = false;
    }
  }
}

/** The entry of an interrupted create of `intent`, claimed (renamed) by this process; undefined when there is none. */
function claim(file: string): { entry: Entry; claimed: string } | undefined {
  let entry: Entry;
  try {
    entry = JSON.parse(fs.readFileSync(file, "utf8")) as Entry;
  } catch {
    return undefined;
  }
  if (Date.now() - entry.startedAt > MAX_AGE_MS) {
    remove(file);
    return undefined;
  }
  if (alive(entry.pid) && !entry.unrecorded) return undefined; // a create still running
  const claimed = `${file}.claimed-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    fs.renameSync(file, claimed); // only one process wins the rename
  } catch {
    return undefined;
  }
  return { entry, claimed };
}

/** What an interrupted create made, per its entry: the resource, none, or an error naming several. */
async function interrupted<T>(kind: string, entry: Entry, recovery: Recovery<T>): Promise<T | undefined> {
  if (entry.id !== undefined) return recovery.get(entry.id);
  const before = new Set(entry.before ?? []);
  const made = (await recovery.lookAlikes()).filter((r) => {
    if (before.has(recovery.idOf(r))) return false;
    const created = recovery.createdAt?.(r);
    return created === undefined ? entry.before !== undefined : created >= entry.startedAt - SKEW_MS;
  });
  if (made.length <= 1) return made[0];
  const ids = made.map((r) => recovery.idOf(r));
  throw new InputConflictError(
    "adoptId",
    `An earlier create of this ${kind} was interrupted, and ${ids.length} ${kind}s it may have made exist: ${ids.join(", ")}. ` +
      `Take over the right one with \`adoptId: "<id>"\` on the resource, and delete the others.`,
  );
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

/** What {@link createOnce} returns: the resource, whether it was taken over, and the hook to call once `create` returns. */
export interface Created<T> {
  readonly resource: T;
  /** True when it is what an interrupted create made, not a new one. */
  readonly takenOver: boolean;
  /** Call once the provider's `create` returns or throws with the id: the entry goes (or stays, if the engine is gone). */
  readonly settled: () => void;
}

/**
 * Creates at most once per intent across interrupted provider processes: takes over what
 * an interrupted create of the same intent made (see the module comment), else journals
 * and runs `send`.
 *
 * @throws InputConflictError when an interrupted create may have made several look-alikes;
 *   what `send` throws (the entry is dropped: nothing was made).
 */
export async function createOnce<T>(intent: CreateIntent, recovery: Recovery<T>, send: () => Promise<T>): Promise<Created<T>> {
  const file = fileOf(intent);
  const found = claim(file);
  if (found) {
    try {
      const resource = await interrupted(intent.kind, found.entry, recovery);
      if (resource !== undefined) {
        remove(found.claimed);
        return { resource, takenOver: true, settled: () => undefined };
      }
    } catch (e) {
      // Put the entry back: the next create meets the same question.
      try {
        fs.renameSync(found.claimed, file);
      } catch {
        // ignore
      }
      throw e;
    }
    remove(found.claimed);
  }
  const entry: Entry = { pid: process.pid, engine: engineProcesses(), startedAt: Date.now() };
  if (!recovery.createdAt) entry.before = (await recovery.lookAlikes()).map((r) => recovery.idOf(r));
  let writable = true;
  try {
    fs.mkdirSync(journalDir(), { recursive: true, mode: 0o700 });
    write(file, entry);
  } catch {
    writable = false;
  }
  const journal = new JournalEntry(file, entry, writable);
  let resource: T;
  try {
    resource = await send();
  } catch (e) {
    journal.end();
    throw e;
  }
  journal.made(recovery.idOf(resource));
  return { resource, takenOver: false, settled: () => journal.returned() };
}
