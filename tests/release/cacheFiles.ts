/**
 * What the release tests of the loader's code cache read of a cache folder: its files with a
 * digest of each, and a wait for a number of them (the loader writes its caches a moment after
 * the first call about a resource is answered, or as the plugin exits).
 */
import { createHash } from "crypto";
import * as fs from "fs";
import * as path from "path";

/** The names of the caches in `dir`, sorted (none if it is missing): the loader's temporary files (`.<name>.<pid>.tmp`, renamed once whole) left out. */
export function cacheNames(dir: string): string[] {
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => !f.startsWith("."))
        .sort()
    : [];
}

/** The caches in `dir` (see {@link cacheNames}), with a digest of each. */
export function cacheFiles(dir: string): Record<string, string> {
  return Object.fromEntries(
    cacheNames(dir).map((f) => [
      f,
      createHash("sha256")
        .update(fs.readFileSync(path.join(dir, f)))
        .digest("hex"),
    ]),
  );
}

/** Waits up to 10 s for `dir` to hold `count` whole caches (the bundle's, the provider's and zod's parts', by default); them. */
export async function written(dir: string, count = 3): Promise<Record<string, string>> {
  for (let i = 0; i < 100 && cacheNames(dir).length < count; i++) await new Promise((r) => setTimeout(r, 100));
  return cacheFiles(dir);
}
