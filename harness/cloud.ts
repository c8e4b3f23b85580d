/**
 * A test cloud: the emulator over real HTTP, an API client for out-of-band changes, and
 * a {@link TestStack} whose providers answer from the emulator (in process, or in the real
 * plugin host: `host`).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../emulator";
import { EmulatorControl, type LoggedRequest } from "../emulator/control-client";
import { ClouddbClient } from "../provider/client";
import { TestStack, type ProviderHostKind, type StackOptions, type UpResult } from "../harness";

export type { LoggedRequest } from "../emulator/control-client";

/** Options of {@link startCloud}. */
export interface CloudOptions {
  /** Factor on the emulator's nominal transition times. @default 0.02 (a create takes ~140 ms) */
  clockScale?: number;
  /** Extra stack config. */
  config?: Record<string, string>;
  /** Extra environment of the plugin process (it may set its own `CLOUDDB_JOURNAL_DIR`). */
  env?: Record<string, string>;
  /** Project name of the stack (the prefix of a program's own config keys). @default the harness's, "test-project" */
  project?: string;
  /** A real PostgreSQL server behind every service (the emulator's `--postgres`). @default false */
  postgres?: boolean;
  /** What serves the provider: see {@link StackOptions.host}. */
  host?: ProviderHostKind;
  /** What runs the stack's commands: see {@link StackOptions.engine}. */
  engine?: StackOptions["engine"];
}

/** What a provider test works with. */
export interface Cloud {
  readonly emulator: RunningEmulator;
  /** A client on the emulator, for out-of-band changes and inspection. */
  readonly api: ClouddbClient;
  /** The stack under test. */
  readonly stack: TestStack;
  /**
   * The providers' create journal and learned transition times (`CLOUDDB_JOURNAL_DIR`): a
   * temp directory of this cloud's own, removed by `close`, so no test sees another's.
   */
  readonly journalDir: string;
  /** The emulator's log of answered API requests, oldest first. */
  requests(): Promise<LoggedRequest[]>;
  /** Empties the request log. */
  clearRequests(): Promise<void>;
  /** The emulator's control path. */
  readonly controls: EmulatorControl;
  /** Calls the emulator's control path, raw. */
  control(method: string, path: string, body?: unknown): Promise<Response>;
  /** Stops the plugin, the client and the emulator, and removes the journal directory. */
  close(): Promise<void>;
}

/** Each resource's steps in the run, e.g. `{ db: "replace,delete-replaced" }` for a replacement. */
export function ops(r: Pick<UpResult, "steps">): Record<string, string> {
  const byName: Record<string, string[]> = {};
  for (const s of r.steps) (byName[s.name] ??= []).push(s.op);
  return Object.fromEntries(Object.entries(byName).map(([k, v]) => [k, v.join(",")]));
}

/** The requests of `log` that change something (anything but GET). */
export function writes(log: LoggedRequest[]): LoggedRequest[] {
  return log.filter((r) => r.method !== "GET");
}

/** The stack config that points the providers at `emu`, with fast polling. */
export function stackConfig(emu: RunningEmulator): Record<string, string> {
  return {
    "clouddb:apiUrl": emu.baseUrl,
    "clouddb:apiKey": emu.pat,
    "clouddb:projectId": emu.projectId,
    "clouddb:pollInterval": "20ms",
    "clouddb:pollMaxInterval": "200ms",
    "clouddb:readCache": "0s",
  };
}

/** Starts an emulator and a stack against it. */
export async function startCloud(opts: CloudOptions = {}): Promise<Cloud> {
  const emulator = await startEmulator({ port: 0, clockScale: opts.clockScale ?? 0.02, ...(opts.postgres ? { postgres: true } : {}) });
  const api = new ClouddbClient({
    apiUrl: emulator.baseUrl,
    apiKey: emulator.pat,
    projectId: emulator.projectId,
    poll: { initialMs: 20, maxMs: 200 },
  });
  const journalDir = fs.mkdtempSync(path.join(os.tmpdir(), "clouddb-journal-"));
  const stack = await TestStack.create({
    config: { ...stackConfig(emulator), ...opts.config },
    secretKeys: ["clouddb:apiKey"],
    env: { CLOUDDB_JOURNAL_DIR: journalDir, ...opts.env },
    project: opts.project,
    ...(opts.host ? { host: opts.host } : {}),
    ...(opts.engine ? { engine: opts.engine } : {}),
  });
  const controls = new EmulatorControl(emulator.url, emulator.pat);
  const control = (method: string, path: string, body?: unknown): Promise<Response> => controls.call(method, path, body);
  return {
    emulator,
    api,
    stack,
    journalDir,
    control,
    controls,
    requests: () => controls.requests(),
    clearRequests: () => controls.clearRequests(),
    async close() {
      // Each step runs even when one before it failed, so that a failing test still ends the
      // emulator; the first failure is the one thrown.
      const failures: unknown[] = [];
      for (const step of [() => stack.close(), () => api.close(), () => emulator.close()]) {
        await step().catch((e: unknown) => failures.push(e));
      }
      fs.rmSync(journalDir, { recursive: true, force: true });
      if (failures.length > 0) throw failures[0];
    },
  };
}

/**
 * The create journal's entries in `dir` (CLOUDDB_JOURNAL_DIR): its `.json` files, without the
 * learned transition durations kept beside them, and without a write's new file not yet renamed
 * into place (`<entry>.<pid>.<n>.tmp`: not the entry until then; a process killed before the
 * rename leaves the entry as it was).
 */
export function journalEntries(dir: string): string[] {
  return fs.readdirSync(dir).filter((f) => f.endsWith(".json") && !f.startsWith("durations-"));
}
