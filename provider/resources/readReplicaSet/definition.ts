/**
 * The ReadReplicaSet resource: read-only replicas of a service. `serviceId`, `name` and
 * `projectId` replace it; `nodes`, `cpuMillis` and `memoryGbs` resize it in place; the
 * environment and the pooler change in place. Create waits for `active`; a set that
 * turns `error` stays in state and the error is reported.
 */
import { z } from "zod";
import * as rules from "../../../contract/rules";
import { DEDICATED_SIZES, describeSizes, replicaSetSizeProblem } from "../../../contract/sizes";
import { hasStatusClass } from "../../../contract/statuses";
import type { ReadReplicaSet } from "../../client";
import type { ResourceDefinition } from "../../framework/resourceProvider";
import { input, optionalInput, outputsReadFrom } from "../../framework/schema";
import { resourceSchema, type InProject } from "../common";
import { connectionOutputs } from "../connectionString";
import { AUTONAME_DOC } from "../../framework/autonaming";
import * as v from "../values";

/** What a ReadReplicaSet's outputs read from: the live set, its service and project, and the service's password when the program gave it. */
export interface ReadReplicaSetSource extends InProject {
  readonly live: ReadReplicaSet;
  readonly serviceId: string;
  readonly password?: string;
}

const output = outputsReadFrom<ReadReplicaSetSource>();

/** The outputs a replica set shares with its service: its endpoints, the password and connection strings. */
const connection = connectionOutputs<ReadReplicaSetSource>({
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
    name: optionalInput(rules.name, { change: "replace", unsetKeeps: () => true, doc: `Name, 1 to 128 characters. ${AUTONAME_DOC}` }),
    nodes: input(rules.replicaSetNodes, { change: "in-place", doc: "Number of nodes, 1 to 10. A change resizes the set." }),
    cpuMillis: input(v.cpuMillis(false), {
      change: "in-place",
      doc: `CPU of each node in millicores, paired with \`memoryGbs\`: ${describeSizes(DEDICATED_SIZES)}. A change resizes the set.`,
      sdkType: "number",
    }),
    memoryGbs: input(v.memoryGbs(false), {
      change: "in-place",
      doc: "Memory of each node in GB, paired with `cpuMillis`.",
      sdkType: "number",
    }),
    environment: optionalInput(rules.environment, {
      change: "in-place",
      doc: "`DEV` or `PROD`. Unset: left as the API sets it.",
      unsetKeeps: () => true,
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
    name: output(z.string(), { doc: "The set's name.", from: (s) => s.live.name ?? "" }),
    nodes: output(z.number(), { doc: "Number of nodes.", from: (s) => s.live.nodes ?? 0 }),
    cpuMillis: output(z.number(), { doc: "CPU of each node in millicores.", from: (s) => s.live.cpu_millis ?? 0 }),
    memoryGbs: output(z.number(), { doc: "Memory of each node in GB.", from: (s) => s.live.memory_gbs ?? 0 }),
    environment: output(z.string(), { doc: "`DEV` or `PROD`.", from: (s) => s.live.metadata?.environment ?? "" }),
    connectionPooler: connection.connectionPooler,
    status: output(z.string(), {
      doc: "`creating`, `active`, `resizing`, `error` or `deleting` when last read.",
      from: (s) => s.live.status ?? "",
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
      validate(news) {
        const problem = replicaSetSizeProblem(Number(news.cpuMillis), Number(news.memoryGbs));
        if (problem === undefined) return [];
        return [
          {
            property: problem.on === "cpu" ? "cpuMillis" : "memoryGbs",
            reason: `cpuMillis ${JSON.stringify(news.cpuMillis)} with memoryGbs ${JSON.stringify(news.memoryGbs)}: ${problem.message}`,
          },
        ];
      },
    },
  ],
});

/** The ReadReplicaSet resource type. */
export const readReplicaSetDefinition: ResourceDefinition<typeof readReplicaSetSchema.inputs, typeof readReplicaSetSchema.outputs> = {
  schema: readReplicaSetSchema,
  settled: (recorded) => hasStatusClass("replica set", recorded.status, "ready"),
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  operations: () => (require("./operations") as typeof import("./operations")).readReplicaSetOperations,
};
