/** Reading the emulator's request log in resilience tests. */
import type { FaultRule, LoggedRequest } from "../../../emulator/control-client";

/** Calls `control` (a control-path caller) to add a fault rule; throws unless 201. */
export async function addFault(
  control: (method: string, path: string, body?: unknown) => Promise<Response>,
  rule: FaultRule,
): Promise<void> {
  const res = await control("POST", "/faults", rule);
  if (res.status !== 201) throw new Error(`fault rule refused: HTTP ${res.status} ${await res.text()}`);
}

/**
 * Every 429 in `log` paired with the next request for the same method and path, and how
 * long after the 429 it arrived. Requests never repeated (none came after) are left out.
 */
export function retriesAfter429(log: LoggedRequest[]): Array<{ request: string; gapMs: number }> {
  return retriesAfter(log, 429);
}

/** {@link retriesAfter429} for any status: each answer of `status` paired with the next request for the same method and path. */
export function retriesAfter(log: LoggedRequest[], status: number): Array<{ request: string; gapMs: number }> {
  const out: Array<{ request: string; gapMs: number }> = [];
  log.forEach((r, i) => {
    if (r.status !== status) return;
    const next = log.slice(i + 1).find((n) => n.method === r.method && n.path === r.path);
    if (next) out.push({ request: `${r.method} ${r.path}`, gapMs: Date.parse(next.at) - Date.parse(r.at) });
  });
  return out;
}

/** `METHOD /path` with the base URL and project prefix cut, for readable assertions. */
export function short(r: LoggedRequest): string {
  return `${r.method} ${r.path.replace(/^.*\/projects\/[a-z0-9]+/, "")} ${r.status}`;
}
