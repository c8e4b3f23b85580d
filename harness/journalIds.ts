/** What the create journal's entries say of the ids the API gave, for tests that wait on it. */
import * as fs from "fs";
import * as path from "path";
import { journalEntries } from "./cloud";

/**
 * The ids the entries of the create journal in `dir` record (an entry whose create has not
 * been answered records none). Entries are renamed into place whole; one removed while it is
 * read is skipped.
 */
export function journalIds(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const ids: string[] = [];
  for (const f of journalEntries(dir)) {
    try {
      const { id } = JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as { id?: string };
      if (id !== undefined) ids.push(id);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    }
  }
  return ids;
}
