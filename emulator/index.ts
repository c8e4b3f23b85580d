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
export { DEFAULT_CLI_PORT, DEFAULT_HOST, DEFAULT_OAUTH_TOKEN, DEFAULT_PAT, EmulatorOptionsError, type EmulatorOptions } from "./options";
export { BASE_PATH } from "./http/server";
export { CONTROL_PREFIX } from "./http/control-routes";
export { MAX_BODY_BYTES } from "./http/request-body";
export { ClouddbModel, type ClouddbModelOptions } from "./model/clouddb-model";
export { OffsetClock, ReportedClock, type Clock } from "./model/clock";
export type { DatabaseHosting, DatabaseState, DatabaseWish } from "./model/databases";
export { EmulatorApiError, InvalidRequestError, UnauthorizedError, ForbiddenError, NotFoundError, ConflictError } from "./model/errors";
export { SnapshotFormatError } from "./persistence/snapshot-file";
export { PostgresError } from "./postgres/errors";
export { findPostgresBinaries, type PostgresBinaries } from "./postgres/binaries";
