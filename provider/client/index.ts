/**
 * Typed client of the CloudDB API: one method per operation, validated answers, one retry
 * policy, waiters, and errors with stable codes.
 *
 * ```ts
 * import { ClouddbClient } from "pulumi-clouddb/provider/client";
 * const api = new ClouddbClient(); // CLOUDDB_API_URL, CLOUDDB_API_KEY, CLOUDDB_PROJECT_ID
 * ```
 *
 * @module pulumi-clouddb/provider/client
 */
export { ClouddbClient } from "./client";
export type { WaitOptions, WaitForServiceOptions, WaitForReplicaSetOptions, WaitForPeeringOptions } from "./resourceWaits";
export type { CallArgs, PerformArgs, OptionsOf, ProjectOptions, ReadOptions, CreateOptions } from "./callArgs";
export type { ReplyOf } from "./operations";
export type { ClouddbClientOptions, PollOptions, ResolvedConfig } from "./config";
export { resolveConfig, packageVersion } from "./config";
export * from "./errors";
export { STATUS_CLASSES, STATUS_RULES, classifyStatus, waitVerdict, curableByWaiting } from "../../contract/statuses";
export type { StatusRules, StatusClass, KnownStatus, WaitVerdict } from "../../contract/statuses";
export { redact, registerSecret } from "./redact";
export * from "../../contract/api";
export * from "../../contract/values";
export { DEDICATED_SIZES, SERVICE_SIZES, SHARED_SIZE, replicaSetSize, serviceSizeFromStrings, type SizePair } from "../../contract/sizes";
export type { ListReading, RejectedItem } from "./listReading";
export { pollDelayMs, pollTimes, detection, POLL_SCHEDULE } from "./pollSchedule";
export type { PollScheduleOptions, Detection } from "./pollSchedule";
export { Pacer, PACER } from "./pacer";
export type { Priority } from "./pacer";
export { transitionKey } from "./transitionDurations";
export type { MsInterval } from "./serverClock";
