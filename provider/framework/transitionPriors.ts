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
 * time carries the newest.
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

/** The measurements saved for `apiUrl` (ms by transition, oldest first; a file of 0.1 holds one value each), or none. Never throws. */
export function loadPriors(apiUrl: string): Record<string, number[]> {
  try {
    return loadedFrom(fs.readFileSync(fileFor(apiUrl), "utf8"));
  } catch {
    return {};
  }
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

/** Per API URL: the measurements last offered (as JSON), the ones still to write, and whether a write is under way. */
const saving = new Map<string, { offered: string; next: Record<string, number[]> | undefined; writing: boolean }>();

/**
 * Saves `samples` (the client's last measurements by transition, which began with what was
 * loaded) for `apiUrl`, over what was saved, in the background; nothing when they are what
 * was offered last. Never throws.
 */
export function savePriors(apiUrl: string, samples: Record<string, number[]>): void {
  if (Object.keys(samples).length === 0) return;
  const offered = JSON.stringify(samples);
  const state = saving.get(apiUrl) ?? { offered: "", next: undefined, writing: false };
  saving.set(apiUrl, state);
  if (state.offered === offered) return;
  state.offered = offered;
  state.next = samples;
  if (!state.writing) void writeAll(apiUrl, state);
}

/** Writes what is to be written for `apiUrl` until nothing new is left. Never rejects. */
async function writeAll(apiUrl: string, state: { next: Record<string, number[]> | undefined; writing: boolean }): Promise<void> {
  state.writing = true;
  try {
    while (state.next !== undefined) {
      const samples = state.next;
      state.next = undefined;
      await write(apiUrl, samples);
    }
  } finally {
    state.writing = false;
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
