/**
 * Where and how the journal of creates in flight is kept (framework/journal.ts says what it
 * is for): a private directory of this user, one file per resource being created (named by
 * a hash of the API endpoint, the project, the type and the SDK's `__owner`, so finding it
 * reads no directory), written whole or not at all, readable by its owner only. Creates
 * read and write their entries off the event loop ({@link readEntryAsync}, {@link EntryFile}):
 * hundreds of creates at once never wait on each other's files. Also who a process is, so
 * that a process id used again by another process is not taken for the one that wrote an
 * entry. Light on purpose: `check` reads an entry (the name of an interrupted create)
 * without loading the API client.
 */
import { createHash } from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { warnUser } from "./userLog";

/** Mode of the journal's directory and of its files: this user's alone. */
const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;

/** A process, told apart from a later one that got the same id. */
export interface ProcessRef {
  readonly pid: number;
  /** When it started, in clock ticks since boot (`/proc/<pid>/stat`); absent where there is no /proc. */
  readonly startTime?: string;
  /** The boot it started in (`/proc/sys/kernel/random/boot_id`); absent where there is no /proc. */
  readonly bootId?: string;
}

/** Who owns a journal entry's intent now, and what it knows of it (see framework/journal.ts). */
export interface JournalEntry extends ProcessRef {
  readonly v: 2;
  /** The Pulumi engine's processes above the owner (the shim's shell, the CLI): its create returned to no one when they are gone. */
  readonly engine: readonly ProcessRef[];
  /** When the intent was first journaled (epoch ms, this machine's clock); kept across takeovers. */
  readonly startedAt: number;
  /** The fields that identify what is made (the name too, when the program chose it). */
  readonly identity: Readonly<Record<string, string>>;
  /** The name the create sends, when the resource has one. */
  readonly name?: string;
  /** True when `name` is the resource's own (autonamed): a resource of exactly that name is what the create made. */
  readonly autonamed?: boolean;
  /** Look-alikes that existed before the create was sent (when neither a unique name nor a creation time tells what is new). */
  readonly before?: readonly string[];
  /** The id the API answered with. */
  readonly id?: string;
  /** The create returned, but its engine was gone: the answer reached no one. */
  readonly unrecorded?: boolean;
  /** Why the create's outcome is unknown, when it failed in a way that may have made the resource. */
  readonly unsettled?: string;
  /**
   * The latest its request can have ended (epoch ms, this machine's clock): the create's
   * deadline (its `timeouts.create`, past which no request is sent) plus the longest one
   * request lasts. A list read started `listLag` after it proves what the create made.
   */
  readonly endsBy?: number;
  /** When the client stopped waiting for the answer of its request, once that answer was lost (epoch ms, this machine's clock). */
  readonly endedAt?: number;
  /** How many times a create or takeover of this intent was interrupted. */
  readonly interruptions?: number;
}

/** What the file of an intent holds. */
export type StoredEntry =
  | { readonly kind: "none" }
  | { readonly kind: "entry"; readonly entry: JournalEntry; readonly legacy: boolean }
  /** A file that exists but cannot be read as an entry (`null`, torn, foreign): its intent is unknown, not absent. */
  | { readonly kind: "unreadable"; readonly why: string };

/** Where the journal (and the learned transition durations) live: `CLOUDDB_JOURNAL_DIR`, else a per-user temp dir. */
export function journalDir(): string {
  const uid = typeof process.getuid === "function" ? process.getuid() : "user";
  return process.env.CLOUDDB_JOURNAL_DIR || path.join(os.tmpdir(), `clouddb-pending-creates-${uid}`);
}

/** Whether the journal's directory can be used, per directory (checked once per process). */
const usable = new Map<string, { readonly ok: true } | { readonly ok: false; readonly why: string }>();
let warned = false;

/**
 * Makes sure `dir` exists and is this user's alone: created 0700, or tightened to 0700 when
 * it lets others in; refused when it is a symbolic link, not a directory, or another user's.
 * @returns why it cannot be used, or undefined when it can.
 */
function privateDirProblem(dir: string): string | undefined {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
    const st = fs.lstatSync(dir);
    if (st.isSymbolicLink()) return "it is a symbolic link, which another user could point elsewhere";
    if (!st.isDirectory()) return "it is not a directory";
    const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
    if (uid !== undefined && st.uid !== uid) return `it belongs to another user (uid ${st.uid}), who could read or change its entries`;
    if ((st.mode & 0o077) !== 0) fs.chmodSync(dir, PRIVATE_DIR);
    return undefined;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code ?? (e as Error).message;
  }
}

/**
 * The journal's directory when it can be used (see {@link privateDirProblem}); otherwise
 * undefined, after telling the user once per process, as a warning (framework/userLog.ts), what
 * that means.
 */
export function usableJournalDir(): string | undefined {
  const dir = journalDir();
  let state = usable.get(dir);
  if (state === undefined) {
    const why = privateDirProblem(dir);
    state = why === undefined ? { ok: true } : { ok: false, why };
    usable.set(dir, state);
  }
  if (state.ok) return dir;
  journalUnavailable(dir, state.why);
  return undefined;
}

/**
 * Where the processes of this user share what they learn of an API key's rate limit (the
 * client's `pacingDir`: provider/client/sharedSchedule.ts): `pacing/` in the journal's
 * directory; undefined when that cannot be used.
 */
export function pacingDir(): string | undefined {
  const dir = usableJournalDir();
  return dir === undefined ? undefined : path.join(dir, "pacing");
}

/** Tells the user, once per process, that the journal cannot be kept in `dir`, and why. */
export function journalUnavailable(dir: string, why: string): void {
  if (warned) return;
  warned = true;
  warnUser(
    `the journal of creates in flight cannot be kept in ${dir} (${why}). Creates go on, and an answer lost on the way ` +
      "is still recovered within this run, but a create interrupted now (the provider process or the Pulumi CLI killed) cannot be " +
      "recognised by the next `pulumi up`, which may then make a second resource. Set CLOUDDB_JOURNAL_DIR to a directory of your own.",
  );
}

/** The file in `dir` of the entry keyed by `key` (the hash of its JSON names it). */
function fileOfKey(dir: string, key: unknown[]): string {
  return path.join(dir, `${createHash("sha256").update(JSON.stringify(key)).digest("hex").slice(0, 40)}.json`);
}

/** The file of the intent of `owner`'s create of `kind` in `projectId` at `apiUrl`. */
export function entryFile(dir: string, apiUrl: string, projectId: string, kind: string, owner: string): string {
  return fileOfKey(dir, ["v2", apiUrl, projectId, kind, owner]);
}

/** Where version 0.1 kept the entry of the same intent (its name was part of the key). */
export function legacyEntryFile(
  dir: string,
  apiUrl: string,
  projectId: string,
  kind: string,
  owner: string,
  identity: Readonly<Record<string, string>>,
): string {
  const sorted = Object.entries(identity).sort(([a], [b]) => a.localeCompare(b));
  return fileOfKey(dir, [apiUrl, projectId, kind, owner, sorted]);
}

function isProcessRef(value: unknown): value is ProcessRef {
  return value !== null && typeof value === "object" && Number.isInteger((value as ProcessRef).pid);
}

/** An entry of version 0.1 (`{pid, engine: [pids], startedAt, before?, id?, unrecorded?}`) in this version's shape. */
function fromLegacy(raw: Record<string, unknown>, identity: Readonly<Record<string, string>>): JournalEntry | undefined {
  if (!Number.isInteger(raw.pid) || typeof raw.startedAt !== "number") return undefined;
  const engine = Array.isArray(raw.engine) ? raw.engine.filter(Number.isInteger).map((pid) => ({ pid: pid as number })) : [];
  return {
    v: 2,
    pid: raw.pid as number,
    engine,
    startedAt: raw.startedAt,
    identity,
    ...(identity.name === undefined ? {} : { name: identity.name }),
    ...(Array.isArray(raw.before) ? { before: raw.before.map(String) } : {}),
    ...(typeof raw.id === "string" ? { id: raw.id } : {}),
    ...(raw.unrecorded === true ? { unrecorded: true } : {}),
  };
}

/** What a read of an entry's file gave: its text, or the error. */
type ReadOutcome = { readonly text: string } | { readonly error: NodeJS.ErrnoException };

/** Reads `file` as an entry; `identity` reads a version 0.1 entry (which did not record it). Never throws. */
export function readEntry(file: string, legacyIdentity?: Readonly<Record<string, string>>): StoredEntry {
  let read: ReadOutcome;
  try {
    read = { text: fs.readFileSync(file, "utf8") };
  } catch (e) {
    read = { error: e as NodeJS.ErrnoException };
  }
  return entryOf(read, legacyIdentity);
}

/** {@link readEntry} off the event loop. Never rejects. */
export async function readEntryAsync(file: string, legacyIdentity?: Readonly<Record<string, string>>): Promise<StoredEntry> {
  let read: ReadOutcome;
  try {
    read = { text: await fs.promises.readFile(file, "utf8") };
  } catch (e) {
    read = { error: e as NodeJS.ErrnoException };
  }
  return entryOf(read, legacyIdentity);
}

/** What a read of an entry's file says. */
function entryOf(read: ReadOutcome, legacyIdentity: Readonly<Record<string, string>> | undefined): StoredEntry {
  if ("error" in read) return read.error.code === "ENOENT" ? { kind: "none" } : { kind: "unreadable", why: read.error.message };
  const text = read.text;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { kind: "unreadable", why: `it is not JSON (${text.length} bytes)` };
  }
  if (raw === null || typeof raw !== "object" || Array.isArray(raw))
    return { kind: "unreadable", why: `it holds ${JSON.stringify(raw)?.slice(0, 40)}` };
  const obj = raw as Record<string, unknown>;
  if (obj.v === 2) {
    const ok =
      Number.isInteger(obj.pid) &&
      typeof obj.startedAt === "number" &&
      Array.isArray(obj.engine) &&
      obj.engine.every(isProcessRef) &&
      obj.identity !== null &&
      typeof obj.identity === "object";
    return ok ? { kind: "entry", entry: obj as unknown as JournalEntry, legacy: false } : { kind: "unreadable", why: "fields are missing" };
  }
  const legacy = legacyIdentity === undefined ? undefined : fromLegacy(obj, legacyIdentity);
  return legacy === undefined
    ? { kind: "unreadable", why: "it is not an entry this version can read" }
    : { kind: "entry", entry: legacy, legacy: true };
}

let written = 0;

/** A name for a new file that will replace `file`: this process's own, never used twice (no random source needed). */
export function newFileFor(file: string): string {
  return `${file}.${process.pid}.${++written}.tmp`;
}

/**
 * The file of one entry, written off the event loop: each {@link EntryFile.write} whole (a
 * new file renamed over the old one), owner-only, one at a time in the order asked; and
 * {@link EntryFile.remove} at once (synchronous, two unlinks) and for good: a write still
 * under way can never bring the file back (it is renamed into place only while the entry
 * stands, and its new file is removed with the entry).
 */
export class EntryFile {
  private queue: Promise<void> = Promise.resolve();
  /** The new file of the write under way, until it is renamed into place. */
  private pending: string | undefined;
  private removed = false;

  /** @param path - the entry's file. */
  constructor(readonly path: string) {}

  /** Writes `entry` once the writes asked before have ended. @throws (rejects) the file system's error; nothing is written after `remove`. */
  write(entry: JournalEntry): Promise<void> {
    const written = this.queue.then(() => this.writeNow(entry));
    this.queue = written.catch(() => undefined);
    return written;
  }

  private async writeNow(entry: JournalEntry): Promise<void> {
    if (this.removed) return;
    const tmp = newFileFor(this.path);
    this.pending = tmp;
    try {
      await fs.promises.writeFile(tmp, JSON.stringify(entry), { mode: PRIVATE_FILE });
      if (this.removed) return;
      await fs.promises.rename(tmp, this.path);
    } catch (e) {
      if (!this.removed) throw e;
    } finally {
      this.pending = undefined;
      if (this.removed) await fs.promises.rm(tmp, { force: true });
    }
  }

  /** Removes the entry now, and every write under way or asked for with it. Never throws. */
  remove(): void {
    this.removed = true;
    // The new file first: a rename still to come then fails, and one already done is removed next.
    if (this.pending !== undefined) removeEntry(this.pending);
    removeEntry(this.path);
  }
}

/** Removes `file`; one already gone is fine. Never throws. */
export function removeEntry(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch {
    // already gone
  }
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

let bootIdCache: string | undefined | null = null;

function bootId(): string | undefined {
  if (bootIdCache === null) {
    try {
      bootIdCache = fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    } catch {
      bootIdCache = undefined;
    }
  }
  return bootIdCache;
}

let selfRef: ProcessRef | undefined;

/** This process, read once. */
export function thisProcess(): ProcessRef {
  selfRef ??= processRef(process.pid);
  return selfRef;
}

/** Process `pid` as it is now: its id, start time and boot (the last two where /proc tells them). */
export function processRef(pid: number): ProcessRef {
  const startTime = procStat(pid)?.[19];
  const boot = bootId();
  return { pid, ...(startTime === undefined ? {} : { startTime }), ...(boot === undefined ? {} : { bootId: boot }) };
}

/**
 * True while the process `ref` names runs: its id is alive, not a zombie, and, where it was
 * recorded, it is the same process (same start time, same boot), not a later one that got
 * the same id (a container restarted with a cached journal directory).
 */
export function isRunning(ref: ProcessRef): boolean {
  try {
    process.kill(ref.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const stat = procStat(ref.pid);
  if (stat?.[0] === "Z") return false;
  if (ref.bootId !== undefined && bootId() !== undefined && ref.bootId !== bootId()) return false;
  return ref.startTime === undefined || stat === undefined || stat[19] === ref.startTime;
}

/** The parent of process `pid`, or undefined when it cannot be told. */
function parentOf(pid: number): number | undefined {
  const ppid = Number(procStat(pid)?.[1]);
  return Number.isInteger(ppid) && ppid > 1 ? ppid : undefined;
}

let engineRefs: readonly ProcessRef[] | undefined;

/**
 * The processes of the Pulumi engine above this provider process: its parent (the CLI, or
 * the `pulumi-resource-pulumi-nodejs` shell script the CLI runs) and that one's parent. On
 * systems without /proc, only the parent. Read once: the engine that started this process
 * (were it to die, this process would be given another parent, which is not its engine).
 */
export function engineProcesses(): readonly ProcessRef[] {
  if (engineRefs === undefined) {
    const parent = process.ppid;
    const grandparent = parentOf(parent);
    engineRefs = (grandparent === undefined ? [parent] : [parent, grandparent]).map(processRef);
  }
  return engineRefs;
}
