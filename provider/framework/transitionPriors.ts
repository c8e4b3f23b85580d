/**
 * What the client learned of how long transitions take (`service:QUEUED->READY`: 10.4 s),
 * kept on this machine between provider processes: every `pulumi up` is a new process, and
 * the poll schedule spends its requests where readiness is likely only when it knows what
 * to expect (provider/client/pollSchedule.ts). One small file per API endpoint, beside the
 * create journal, holding the last measurements of each transition (not one value: the
 * prior is their median, as in the client, so one slow run does not become it); nothing
 * secret in it, readable by its owner only all the same. Best effort: a file that cannot be
 * read or written only means polling without a prior. Saved off the event loop, and only
 * when there is something new: the provider offers the client's measurements after every
 * operation (a refresh of 1,000 resources offered them 1,000 times), and one write at a
 * time carries the newest. The operation that offered them waits for that write before it
 * returns (other operations go on meanwhile): the engine ends the plugin with a signal once
 * the deployment is done, and a write still under way then would be lost.
 */
import { createHash } from "crypto";
import * as fs from "fs";
import * as path from "path";
import { journalDir, newFileFor, usableJournalDir } from "./journalStore";

function fileFor(apiUrl: string): string {
  return path.join(journalDir(), `durations-${createHash("sha256").update(apiUrl).digest("hex").slice(0, 16)}.json`);
}

/** A measurement: a positive, finite number of ms. */
function isMs(v: unknown): v is number {
  return typeof v === "number" && Number.isFinite(v) && v > 0;
}

/**
 * The measurements saved for the first of an endpoint's `spellings` that has them (ms by
 * transition, oldest first; a file of 0.1 holds one value each), or none. Never throws. The
 * spellings are settings.ts `endpointSpellings`: its one form, then the text as given (what
 * earlier versions named the file by).
 */
export function loadPriors(...spellings: string[]): Record<string, number[]> {
  for (const url of spellings) {
    try {
      return loadedFrom(fs.readFileSync(fileFor(url), "utf8"));
    } catch {
      // none for this one
    }
  }
  return {};
}

/** The measurements in a priors file's text; none when it cannot be read. Never throws. */
function loadedFrom(text: string): Record<string, number[]> {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed === null || typeof parsed !== "object") return {};
    const entries = Object.entries(parsed).map(([k, v]): [string, number[]] => [k, (Array.isArray(v) ? v : [v]).filter(isMs)]);
    return Object.fromEntries(entries.filter(([, list]) => list.length > 0));
  } catch {
    return {};
  }
}

/** Per API URL: the measurements last offered (as JSON), the ones still to write, and the writes under way. */
interface Saving {
  offered: string;
  next: Record<string, number[]> | undefined;
  /** Settles once nothing offered is left unwritten; undefined while no write is under way. */
  writing: Promise<void> | undefined;
}
const saving = new Map<string, Saving>();

/**
 * Saves `samples` (the client's last measurements by transition, which began with what was
 * loaded) for `apiUrl`, over what was saved, off the event loop; nothing when they are what
 * was offered last. Resolves once they are written (or could not be). Never rejects.
 */
export function savePriors(apiUrl: string, samples: Record<string, number[]>): Promise<void> {
  if (Object.keys(samples).length === 0) return Promise.resolve();
  const offered = JSON.stringify(samples);
  const state = saving.get(apiUrl) ?? { offered: "", next: undefined, writing: undefined };
  saving.set(apiUrl, state);
  if (state.offered !== offered) {
    state.offered = offered;
    state.next = samples;
    state.writing ??= writeAll(apiUrl, state);
  }
  return state.writing ?? Promise.resolve();
}

/** Writes what is to be written for `apiUrl` until nothing new is left. Never rejects. */
async function writeAll(apiUrl: string, state: Saving): Promise<void> {
  try {
    while (state.next !== undefined) {
      const samples = state.next;
      state.next = undefined;
      await write(apiUrl, samples);
    }
  } finally {
    state.writing = undefined;
  }
}

async function write(apiUrl: string, samples: Record<string, number[]>): Promise<void> {
  if (usableJournalDir() === undefined) return;
  const file = fileFor(apiUrl);
  const tmp = newFileFor(file);
  try {
    const saved = loadedFrom(await fs.promises.readFile(file, "utf8").catch(() => "{}"));
    await fs.promises.writeFile(tmp, JSON.stringify({ ...saved, ...samples }), { mode: 0o600 });
    await fs.promises.rename(tmp, file);
  } catch {
    // polling without a prior next time
    await fs.promises.rm(tmp, { force: true }).catch(() => undefined);
  }
}
