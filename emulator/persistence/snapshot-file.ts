/**
 * Durable storage of one JSON snapshot: each save writes a new file, fsyncs it, renames
 * it over the old one and fsyncs the directory, so a crash at any moment leaves either
 * the previous or the new snapshot, never a torn one. Saves are serialized and coalesced:
 * {@link SnapshotFile.save} resolves once a write that began after the call has finished.
 * The snapshot holds the services' passwords, so it is readable by its owner only (0600),
 * whatever the umask, and a snapshot left readable by an older version is tightened.
 */
import { promises as fs, readFileSync } from "node:fs";
import path from "node:path";
import { SNAPSHOT_VERSION, type Snapshot } from "./snapshot";

/** The mode of the snapshot: it holds passwords. */
const OWNER_ONLY = 0o600;

/** The snapshot file name inside the data directory. */
export const SNAPSHOT_FILE_NAME = "clouddb-emulator-state.json";

/** The data directory holds a snapshot the emulator cannot read. */
export class SnapshotFormatError extends Error {
  /** @param file - the file; @param reason - what is wrong. */
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`Cannot read emulator state ${file}: ${reason}`);
    this.name = "SnapshotFormatError";
  }
}

/** One snapshot file in a data directory. */
export class SnapshotFile {
  private readonly file: string;
  private readonly tempFile: string;
  private lastWrite: Promise<void> = Promise.resolve();
  private nextWrite: Promise<void> | undefined;

  /**
   * @param dataDir - the directory (created if missing).
   * @param capture - returns the snapshot to write, called when a write begins.
   */
  constructor(
    private readonly dataDir: string,
    private readonly capture: () => Snapshot,
  ) {
    this.file = path.join(dataDir, SNAPSHOT_FILE_NAME);
    this.tempFile = `${this.file}.tmp`;
  }

  /** Reads the snapshot, or `undefined` when there is none yet. @throws SnapshotFormatError */
  static load(dataDir: string): Snapshot | undefined {
    const file = path.join(dataDir, SNAPSHOT_FILE_NAME);
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new SnapshotFormatError(file, (error as Error).message);
    }
    const snapshot = parsed as Snapshot;
    if (typeof parsed !== "object" || parsed === null || snapshot.version !== SNAPSHOT_VERSION) {
      throw new SnapshotFormatError(file, `expected version ${SNAPSHOT_VERSION}`);
    }
    return snapshot;
  }

  /** Writes the current state durably; concurrent calls share writes. */
  save(): Promise<void> {
    if (this.nextWrite) return this.nextWrite;
    const write = this.lastWrite.then(() => {
      this.nextWrite = undefined;
      return this.writeNow(this.capture());
    });
    this.nextWrite = write;
    this.lastWrite = write.catch(() => undefined);
    return write;
  }

  /** Resolves when every write asked for so far has finished. */
  async drain(): Promise<void> {
    await this.lastWrite;
  }

  private async writeNow(snapshot: Snapshot): Promise<void> {
    await fs.mkdir(this.dataDir, { recursive: true });
    const handle = await fs.open(this.tempFile, "w", OWNER_ONLY);
    try {
      await handle.chmod(OWNER_ONLY);
      await handle.writeFile(JSON.stringify(snapshot));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(this.tempFile, this.file);
    const dir = await fs.open(this.dataDir, "r");
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }
}
