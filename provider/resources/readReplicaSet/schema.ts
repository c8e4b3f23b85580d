/**
 * The ReadReplicaSet resource: read-only replicas of a service. `serviceId`, `name` and
 * `projectId` replace it; `nodes`, `cpuMillis` and `memoryGbs` resize it in place; the
 * environment and the pooler change in place. Create waits for `active`; a set that
 * turns `error` stays in state and the error is reported.
 */
import { z } from "zod";
import type { ResourceDefinition } from "../../framework/resourceProvider";
import { input, optionalInput, output, resourceSchema } from "../../framework/schema";
import { adoptIdInput, projectIdInput, timeoutsInput } from "../common";
import * as v from "../values";

/** Inputs and outputs of a ReadReplicaSet. */
export const readReplicaSetSchema = resourceSchema({
  kind: "ReadReplicaSet",
  doc: "Read replicas of a service, at an endpoint of their own; they use the service's role and password.",
  example:
    'new clouddb.ReadReplicaSet("reporting", { serviceId: db.serviceId, name: "reporting", nodes: 2, cpuMillis: 1000, memoryGbs: 4 });',
  inputs: {
    serviceId: input(v.serviceId, { change: "replace", doc: "The service whose replicas these are." }),
    name: input(v.name, { change: "replace", doc: "Name, 1 to 128 characters." }),
    nodes: input(v.wholeNumber(1, 10), { change: "in-place", doc: "Number of nodes, 1 to 10. A change resizes the set." }),
    cpuMillis: input(v.cpuMillis(false), {
      change: "in-place",
      doc: `CPU of each node in millicores, paired with \`memoryGbs\`: ${v.describeSizes(v.REPLICA_SET_SIZES)}. A change resizes the set.`,
      sdkType: "number",
    }),
    memoryGbs: input(v.memoryGbs(false), {
      change: "in-place",
      doc: "Memory of each node in GB, paired with `cpuMillis`.",
      sdkType: "number",
    }),
    environment: optionalInput(v.environment, { change: "in-place", doc: "`DEV` or `PROD`. Unset: left as the API sets it." }),
    connectionPooler: optionalInput(v.flag, { change: "in-place", doc: "Connection pooler on or off.", default: false }),
    password: optionalInput(v.password, {
      change: "in-place",
      secret: true,
      doc: "The service's password (pass `service.password`), for `connectionString`: a set has no credentials of its own. Sends nothing to the API.",
      sdkType: "string | undefined",
    }),
    projectId: projectIdInput,
    adoptId: adoptIdInput(v.serviceId, "read replica set of `serviceId` (its name)"),
    timeouts: timeoutsInput,
  },
  outputs: {
    replicaSetId: output(z.string(), { doc: "The set's id." }),
    serviceId: output(z.string(), { doc: "The service." }),
    projectId: output(z.string(), { doc: "The project." }),
    name: output(z.string(), { doc: "The set's name." }),
    nodes: output(z.number(), { doc: "Number of nodes." }),
    cpuMillis: output(z.number(), { doc: "CPU of each node in millicores." }),
    memoryGbs: output(z.number(), { doc: "Memory of each node in GB." }),
    environment: output(z.string(), { doc: "`DEV` or `PROD`." }),
    connectionPooler: output(z.boolean(), { doc: "Whether the pooler is on." }),
    status: output(z.string(), { doc: "`creating`, `active`, `resizing`, `error` or `deleting` when last read." }),
    host: output(z.string(), { doc: "Connection host." }),
    port: output(z.number(), { doc: "Connection port." }),
    poolerHost: output(z.string().optional(), { doc: "Pooler host, while the pooler is on." }),
    poolerPort: output(z.number().optional(), { doc: "Pooler port, while the pooler is on." }),
    password: output(z.string().optional(), { doc: "The `password` input (secret).", secret: true }),
    connectionString: output(z.string().optional(), {
      doc: "`postgresql://tsdbadmin:<password>@<host>:<port>/tsdb?sslmode=require` at the set's endpoint (secret); without the password when none is given.",
      secret: true,
    }),
    poolerConnectionString: output(z.string().optional(), {
      doc: "The same through the set's pooler (secret), while it is on.",
      secret: true,
    }),
  },
  idOutput: "replicaSetId",
  lookup: ["serviceId", "projectId"],
  cross: [
    {
      properties: ["cpuMillis", "memoryGbs"],
      validate(news) {
        return v.isAllowedPair(v.REPLICA_SET_SIZES, news.cpuMillis, news.memoryGbs)
          ? []
          : [
              {
                property: "memoryGbs",
                reason: `cpuMillis ${JSON.stringify(news.cpuMillis)} with memoryGbs ${JSON.stringify(news.memoryGbs)} is not an allowed pair; one of (cpuMillis/memoryGbs): ${v.describeSizes(v.REPLICA_SET_SIZES)}`,
              },
            ];
      },
    },
  ],
});

/** The ReadReplicaSet resource type. */
export const readReplicaSetDefinition: ResourceDefinition<typeof readReplicaSetSchema.inputs, typeof readReplicaSetSchema.outputs> = {
  schema: readReplicaSetSchema,
  settled: (recorded) => recorded.status === "active",
  desired(news, recorded) {
    return {
      serviceId: news.serviceId,
      name: news.name,
      nodes: news.nodes,
      cpuMillis: news.cpuMillis,
      memoryGbs: news.memoryGbs,
      environment: news.environment ?? recorded.environment,
      connectionPooler: news.connectionPooler ?? false,
      password: news.password ?? null,
    };
  },
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  operations: () => (require("./operations") as typeof import("./operations")).readReplicaSetOperations,
};
