/**
 * Where the clients of one API key on one machine keep their shared schedule (keySchedule.ts):
 * one small file per API URL and key in a private directory of this user's (the providers
 * give theirs, beside the create journal), named by a hash of the URL and of a hash of the
 * key, and holding neither (only rates, times, and client names made of a process id and a
 * random part: a client whose process has ended no longer counts as sharing the key, and the
 * turns it was given are not waited for). Each change is made
 * under a lock (a file created exclusively beside it, naming its process), read whole, and
 * written over in place, framed by one mark first and last, so that a reader that takes no
 * lock tells a file being written from a whole one, and counts it as none: a new file renamed
 * over the old one would cost a file made and one removed at every request (on ext4, a sixth
 * to a quarter of the plugin's main thread in a destroy of 300 services). A lock
 * whose process is gone, or that is older than any change takes (a process stopped while it
 * held it), is broken; two changes made at once after that lose one of them, which costs a
 * slot at most. A file that cannot be read as a schedule (torn by a crash of another writer,
 * of another version, a day old) counts as none. Everything is best effort: when the directory
 * or the lock cannot be had, the client paces alone, as without one.
 */
import { createHash, randomBytes } from "crypto";
import * as fs from "fs";
import * as path from "path";
import { forgetGone, type KeySchedule, newSchedule } from "./schedule";
import { readSchedule } from "./scheduleReading";

/** How long a change may wait for the lock before the client paces alone for that turn. */
const LOCK_WAIT_MS = 1_000;
/** A lock older than this is broken: no change holds it for that long unless its process stopped. */
const LOCK_STALE_MS = 2_000;

/** True while the process `pid` runs (as far as this user can tell). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * True when `member` (a client name, see {@link SharedSchedule.member}) names a process of this
 * machine that has ended. A name of another form (an older version's) is never taken as ended.
 * Assumes the processes sharing the directory share a process id space, as the lock does.
 */
function processEnded(member: string): boolean {
  const pid = Number(/^(\d+)\./.exec(member)?.[1]);
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && !running(pid);
}

/**
 * Makes sure `dir` exists and is this user's alone (created 0700, tightened to it when it lets
 * others in); false when it cannot be, or is a symbolic link, or another user's.
 */
async function privateDir(dir: string): Promise<boolean> {
  try {
    await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
    const st = await fs.promises.lstat(dir);
    const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
    if (st.isSymbolicLink() || !st.isDirectory() || (uid !== undefined && st.uid !== uid)) return false;
    if ((st.mode & 0o077) !== 0) await fs.promises.chmod(dir, 0o700);
    return true;
  } catch {
    return false;
  }
}

/** The name of the new file that {@link writeWhole} writes before renaming it over `file`. */
function tmpBeside(file: string): string {
  return `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
}

/**
 * Writes `text` to `file` whole (a new file, this user's alone, renamed over it), so that a
 * reader never sees a torn one; the new file is removed when that fails. @throws when it does
 */
export async function writeWhole(file: string, text: string): Promise<void> {
  const tmp = tmpBeside(file);
  try {
    await fs.promises.writeFile(tmp, text, { mode: 0o600 });
    await fs.promises.rename(tmp, file);
  } catch (e) {
    await fs.promises.rm(tmp, { force: true }).catch(() => undefined);
    throw e;
  }
}

/**
 * `schedule`'s text, framed: the same mark first and last ({@link framedWhole} reads it). Two
 * writes one after the other are told apart by their marks, drawn at random.
 */
function framed(schedule: KeySchedule): string {
  const mark = Math.floor(Math.random() * 2 ** 48);
  return JSON.stringify({ frame: mark, ...schedule, frameEnd: mark });
}

/**
 * True when `value` (a parsed file) was read whole: its marks first and last are the same, or it
 * has none (an earlier version's, which renamed a new file over the old). A file read while it
 * was written over shows the start of one write and the end of another.
 */
function framedWhole(value: unknown): boolean {
  if (value === null || typeof value !== "object") return false;
  const { frame, frameEnd } = value as { frame?: unknown; frameEnd?: unknown };
  return frame === frameEnd;
}

/**
 * Writes `text` over `file` in place (made this user's alone when missing), padded with spaces
 * to the file's length, so that no end of a longer text is left after it: for a change made
 * under the schedule's lock. @throws when it fails
 */
function overwriteSync(file: string, text: string): void {
  const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT, 0o600);
  try {
    const body = Buffer.from(text, "utf8");
    const length = Math.max(body.length, fs.fstatSync(fd).size);
    const bytes = body.length === length ? body : Buffer.concat([body, Buffer.alloc(length - body.length, 0x20)]);
    if (fs.writeSync(fd, bytes, 0, length, 0) !== length) throw new Error(`${file}: short write`);
  } finally {
    fs.closeSync(fd);
  }
}

/** The name of the schedule's files for `apiUrl` and `apiKey`: a hash of the URL and of the key's hash. */
export function scheduleName(apiUrl: string, apiKey: string): string {
  const keyHash = createHash("sha256").update(apiKey).digest("hex");
  return `pacing-${createHash("sha256").update(`${apiUrl}\n${keyHash}`).digest("hex").slice(0, 24)}`;
}

/** The file of one key's shared schedule (see the module comment). */
export class SharedSchedule {
  /**
   * This client's name in the schedule: its process's id and a random part (a process may hold
   * several clients). Only the process id is told: the file is this user's alone, as the lock
   * beside it, which names the process too.
   */
  readonly member = `${process.pid}.${randomBytes(6).toString("hex")}`;
  /** The name of the key's files (see {@link scheduleName}). */
  readonly name: string;
  private readonly file: string;
  private readonly lock: string;
  private usable: Promise<boolean> | undefined;
  private lockBusy = false;

  /**
   * True when the last {@link SharedSchedule.update} failed only because other clients held
   * the lock all the while (many processes on few cores): worth trying again, unlike a
   * directory or file that cannot be used.
   */
  get busy(): boolean {
    return this.lockBusy;
  }

  /**
   * @param dir - a private directory of this user's (made 0700 when missing).
   * @param apiUrl - the API's base URL.
   * @param apiKey - the key (only a hash of its hash names the file).
   * @param now - the clock, epoch ms.
   */
  constructor(
    private readonly dir: string,
    apiUrl: string,
    apiKey: string,
    private readonly now: () => number = Date.now,
  ) {
    this.name = scheduleName(apiUrl, apiKey);
    this.file = path.join(dir, `${this.name}.json`);
    this.lock = path.join(dir, `${this.name}.lock`);
  }

  /** Whether the directory can be used (made private when missing). Never rejects. */
  ready(): Promise<boolean> {
    this.usable ??= privateDir(this.dir);
    return this.usable;
  }

  /**
   * The schedule as its file holds it now (no lock taken), or undefined when there is none to
   * use; read a second time when the first read found none (it may have come while a change
   * was written: a few system calls). Never rejects.
   */
  async read(): Promise<KeySchedule | undefined> {
    if (!(await this.ready())) return undefined;
    return this.load(this.now()) ?? this.load(this.now());
  }

  /**
   * The schedule its file holds, read at `now`, or undefined when it holds none that can be used.
   * Never throws. Synchronous, as every step of a change under the lock: the file is a few
   * hundred bytes in a local directory, and one read or write through the thread pool costs the
   * process more than the system call itself (each client's request makes a change).
   */
  private load(now: number): KeySchedule | undefined {
    try {
      const text: unknown = JSON.parse(fs.readFileSync(this.file, "utf8"));
      const schedule = framedWhole(text) ? readSchedule(text, now) : undefined;
      if (schedule !== undefined) forgetGone(schedule, now, processEnded, this.member);
      return schedule;
    } catch {
      return undefined;
    }
  }

  /**
   * Applies `change` to the schedule (a new one when the file holds none) under the lock, and
   * writes it. Resolves with what `change` returned and the schedule written, or undefined
   * when the directory, the lock or the file could not be had (nothing changed). Never rejects.
   */
  async update<T>(change: (schedule: KeySchedule, now: number) => T): Promise<{ result: T; schedule: KeySchedule } | undefined> {
    this.lockBusy = false;
    if (!(await this.ready())) return undefined;
    const ino = await this.acquire();
    if (ino === undefined) return undefined;
    // From the lock taken to its release nothing waits: the lock is held for the system calls alone.
    try {
      const now = this.now();
      const schedule = this.load(now) ?? newSchedule(now);
      const result = change(schedule, now);
      overwriteSync(this.file, framed(schedule));
      return { result, schedule };
    } catch {
      return undefined;
    } finally {
      this.release(ino);
    }
  }

  /** Takes the lock: the inode of the lock file made, or undefined when it could not be had in time. */
  private async acquire(): Promise<number | undefined> {
    const until = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      const ino = this.tryLock();
      if (ino !== "held") return ino;
      this.breakIfStale();
      if (Date.now() > until) {
        this.lockBusy = true;
        return undefined;
      }
      // Spread out: with tens of processes on two cores, tight retries only take the lock holder's CPU.
      await new Promise((resolve) => setTimeout(resolve, 2 + Math.random() * 18));
    }
  }

  /** One try at the lock: the inode of the lock file made, `held` when another client holds it, undefined when it cannot be made. */
  private tryLock(): number | "held" | undefined {
    let fd: number;
    try {
      fd = fs.openSync(this.lock, "wx", 0o600);
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === "EEXIST" ? "held" : undefined;
    }
    try {
      fs.writeSync(fd, String(process.pid));
      return fs.fstatSync(fd).ino;
    } catch {
      return undefined;
    } finally {
      fs.closeSync(fd);
    }
  }

  /** Breaks a lock whose process is gone, or that is older than any change takes. */
  private breakIfStale(): void {
    try {
      const st = fs.statSync(this.lock);
      const pid = Number(fs.readFileSync(this.lock, "utf8"));
      const stale = Date.now() - st.ctimeMs > LOCK_STALE_MS || (Number.isInteger(pid) && pid > 0 && !running(pid));
      if (!stale) return;
      const moved = `${this.lock}.${process.pid}.${randomBytes(4).toString("hex")}.stale`;
      fs.renameSync(this.lock, moved);
      fs.rmSync(moved, { force: true });
    } catch {
      // gone meanwhile, or being written: try again
    }
  }

  /** Removes the lock, when it is still the one this client made (`ino`). */
  private release(ino: number): void {
    try {
      if (fs.statSync(this.lock).ino === ino) fs.rmSync(this.lock, { force: true });
    } catch {
      // broken by another client meanwhile
    }
  }
}
