/** API description of read replica sets: their operations, request bodies and answer. */
import { z } from "zod";
import { agreesOn, notLeaving, type Fields } from "../matching";
import { EnvironmentBody, name, replicaSetNodes } from "../rules";
import { replicaSetSizeProblem } from "../sizes";
import { type KnownStatus, knownStatuses } from "../statuses";
import { lenientNumber, MESSAGE, open, tolerant, type Open } from "./reading";
import { actionsOn, create, NO_REPLY, PROJECT_PATH, read, type OperationSpec } from "./operation";

/** Known values of `ReadReplicaSet.status` (SPEC 3.2), from the status rules table. */
export const REPLICA_SET_STATUSES = knownStatuses("replica set");
/** A replica set status (known, or one the API added). */
export type ReplicaSetStatus = Open<KnownStatus<"replica set">>;
/** Schema of a replica set status (any string). */
export const ReplicaSetStatusSchema = open<KnownStatus<"replica set">>();

/** Schema of an endpoint. */
export const EndpointSchema = z.looseObject({
  host: tolerant(z.string()),
  port: tolerant(lenientNumber()),
});

/** Schema of a connection pooler. */
export const ConnectionPoolerSchema = z.looseObject({
  endpoint: tolerant(EndpointSchema),
});

/** Schema of the `metadata` of a service or replica set. */
export const MetadataSchema = z.looseObject({ environment: tolerant(z.string()) });

/** An endpoint `{host, port}`. */
export type Endpoint = z.infer<typeof EndpointSchema>;
/** A connection pooler `{endpoint}`. */
export type ConnectionPooler = z.infer<typeof ConnectionPoolerSchema>;

/** Schema of a read replica set: `id` and `status` (when present) are relied upon. */
export const ReadReplicaSetSchema = z.looseObject({
  id: z.string(),
  status: ReplicaSetStatusSchema.optional(),
  name: tolerant(z.string()),
  nodes: tolerant(lenientNumber()),
  cpu_millis: tolerant(lenientNumber()),
  memory_gbs: tolerant(lenientNumber()),
  endpoint: tolerant(EndpointSchema),
  connection_pooler: tolerant(ConnectionPoolerSchema.nullable()),
  metadata: tolerant(MetadataSchema),
});

/** A read replica set. */
export type ReadReplicaSet = z.infer<typeof ReadReplicaSetSchema>;

const SETS = `${PROJECT_PATH}/services/{service}/replicaSets`;
const SET = `${SETS}/{replicaSet}`;
const WHOLE_NUMBER = z.union([z.number(), z.string().regex(/^[0-9]+$/, { error: "expected a whole number" })]);

/** Adds an issue unless the replica set size (numbers, or strings of digits) is an allowed pair. */
function checkSize(value: { cpu_millis: number | string; memory_gbs: number | string }, ctx: z.RefinementCtx): void {
  const problem = replicaSetSizeProblem(Number(value.cpu_millis), Number(value.memory_gbs));
  if (problem !== undefined)
    ctx.addIssue({ code: "custom", path: [problem.on === "cpu" ? "cpu_millis" : "memory_gbs"], message: problem.message });
}

const CreateReplicaSetBody = z
  .object({ name, nodes: replicaSetNodes, cpu_millis: z.number(), memory_gbs: z.number() })
  .superRefine(checkSize);
const ResizeReplicaSetBody = z
  .object({ cpu_millis: WHOLE_NUMBER, memory_gbs: WHOLE_NUMBER, nodes: replicaSetNodes.optional() })
  .superRefine(checkSize);

const ONE = { one: ReadReplicaSetSchema } as const;
const onSet = actionsOn("replica set");

/** What a replica set made by a create is to show: any fields of its create's body, each compared. */
export type WantedReplicaSet = Partial<z.input<typeof CreateReplicaSetBody>>;

/** Whether a listed replica set may be the one wanted: not being deleted, and each of name, nodes and size given. */
export function fitsReplicaSet(wanted: WantedReplicaSet, item: Fields): boolean {
  return notLeaving("replica set", item) && agreesOn(item, wanted);
}

/** The operations on the read replica sets of a service (there is no single-set GET). */
export const REPLICA_SET_API = {
  listReplicaSets: read({ path: SETS, reply: { list: { item: ReadReplicaSetSchema, idField: "id", noun: "replica set" } } }),
  createReplicaSet: create(
    { path: SETS, reply: ONE, status: 202, blocker: "service", request: CreateReplicaSetBody },
    {
      list: "listReplicaSets",
      fits: fitsReplicaSet,
      label: (body, params) => `"${body.name}" of service ${params.service}`,
    },
  ),
  deleteReplicaSet: { method: "DELETE", path: SET, retry: "delete", reply: NO_REPLY, status: 202 },
  resizeReplicaSet: onSet({ path: `${SET}/resize`, reply: MESSAGE, status: 202, request: ResizeReplicaSetBody }),
  enableReplicaSetPooler: onSet({ path: `${SET}/enablePooler`, reply: MESSAGE, status: 200 }),
  disableReplicaSetPooler: onSet({ path: `${SET}/disablePooler`, reply: MESSAGE, status: 200 }),
  setReplicaSetEnvironment: onSet({ path: `${SET}/setEnvironment`, reply: MESSAGE, status: 200, request: EnvironmentBody }),
} as const satisfies Record<string, OperationSpec>;
