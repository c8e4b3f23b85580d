/**
 * Who runs the PostgreSQL servers. `initdb` and `postgres` refuse to run as root, so an
 * emulator running as root runs them as the `postgres` system user (Debian's package
 * creates it), switching user in the spawned process itself (no `su`/`runuser`), and
 * hands that user the directories they use. Any other user runs them as itself.
 */
import { execFileSync } from "node:child_process";
import { promises as fs, statSync } from "node:fs";
import { userInfo } from "node:os";
import path from "node:path";
import { PostgresError } from "./errors";

/** The system user the servers run as. */
export interface ServerAccount {
  /** User name. */
  name: string;
  /** Set when the emulator must switch to this user (it runs as root); else undefined. */
  switchTo?: { uid: number; gid: number };
}

/** Name of the system user servers run as when the emulator is root. */
export const ROOT_SERVER_USER = "postgres";

function idOf(flag: "-u" | "-g", user: string): number {
  return Number(execFileSync("id", [flag, user], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim());
}

/** The account for this process. @throws PostgresError (`account`) when root and no `postgres` user exists */
export function serverAccount(): ServerAccount {
  const uid = process.getuid?.();
  if (uid !== 0) return { name: userInfo().username };
  try {
    return { name: ROOT_SERVER_USER, switchTo: { uid: idOf("-u", ROOT_SERVER_USER), gid: idOf("-g", ROOT_SERVER_USER) } };
  } catch {
    throw new PostgresError(
      "account",
      `PostgreSQL refuses to run as root and there is no "${ROOT_SERVER_USER}" system user to run it as ` +
        "(Debian's postgresql package creates it); run the emulator as another user, or install postgresql",
    );
  }
}

/** Gives `target` (a file or directory) to the account, when it is not this process's user. */
export async function handOver(account: ServerAccount, target: string): Promise<void> {
  if (account.switchTo) await fs.chown(target, account.switchTo.uid, account.switchTo.gid);
}

function canSearch(account: ServerAccount, dir: string): boolean {
  if (!account.switchTo) return true;
  const st = statSync(dir);
  if (st.mode & 0o001) return true;
  if (st.uid === account.switchTo.uid) return (st.mode & 0o100) !== 0;
  if (st.gid === account.switchTo.gid) return (st.mode & 0o010) !== 0;
  return false;
}

/**
 * Makes sure the account can reach `dir` (search permission on every ancestor). The
 * emulator's own directory `own` (its data dir or its temporary one) gets search
 * permission for others (`o+x`, not read) when it lacks it; any other ancestor the
 * account cannot search is an error naming it.
 * @throws PostgresError (`account`)
 */
export async function ensureReachable(account: ServerAccount, dir: string, own: string): Promise<void> {
  if (!account.switchTo) return;
  const target = path.resolve(dir);
  const ownDir = path.resolve(own);
  const ancestors: string[] = [];
  for (let d = path.dirname(target); ; d = path.dirname(d)) {
    ancestors.unshift(d);
    if (d === path.dirname(d)) break;
  }
  for (const d of ancestors) {
    if (canSearch(account, d)) continue;
    if (d === ownDir) {
      await fs.chmod(d, (statSync(d).mode & 0o7777) | 0o001);
      continue;
    }
    throw new PostgresError(
      "account",
      `PostgreSQL runs as the system user "${account.name}", who cannot reach ${target}: ${d} is not searchable for it. ` +
        "Use a data dir it can reach (e.g. under /tmp or /var/tmp), or make that directory searchable (chmod o+x)",
    );
  }
}
