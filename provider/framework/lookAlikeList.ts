/**
 * The list the look-alikes there before a create are read from (journal.ts records their ids
 * in the create's entry: what a later recovery can prove old). For a kind that may share it
 * ({@link Recovery.sharedList}), a list read up to {@link lookAlikeListMaxAgeMs} before the
 * create serves it: one this process read (so that ten creates in a project of 2,000 services
 * read its list once, not each), or one another process of the key on this machine read and
 * left in the pacing directory (so that a fleet of 50 stacks starting over several seconds reads
 * it once or twice, not 50 times).
 *
 * Why an older list is safe: its request was sent before this create's (its answer is in hand
 * before the entry is written), so every id it shows was there before the create; it only
 * misses what was made between it and the create, which a later recovery then counts as "maybe
 * new". For these kinds, what a recovery takes over it proves by the id the create's answer
 * named or by the name unique to the create, never by absence from this list; absence from it
 * only ever makes a recovery stop and name the candidates (interruptedCreates.ts), and a
 * recovery that proves the create made none finds no "maybe new" look-alike, which an older
 * list can only make rarer. Peerings, told apart by this list alone, never share it.
 */
import { ConfigurationError } from "../client/errors";
import { numberProblem } from "../client/config";
import type { CreateIntent } from "./createIntent";
import type { Listed, Recovery } from "./interruptedCreates";

/** The variable that sets {@link lookAlikeListMaxAgeMs}. */
export const LOOKALIKE_LIST_ENV = "CLOUDDB_LOOKALIKE_LIST_MS";

/** The default of {@link lookAlikeListMaxAgeMs}: a minute. */
export const DEFAULT_LOOKALIKE_LIST_MS = 60_000;

/**
 * How old a list of a project's services (or a service's replica sets) may be, in ms, for it
 * to serve as the look-alikes before a create: `CLOUDDB_LOOKALIKE_LIST_MS`, else a minute; 0
 * reads a list for each create (of this process's creates made at once, one). A longer age
 * downloads less, and makes a look-alike made meanwhile by another stack "maybe new" for a
 * recovery of a lost create whose name the program chose (it then stops, naming it, rather than
 * create a second one: contract/README.md, "The look-alikes before a create").
 *
 * @throws ConfigurationError naming the variable, its value and what is allowed, when it is not a number of 0 or more.
 */
export function lookAlikeListMaxAgeMs(env: NodeJS.ProcessEnv = process.env): number {
  const text = env[LOOKALIKE_LIST_ENV];
  if (text === undefined || text.trim() === "") return DEFAULT_LOOKALIKE_LIST_MS;
  const problem = numberProblem(text, 0);
  if (problem !== undefined) {
    throw new ConfigurationError(
      `Invalid ${LOOKALIKE_LIST_ENV}: ${problem} (milliseconds a shared list of look-alikes may be old).`,
      LOOKALIKE_LIST_ENV,
    );
  }
  return Number(text.trim());
}

/** The reads of shared lists this process made, by endpoint, project and list: each serves the creates after it while it is young enough. */
const reads = new Map<string, { readonly startedAt: number; readonly listed: Promise<Listed<unknown>> }>();

/**
 * The list the look-alikes there before the create of `intent` are read from (see the module
 * comment): for a kind that may share it, a read this process started less than
 * {@link lookAlikeListMaxAgeMs} ago, else one the machine's clients read within that
 * (`recovery.list` is told the age), else a read now; for other kinds, a read now.
 */
export function listedBefore<T>(intent: CreateIntent, recovery: Recovery<T>): Promise<Listed<T>> {
  if (recovery.sharedList === undefined) return recovery.list();
  const maxAgeMs = lookAlikeListMaxAgeMs();
  if (maxAgeMs === 0) return recovery.list();
  const key = JSON.stringify([intent.apiUrl, intent.projectId, recovery.sharedList]);
  const now = Date.now();
  for (const [k, read] of reads) if (now - read.startedAt >= maxAgeMs) reads.delete(k);
  const recent = reads.get(key);
  if (recent !== undefined) return recent.listed as Promise<Listed<T>>;
  const listed = recovery.list({ sharedMaxAgeMs: maxAgeMs });
  reads.set(key, { startedAt: now, listed });
  listed.then(
    // Its age is its request's, which may be another process's, older than this read.
    (l) => {
      const read = reads.get(key);
      if (read?.listed === listed && l.sentAt !== undefined) reads.set(key, { startedAt: Math.min(read.startedAt, l.sentAt), listed });
    },
    () => {
      if (reads.get(key)?.listed === listed) reads.delete(key);
    },
  );
  return listed;
}
