/** Helpers to drive the emulator's control path from client tests. */
import { startEmulator } from "../../emulator";
import { EmulatorControl, type FaultRule, type LoggedRequest } from "../../emulator/control-client";
import { ClouddbClient, type ClouddbClientOptions } from "../../provider/client";

/** The running emulator, as startEmulator returns it. */
export type Emu = Awaited<ReturnType<typeof startEmulator>>;

export type { LoggedRequest } from "../../emulator/control-client";

/** A client of `emu`'s project with its token; `options` add to or override that. */
export function clientOf(emu: Emu, options: ClouddbClientOptions = {}): ClouddbClient {
  return new ClouddbClient({ apiUrl: emu.baseUrl, apiKey: emu.pat, projectId: emu.projectId, ...options });
}

/** Calls the control path and returns the parsed JSON body (or undefined); throws unless 2xx. */
export function control(emu: Emu, method: "GET" | "POST" | "DELETE", path: string, body?: unknown): Promise<unknown> {
  return new EmulatorControl(emu.url, emu.pat).send(method, path, body);
}

/** The emulator's request log. */
export function requestLog(emu: Emu): Promise<LoggedRequest[]> {
  return new EmulatorControl(emu.url, emu.pat).requests();
}

/** Injects a fault: the next `count` requests matching method and path regex answer `status`. */
export async function fault(
  emu: Emu,
  f: { method: string; path: string; status: number; count: number; retryAfter?: number },
): Promise<void> {
  await control(emu, "POST", "/faults", f);
}

/** Asserts that an error's message and enumerable string fields contain none of the secrets. */
export function expectNoSecrets(err: unknown, secrets: string[]): void {
  const e = err as Record<string, unknown>;
  const texts = [String(e.message), ...Object.values(e).filter((v): v is string => typeof v === "string")];
  for (const t of texts) for (const s of secrets) expect(t).not.toContain(s);
}

export { startEmulator };

/** Adds a rewrite rule: in the next `count` matching answers, every `field` (any depth) becomes `value`. */
export async function rewrite(
  emu: Emu,
  r: { method?: string; path?: string; field: string; value: unknown; count?: number },
): Promise<void> {
  await control(emu, "POST", "/rewrites", r);
}

/** Injects a misbehaving fault: the request is carried out (`after`), then its answer is lost, dropped or cut short. */
export async function misbehave(emu: Emu, f: FaultRule): Promise<void> {
  await control(emu, "POST", "/faults", f);
}

/** API requests of the log with `method` whose path (without the base and project) matches `path`. */
export async function countRequests(emu: Emu, method: string, path: RegExp): Promise<number> {
  return (await requestLog(emu)).filter((r) => r.method === method && path.test(r.path.replace(/^.*\/projects\/[^/]+/, ""))).length;
}
