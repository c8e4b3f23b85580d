/**
 * Temporary directories of the fleet (the whole cluster root without a data dir, and the
 * administration sockets) under the system's temporary directory. Each holds the
 * emulator's pid in `owner.pid`; an emulator that dies without cleaning up (`kill -9`)
 * leaves them behind, and the next fleet to open removes those whose owner is gone.
 */
import { mkdtempSync, promises as fs, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** Name prefix of a temporary cluster root. */
export const ROOT_PREFIX = "clouddb-emulator-pg-";
/** Name prefix of a socket directory (short: Unix socket paths are limited to ~100 bytes). */
export const SOCKET_PREFIX = "cdbpg-";
const OWNER_FILE = "owner.pid";

/** A new temporary directory named `<prefix>XXXXXX`, marked as this process's. */
export function makeScratchDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  writeFileSync(path.join(dir, OWNER_FILE), `${process.pid}\n`, { mode: 0o644 });
  return dir;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes the scratch directories whose owning process no longer runs (best effort). */
export async function sweepScratchDirs(): Promise<void> {
  let names: string[];
  try {
    names = readdirSync(tmpdir()).filter((n) => n.startsWith(ROOT_PREFIX) || n.startsWith(SOCKET_PREFIX));
  } catch {
    return;
  }
  for (const name of names) {
    const dir = path.join(tmpdir(), name);
    try {
      const pid = Number((await fs.readFile(path.join(dir, OWNER_FILE), "utf8")).trim());
      if (Number.isInteger(pid) && pid > 0 && !alive(pid)) await fs.rm(dir, { recursive: true, force: true });
    } catch {
      // not ours, unreadable or already gone: leave it
    }
  }
}
