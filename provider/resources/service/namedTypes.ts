/**
 * The structured values of a Service's inputs and outputs that the SDK declares by name
 * (`ForkFromArgs`, `HaReplicasArgs`), and the `Size` of its CPU and memory.
 */
import { z } from "zod";
import { SERVICE_DEFAULTS } from "../../../contract/defaults";
import { HA_REPLICA_COUNT_TEXT, listed } from "../../../contract/describe";
import { expecting, forkStrategy, haReplicaCount, targetTimeProblem, timestamp } from "../../../contract/rules";
import { FORK_STRATEGIES, LIMITS } from "../../../contract/values";
import type { NamedType } from "../../framework/schema";
import * as v from "../values";

/** `forkFrom`: the service to fork, and how. */
export const forkFrom = z
  .strictObject(
    {
      serviceId: v.serviceId.describe("The service to fork."),
      strategy: forkStrategy.describe(`${listed(FORK_STRATEGIES, true)} (point in time: needs \`targetTime\`).`),
      targetTime: timestamp.optional().describe("RFC 3339 time between the source's creation and now, for `PITR`."),
    },
    { error: expecting("an object", "expected { serviceId, strategy, targetTime? }") },
  )
  .superRefine((f, ctx) => {
    const problem = targetTimeProblem(f.strategy, f.targetTime);
    if (problem !== undefined) ctx.addIssue({ code: "custom", path: ["targetTime"], message: problem, input: f.targetTime });
  });

/** `forkFrom` of a service. */
export type ForkFrom = z.output<typeof forkFrom>;

/** `haReplicas`: high-availability replicas; a count left out is 0. */
export const haReplicas = z.strictObject(
  {
    replicaCount: haReplicaCount
      .default(SERVICE_DEFAULTS.replicaCount)
      .describe(`${HA_REPLICA_COUNT_TEXT}. @default ${SERVICE_DEFAULTS.replicaCount}`),
    syncReplicaCount: haReplicaCount
      .default(SERVICE_DEFAULTS.syncReplicaCount)
      .describe(`${LIMITS.haReplicaCountMin} to \`replicaCount\`. @default ${SERVICE_DEFAULTS.syncReplicaCount}`),
  },
  {
    error: expecting(
      "an object",
      `expected { replicaCount: ${HA_REPLICA_COUNT_TEXT}, syncReplicaCount: ${LIMITS.haReplicaCountMin} to replicaCount }`,
    ),
  },
);

/** CPU or memory of a service: a number, or `"shared"` for the shared plan. */
export type Size = number | "shared";

/** The schema of a {@link Size} output, written as the SDK's named type. */
export const size = v.size.meta({ tsType: "Size" });

/** Types the SDK declares by name, for Service's arguments and outputs. */
export const serviceNamedTypes: Readonly<Record<string, NamedType>> = {
  HaReplicasArgs: { schema: haReplicas, doc: "High-availability replicas of a service." },
  ForkFromArgs: { schema: forkFrom, doc: "Makes a service by forking another one." },
};
