/**
 * Typed client of the CloudDB API: one way to call every operation (`perform`, typed from the
 * API description), validated answers, one retry policy, waiters, and errors with stable
 * codes. What this entry point exports is the package's promise to its users (its API report
 * is `api/pulumi-clouddb-provider-client.api.md`); the machinery behind it (the description's
 * zod schemas, the pacer, the poll schedule, create matching) is not exported. The resource
 * types are derived from the description's zod schemas and the statuses from its status table;
 * the report names those, which this entry point does not export.
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
export type { CallArgs, PerformArgs, OptionsOf, ProjectOptions, ReadOptions, CreateOptions, CreateWatch, BodyArg } from "./callArgs";
export type { ReplyOf, ReplyOfSpec } from "./operations";
export type { ApiErrorClass } from "./apiErrors";
export type { WaitErrorClass } from "./waitErrors";
export type { ClouddbClientOptions, PollOptions } from "./config";
export type { FleetOptions } from "./fleetConfig";
export * from "./errors";
export type { ListReading, RejectedItem } from "./listReading";
export type { Operation, ParamsOf, BodyOf, RequestOf, PathParams } from "../../contract/api";
export type { AuthInfo } from "../../contract/api/auth";
export type { Vpc } from "../../contract/api/vpc";
export type { Peering, PeeringStatus } from "../../contract/api/peering";
export type { Service, ServiceStatus, ServiceType } from "../../contract/api/service";
export type { ReadReplicaSet, ReplicaSetStatus, Endpoint, ConnectionPooler } from "../../contract/api/replicaSet";
export type { MessageResponse, Open } from "../../contract/api/reading";
export type { KnownServiceType } from "../../contract/values";
export { REGIONS, SERVICE_TYPES, ENVIRONMENTS, FORK_STRATEGIES } from "../../contract/values";
export { SERVICE_SIZES, DEDICATED_SIZES, type SizePair } from "../../contract/sizes";
