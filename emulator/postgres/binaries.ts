/**
 * Finding the PostgreSQL server binaries (`initdb`, `postgres`, `psql`) and `openssl`:
 * Debian's `/usr/lib/postgresql/<version>/bin` (newest version first), then `PATH`.
 */
import { accessSync, constants, readdirSync } from "node:fs";
import path from "node:path";
import { PostgresError } from "./errors";

/** Absolute paths of the programs the hosting runs. */
export interface PostgresBinaries {
  /** Directory of `initdb` and `postgres`. */
  binDir: string;
  initdb: string;
  postgres: string;
  psql: string;
  openssl: string;
}

/** Where Debian's `postgresql` package puts the server binaries. */
const DEBIAN_ROOT = "/usr/lib/postgresql";

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (dir !== "" && executable(path.join(dir, name))) return path.join(dir, name);
  }
  return undefined;
}

function serverDirs(): string[] {
  let versions: string[];
  try {
    versions = readdirSync(DEBIAN_ROOT).filter((v) => /^\d+(\.\d+)?$/.test(v));
  } catch {
    versions = [];
  }
  const dirs = versions.sort((a, b) => Number(b) - Number(a)).map((v) => path.join(DEBIAN_ROOT, v, "bin"));
  const initdb = onPath("initdb");
  if (initdb !== undefined) dirs.push(path.dirname(initdb));
  return dirs;
}

/** The binaries, or `undefined` when no PostgreSQL server (or no `openssl`) is installed. */
export function findPostgresBinaries(): PostgresBinaries | undefined {
  const openssl = onPath("openssl");
  if (openssl === undefined) return undefined;
  for (const binDir of serverDirs()) {
    const initdb = path.join(binDir, "initdb");
    const postgres = path.join(binDir, "postgres");
    if (!executable(initdb) || !executable(postgres)) continue;
    const psql = executable(path.join(binDir, "psql")) ? path.join(binDir, "psql") : onPath("psql");
    if (psql !== undefined) return { binDir, initdb, postgres, psql, openssl };
  }
  return undefined;
}

/** The binaries. @throws PostgresError (`locate`) naming what to install */
export function locatePostgres(): PostgresBinaries {
  const found = findPostgresBinaries();
  if (found) return found;
  throw new PostgresError(
    "locate",
    `--postgres needs a PostgreSQL server (initdb, postgres, psql) and openssl; none found in ${DEBIAN_ROOT}/*/bin or PATH. ` +
      "On Debian: apt-get install postgresql openssl (see scripts/ci/install-postgres.sh)",
  );
}
