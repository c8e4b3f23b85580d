/**
 * Interrupted service creates. When the provider process dies after the API accepted a
 * create but before Pulumi recorded the result (plugin killed, machine lost, Ctrl-C twice),
 * the service exists but no state names it, and the next `pulumi up` would create a
 * second one. Names are not unique in the API, so "a service with this name exists" proves
 * nothing: it may be another stack's, or the old half of a `--replace`.
 *
 * So the provider keeps a journal on this machine: before it sends a create it writes an
 * entry (project, name, type, region, API endpoint hash, start time, its process id and
 * those of the Pulumi engine above it), adds the service id as soon as the API answers,
 * and removes the entry when `create` returns to a live engine (the id is then in Pulumi's
 * hands). An entry whose process is no longer alive is an interrupted create; so is one
 * whose create returned after the engine had died (the CLI killed while the provider
 * process, left on its own, finished the create: nobody recorded the answer). The next create with the same project, name, type and region claims
 * it and takes over exactly the service it recorded (or, if the process died before the
 * answer, the service the list shows with that name, type and region created within
 * {@link ANSWER_WINDOW_MS} of the entry), instead of creating another. Nothing else is ever
 * taken over. The entry holds no secret.
 *
 * The journal lives in `CLOUDDB_JOURNAL_DIR`, else `<tmpdir>/clouddb-pending-creates-<uid>`,
 * and entries older than {@link MAX_AGE_MS} are ignored. On another machine (CI runners),
 * the journal is not there: the create proceeds as usual, and the message Pulumi shows for
 * the pending create (`pulumi refresh --clear-pending-creates`) plus `adoptId` recover it.
 */
import { createHash, randomBytes } from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { NotFoundError, type ClouddbClient, type Service } from "../client";

/** Entries older than this are ignored (and removed). */
export const MAX_AGE_MS = 24 * 60 * 60_000;
/** Without a recorded id, only a service created this soon after the entry is taken over. */
export const ANSWER_WINDOW_MS = 2 * 60_000;
/** Tolerated clock difference between this machine and the API. */
const SKEW_MS = 10_000;

/** What identifies a create. */
export interface CreateIntent {
  apiUrl: string;
  projectId: string;
  name: string;
  serviceType: string;
  regionCode: string;
}

interface Entry {
  key: string;
  pid: number;
  /** The Pulumi engine's processes above this one (the shim's shell, the CLI). */
  engine?: number[];
  startedAt: number;
  projectId: string;
  name: string;
  serviceId?: string;
  /** The create returned, but its engine was gone: the answer reached no one. */
  unrecorded?: boolean;
}

function journalDir(): string {
  const uid = typeof process.getuid === "function" ? process.getuid() : "user";
  return process.env.CLOUDDB_JOURNAL_DIR || path.join(os.tmpdir(), `clouddb-pending-creates-${uid}`);
}

function keyOf(intent: CreateIntent): string {
  const text = JSON.stringify([intent.apiUrl, intent.projectId, intent.name, intent.serviceType, intent.regionCode]);
  return createHash("sha256").update(text).digest("hex").slice(0, 32);
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

function writeAtomically(file: string, entry: Entry): void {
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

/** The journal entry of one create in flight. */
export class PendingCreate {
  private constructor(
    private readonly file: string | undefined,
    private readonly entry: Entry,
  ) {}

  /** Records that a create is about to be sent. Never throws (a journal that cannot be written is skipped). */
  static begin(intent: CreateIntent): PendingCreate {
    const key = keyOf(intent);
    const entry: Entry = {
      key,
      pid: process.pid,
      engine: engineProcesses(),
      startedAt: Date.now(),
      projectId: intent.projectId,
      name: intent.name,
    };
    let file: string | undefined = path.join(journalDir(), `${key}.${process.pid}.${randomBytes(6).toString("hex")}.json`);
    try {
      fs.mkdirSync(journalDir(), { recursive: true, mode: 0o700 });
      writeAtomically(file, entry);
    } catch {
      file = undefined;
    }
    return new PendingCreate(file, entry);
  }

  /** Records the id the API answered with. Never throws. */
  made(serviceId: string): void {
    this.entry.serviceId = serviceId;
    if (this.file === undefined) return;
    try {
      writeAtomically(this.file, this.entry);
    } catch {
      // the entry without id still leads to the service through the list
    }
  }

  /** The create made nothing: drops the entry. */
  end(): void {
    if (this.file !== undefined) remove(this.file);
  }

  /**
   * The create has returned: its id is Pulumi's now, and the entry goes, unless the engine
   * died meanwhile; then the entry stays, marked, for the next create to take the service over.
   */
  returned(): void {
    if ((this.entry.engine ?? []).every(alive)) {
      this.end();
      return;
    }
    this.entry.unrecorded = true;
    if (this.file === undefined) return;
    try {
      writeAtomically(this.file, this.entry);
    } catch {
      // the entry without the mark is claimed once this process is gone
    }
  }
}

/** Entries of dead processes for `intent`, newest first, each claimed (renamed) by this process. */
function claimOrphans(intent: CreateIntent): Array<{ entry: Entry; file: string }> {
  const key = keyOf(intent);
  let names: string[];
  try {
    names = fs.readdirSync(journalDir());
  } catch {
    return [];
  }
  const claimed: Array<{ entry: Entry; file: string }> = [];
  for (const name of names) {
    if (!name.startsWith(`${key}.`) || !name.endsWith(".json")) continue;
    const file = path.join(journalDir(), name);
    let entry: Entry;
    try {
      entry = JSON.parse(fs.readFileSync(file, "utf8")) as Entry;
    } catch {
      continue;
    }
    if (entry.key !== key) continue;
    if (Date.now() - entry.startedAt > MAX_AGE_MS) {
      remove(file);
      continue;
    }
    if (alive(entry.pid) && !entry.unrecorded) continue; // a create still running (in this process or another)
    const mine = `${file}.claimed-${process.pid}`;
    try {
      fs.renameSync(file, mine); // only one process wins the rename
    } catch {
      continue;
    }
    claimed.push({ entry, file: mine });
  }
  return claimed.sort((a, b) => b.entry.startedAt - a.entry.startedAt);
}

const GONE = new Set(["DELETING", "DELETED"]);

/**
 * The service an interrupted create of `intent` made, if this machine's journal recorded
 * one and it still exists; undefined otherwise. The entries it looked at are removed.
 */
export async function findInterruptedCreate(api: ClouddbClient, intent: CreateIntent): Promise<Service | undefined> {
  const orphans = claimOrphans(intent);
  const opts = { projectId: intent.projectId };
  let examined = 0;
  let failed = false;
  try {
    for (const { entry } of orphans) {
      examined++;
      if (entry.serviceId !== undefined) {
        try {
          const s = await api.getService(entry.serviceId, { ...opts, fresh: true });
          if (!GONE.has(s.status)) return s;
        } catch (e) {
          if (!NotFoundError.isInstance(e)) throw e;
        }
        continue;
      }
      const candidates = (await api.listServices(opts)).filter((s) => {
        const created = Date.parse(s.created);
        return (
          s.name === intent.name &&
          s.service_type === intent.serviceType &&
          s.region_code === intent.regionCode &&
          !GONE.has(s.status) &&
          created >= entry.startedAt - SKEW_MS &&
          created <= entry.startedAt + ANSWER_WINDOW_MS
        );
      });
      // Two candidates: something else made one with the same name too; take neither.
      if (candidates.length === 1) return candidates[0];
    }
    return undefined;
  } catch (e) {
    failed = true;
    throw e;
  } finally {
    // Entries looked at are done with; the rest (and all of them if the lookup failed) go back.
    orphans.forEach(({ file }, i) => {
      if (failed || i >= examined) {
        try {
          fs.renameSync(file, file.replace(/\.claimed-\d+$/, ""));
        } catch {
          // ignore
        }
      } else {
        remove(file);
      }
    });
  }
}

const inFlight = new Map<string, PendingCreate>();

/**
 * Creates a service at most once per intent across interrupted provider processes: takes
 * over the service an interrupted create made (see the module comment), else journals and
 * runs `send`. Call {@link createSettled} with the id once `create` returns or throws.
 */
export async function createServiceOnce(
  api: ClouddbClient,
  intent: CreateIntent,
  send: () => Promise<Service>,
): Promise<Service> {
  const found = await findInterruptedCreate(api, intent);
  if (found !== undefined) {
    console.error(
      `clouddb: service ${found.service_id} (${JSON.stringify(intent.name)}) was made by an earlier create that did not finish ` +
        `(its provider process stopped); taking it over instead of creating another, with a new password unless the program sets one`,
    );
    return found;
  }
  const pending = PendingCreate.begin(intent);
  let made: Service;
  try {
    made = await send();
  } catch (e) {
    pending.end();
    throw e;
  }
  pending.made(made.service_id);
  inFlight.set(made.service_id, pending);
  return made;
}

/** The create of `serviceId` has returned (with the id): its journal entry goes, unless Pulumi's engine is gone. */
export function createSettled(serviceId: string): void {
  inFlight.get(serviceId)?.returned();
  inFlight.delete(serviceId);
}
