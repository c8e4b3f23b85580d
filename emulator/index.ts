/**
 * The CloudDB API emulator: an HTTP server playing the API of SPEC.md as CONTRACT.md
 * settles it, with a control path for faults, latency, rate limits and the clock.
 *
 * ```ts
 * import { startEmulator } from "pulumi-clouddb/emulator";
 * const emu = await startEmulator({ port: 0, clockScale: 0.01 });
 * // ... use emu.baseUrl with emu.pat ...
 * await emu.close();
 * ```
 *
 * @module pulumi-clouddb/emulator
 */
export { startEmulator, type RunningEmulator } from "./start";
export { EmulatorControl, type LoggedRequest, type FaultRule, type RewriteRule } from "./control-client";
export type { RateLimitPolicy } from "./http/rate-limiter";
export type { RequestLogEntry } from "./http/request-log";
export { DEFAULT_CLI_PORT, DEFAULT_HOST, DEFAULT_OAUTH_TOKEN, DEFAULT_PAT, EmulatorOptionsError, type EmulatorOptions } from "./options";
export { BASE_PATH } from "./http/server";
export { SnapshotFormatError } from "./persistence/snapshot-file";
export { PostgresError, type PostgresStep } from "./postgres/errors";
