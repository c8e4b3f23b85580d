/**
 * What the client learned of how long transitions take (`service:QUEUED->READY`: 10.4 s),
 * kept on this machine between provider processes: every `pulumi up` is a new process, and
 * the poll schedule spends its requests where readiness is likely only when it knows what
 * to expect (provider/client/pollSchedule.ts). One small file per API endpoint, beside the
 * create journal; nothing secret in it. Best effort: a file that cannot be read or written
 * only means polling without a prior.
 */
import { createHash, randomBytes } from "crypto";
import * as fs from "fs";
import * as path from "path";
import { journalDir } from "./journal";

function fileFor(apiUrl: string): string {
  return path.join(journalDir(), `durations-${createHash("sha256").update(apiUrl).digest("hex").slice(0, 16)}.json`);
}

/** The durations saved for `apiUrl` (ms by transition), or none. Never throws. */
export function loadPriors(apiUrl: string): Record<string, number> {
  try {
    const parsed = JSON.parse(fs.readFileSync(fileFor(apiUrl), "utf8")) as unknown;
    if (parsed === null || typeof parsed !== "object") return {};
    return Object.fromEntries(Object.entries(parsed).filter(([, v]) => typeof v === "number" && Number.isFinite(v) && v > 0));
  } catch {
    return {};
  }
}

/** Saves `durations` for `apiUrl`, merged over what was saved. Never throws. */
export function savePriors(apiUrl: string, durations: Record<string, number>): void {
  if (Object.keys(durations).length === 0) return;
  try {
    const file = fileFor(apiUrl);
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const tmp = `${file}.${randomBytes(4).toString("hex")}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify({ ...loadPriors(apiUrl), ...durations }), { mode: 0o600 });
    fs.renameSync(tmp, file);
  } catch {
    // polling without a prior next time
  }
}
