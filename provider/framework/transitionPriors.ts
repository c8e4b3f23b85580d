/**
 * What the client learned of how long transitions take (`service:QUEUED->READY`: 10.4 s),
 * kept on this machine between provider processes: every `pulumi up` is a new process, and
 * the poll schedule spends its requests where readiness is likely only when it knows what
 * to expect (provider/client/pollSchedule.ts). One small file per API endpoint, beside the
 * create journal, holding the last measurements of each transition (not one value: the
 * prior is their median, as in the client, so one slow run does not become it); nothing
 * secret in it, readable by its owner only all the same. Best effort: a file that cannot be
 * read or written only means polling without a prior.
 */
import { createHash, randomBytes } from "crypto";
import * as fs from "fs";
import * as path from "path";
import { journalDir, usableJournalDir } from "./journalStore";

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
    const parsed = JSON.parse(fs.readFileSync(fileFor(apiUrl), "utf8")) as unknown;
    if (parsed === null || typeof parsed !== "object") return {};
    const entries = Object.entries(parsed).map(([k, v]): [string, number[]] => [k, (Array.isArray(v) ? v : [v]).filter(isMs)]);
    return Object.fromEntries(entries.filter(([, list]) => list.length > 0));
  } catch {
    return {};
  }
}

/** Saves `samples` (the client's last measurements by transition, which began with what was loaded) for `apiUrl`, over what was saved. Never throws. */
export function savePriors(apiUrl: string, samples: Record<string, number[]>): void {
  if (Object.keys(samples).length === 0) return;
  const dir = usableJournalDir();
  if (dir === undefined) return;
  try {
    const file = fileFor(apiUrl);
    const tmp = `${file}.${randomBytes(4).toString("hex")}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify({ ...loadPriors(apiUrl), ...samples }), { mode: 0o600 });
    fs.renameSync(tmp, file);
  } catch {
    // polling without a prior next time
  }
}
