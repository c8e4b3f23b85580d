/**
 * The ReadReplicaSet resource: read-only replicas of a service. `serviceId`, `name` and
 * `projectId` replace it; `nodes`, `cpuMillis` and `memoryGbs` resize it in place; the
 * environment and the pooler change in place. Create waits for `active`; a set that
 * turns `error` stays in state and the error is reported.
 */
import { z } from "zod";
import * as rules from "../../../contract/rules";
import { DEDICATED_SIZES, describeSizes, replicaSetSizeProblem } from "../../../contract/sizes";
import { hasStatusClass, REPLICA_SET_STATUS, type StatusIn } from "../../../contract/statuses";
import type { ReadReplicaSet } from "../../client";
import type { ResourceDefinition } from "../../framework/resourceProvider";
import { AT_ONCE, type Action, type ConvergeContext } from "../../framework/convergence";
import { sameValue } from "../../framework/diff";
import { input, optionalInput, outputsFrom, outputsReadFrom, type DesiredOf } from "../../framework/schema";
import { readableEnvironment, readableName, readableNodes, readableReplicaSetSize, readableStatus } from "../../../contract/readable";
import { resourceSchema, type InProject } from "../common";
import { connectionOutputs } from "../connectionString";
import { AUTONAME_DOC } from "../../framework/autonaming";
import { ENVIRONMENTS_TEXT, NAME_LENGTH_TEXT, REPLICA_SET_NODES_TEXT } from "../../../contract/describe";
import * as v from "../values";
import { bodyOf } from "../../framework/requestBodies";
import { kindLookups } from "../../framework/kindLookups";
import { recordedFields, showsReadably } from "../../framework/outputs";

/** True when the answer shows a set's size readably: a pair of amounts a plan has (one is read only with the other). */
const sizeShown = (rs: ReadReplicaSet): boolean => readableReplicaSetSize(rs.cpu_millis, rs.memory_gbs);

/** What a ReadReplicaSet's outputs read from: the live set, its service and project, and the service's password when the program gave it. */
export interface ReadReplicaSetSource extends InProject {
  readonly live: ReadReplicaSet;
  readonly serviceId: string;
  readonly password?: string;
}

const output = outputsReadFrom<ReadReplicaSetSource>();
const recorded = recordedFields<ReadReplicaSet>();

/** The outputs a replica set shares with its service: its endpoints, the password and connection strings. */
const connection = connectionOutputs({
  password: "The `password` input (secret).",
  connectionString:
    "`postgresql://tsdbadmin:<password>@<host>:<port>/tsdb?sslmode=require` at the set's endpoint (secret); without the password when none is given.",
  poolerConnectionString: "The same through the set's pooler (secret), while it is on.",
});

/** Inputs and outputs of a ReadReplicaSet. */
export const readReplicaSetSchema = resourceSchema({
  kind: "ReadReplicaSet",
  doc: "Read replicas of a service, at an endpoint of their own; they use the service's role and password.",
  example:
    'new clouddb.ReadReplicaSet("reporting", { serviceId: db.serviceId, name: "reporting", nodes: 2, cpuMillis: 1000, memoryGbs: 4 });',
  inputs: {
    serviceId: input(v.serviceId, { change: "replace", doc: "The service whose replicas these are." }),
    name: optionalInput(rules.name, {
      change: "replace",
      unsetKeeps: () => true,
      doc: `Name, ${NAME_LENGTH_TEXT}. ${AUTONAME_DOC}`,
      wire: { createReplicaSet: "name" },
    }),
    nodes: input(rules.replicaSetNodes, {
      change: "in-place",
      doc: `Number of nodes, ${REPLICA_SET_NODES_TEXT}. A change resizes the set.`,
      wire: { createReplicaSet: "nodes", resizeReplicaSet: "nodes" },
    }),
    cpuMillis: input(v.cpuMillis(false), {
      change: "in-place",
      doc: `CPU of each node in millicores, paired with \`memoryGbs\`: ${describeSizes(DEDICATED_SIZES)}. A change resizes the set.`,
      wire: { createReplicaSet: "cpu_millis", resizeReplicaSet: "cpu_millis" },
    }),
    memoryGbs: input(v.memoryGbs(false), {
      change: "in-place",
      doc: "Memory of each node in GB, paired with `cpuMillis`.",
      wire: { createReplicaSet: "memory_gbs", resizeReplicaSet: "memory_gbs" },
    }),
    environment: optionalInput(rules.environment, {
      change: "in-place",
      doc: `${ENVIRONMENTS_TEXT}. Unset: left as the API sets it.`,
      unsetKeeps: () => true,
      wire: { setReplicaSetEnvironment: "environment" },
    }),
    connectionPooler: optionalInput(v.flag, { change: "in-place", doc: "Connection pooler on or off.", default: false }),
    password: optionalInput(rules.password, {
      change: "in-place",
      secret: true,
      doc: "The service's password (pass `service.password`), for `connectionString`: a set has no credentials of its own. Sends nothing to the API.",
      sdkType: "string | undefined",
    }),
  },
  adopt: { id: v.serviceId, what: "read replica set of `serviceId` (its name)" },
  outputs: {
    replicaSetId: output(z.string(), { doc: "The set's id.", from: (s) => s.live.id }),
    serviceId: output(z.string(), { doc: "The service.", from: (s) => s.serviceId }),
    name: output(z.string(), { doc: "The set's name.", ...recorded("name", readableName, "") }),
    nodes: output(z.number().int(), { doc: "Number of nodes.", ...recorded("nodes", readableNodes, 0) }),
    // A pair (a resize sends both).
    cpuMillis: output(z.number().int(), {
      doc: "CPU of each node in millicores.",
      field: "cpu_millis",
      shows: sizeShown,
      from: (s) => s.live.cpu_millis ?? 0,
    }),
    memoryGbs: output(z.number().int(), {
      doc: "Memory of each node in GB.",
      field: "memory_gbs",
      shows: sizeShown,
      from: (s) => s.live.memory_gbs ?? 0,
    }),
    environment: output(z.string(), {
      doc: `${ENVIRONMENTS_TEXT}.`,
      field: "metadata.environment",
      readable: readableEnvironment,
      from: (s) => s.live.metadata?.environment ?? "",
    }),
    connectionPooler: connection.connectionPooler,
    status: output(z.string(), {
      doc: "`creating`, `active`, `resizing`, `error` or `deleting` when last read.",
      ...recorded("status", (value) => readableStatus("replica set", value), ""),
    }),
    host: connection.host,
    port: connection.port,
    poolerHost: connection.poolerHost,
    poolerPort: connection.poolerPort,
    password: connection.password,
    connectionString: connection.connectionString,
    poolerConnectionString: connection.poolerConnectionString,
  },
  idOutput: "replicaSetId",
  lookup: ["serviceId", "projectId"],
  cross: [
    {
      properties: ["cpuMillis", "memoryGbs"],
      validate(news, show) {
        const problem = replicaSetSizeProblem(Number(news.cpuMillis), Number(news.memoryGbs));
        if (problem === undefined) return [];
        return [
          {
            property: problem.on === "cpu" ? "cpuMillis" : "memoryGbs",
            reason: `cpuMillis ${show("cpuMillis", news.cpuMillis)} with memoryGbs ${show("memoryGbs", news.memoryGbs)}: ${problem.unquoted}`,
          },
        ];
      },
    },
  ],
});

/** What a replica set is to be (its desired values, or in an update the live ones of what did not change). */
export type WantedReplicaSet = DesiredOf<typeof readReplicaSetSchema.inputs>;

/** One of the API's actions on a replica set. */
export type ReplicaSetAction = Action<ReadReplicaSet, WantedReplicaSet, ConvergeContext, ReadySetStatus>;

/** The statuses a replica set's action leaves it in: a ready one (`active`). */
export type ReadySetStatus = StatusIn<"replica set", "ready">;

/** The size of a set as its answer shows it; a part it does not show readably is taken as wanted (nothing is sent because of it). */
function sizeOf(rs: ReadReplicaSet, want: WantedReplicaSet): unknown[] {
  const shown = (output: "nodes" | "cpuMillis" | "memoryGbs", live: unknown, wanted: unknown) =>
    showsReadably(readReplicaSetSchema, rs, output) ? live : wanted;
  return [
    shown("nodes", rs.nodes, want.nodes),
    shown("cpuMillis", rs.cpu_millis, want.cpuMillis),
    shown("memoryGbs", rs.memory_gbs, want.memoryGbs),
  ];
}

/** Whether the set's pooler is on. */
const pooled = (rs: ReadReplicaSet): boolean => rs.connection_pooler !== undefined && rs.connection_pooler !== null;

/** The API's actions on a replica set, in the order they run (framework/convergence.ts). */
export const REPLICA_SET_ACTIONS: readonly ReplicaSetAction[] = [
  {
    name: "resize",
    needed: (live, want) => !sameValue(sizeOf(live, want), [want.nodes, want.cpuMillis, want.memoryGbs]),
    send: (ctx, id, want) =>
      ctx.api.perform("resizeReplicaSet", {
        service: want.serviceId,
        replicaSet: id,
        body: bodyOf(readReplicaSetSchema, "resizeReplicaSet", want),
        projectId: ctx.projectId,
      }),
    then: REPLICA_SET_STATUS.active,
  },
  {
    name: "setEnvironment",
    needed: (live, want) =>
      showsReadably(readReplicaSetSchema, live, "environment") &&
      want.environment !== null &&
      live.metadata?.environment !== want.environment,
    send: (ctx, id, want) =>
      ctx.api.perform("setReplicaSetEnvironment", {
        service: want.serviceId,
        replicaSet: id,
        body: bodyOf(readReplicaSetSchema, "setReplicaSetEnvironment", want),
        projectId: ctx.projectId,
      }),
    then: AT_ONCE,
  },
  {
    name: "pooler",
    needed: (live, want) => showsReadably(readReplicaSetSchema, live, "connectionPooler") && want.connectionPooler !== pooled(live),
    send: (ctx, id, want) =>
      want.connectionPooler
        ? ctx.api.perform("enableReplicaSetPooler", { service: want.serviceId, replicaSet: id, projectId: ctx.projectId })
        : ctx.api.perform("disableReplicaSetPooler", { service: want.serviceId, replicaSet: id, projectId: ctx.projectId }),
    then: AT_ONCE,
  },
];

/** How warnings and lookups name a read replica set they are about: `read replica set 3`. */
export function replicaSetNamed(live: ReadReplicaSet): string {
  return `read replica set ${live.id}`;
}

/** The ReadReplicaSet resource type. */
export const readReplicaSetDefinition: ResourceDefinition<typeof readReplicaSetSchema.inputs, typeof readReplicaSetSchema.outputs> = {
  schema: readReplicaSetSchema,
  settled: (recorded) => hasStatusClass("replica set", recorded.status, "ready"),
  lookups: kindLookups<ReadReplicaSet>({
    all: {
      name: "getReadReplicaSets",
      doc: "The read replica sets of a service.",
      list: "replicaSets",
      listDoc: "The service's read replica sets.",
      read: async (api, { serviceId, projectId }) => (await api.perform("listReplicaSets", { service: serviceId, projectId })).items,
    },
    named: replicaSetNamed,
    idOf: (live) => live.id,
    outputs: (live, { serviceId, projectId }) => outputsFrom(readReplicaSetSchema, { live, serviceId, projectId }),
    imported: { name: (live, service) => `${service}-${live.name ?? live.id}` },
  }),
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  operations: () => (require("./operations") as typeof import("./operations")).readReplicaSetOperations,
};
