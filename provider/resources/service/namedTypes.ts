/**
 * The structured values of a Service's inputs and outputs that the SDK declares by name
 * (`ForkFromArgs`, `HaReplicasArgs`), and the `Size` of its CPU and memory.
 */
import { z } from "zod";
import type { NamedType } from "../../framework/schema";
import * as v from "../values";

/** `forkFrom`: the service to fork, and how. */
export const forkFrom = z
  .strictObject(
    {
      serviceId: v.serviceId.describe("The service to fork."),
      strategy: z
        .enum(["LAST_SNAPSHOT", "NOW", "PITR"], { error: v.expecting("a string", 'expected "LAST_SNAPSHOT", "NOW" or "PITR"') })
        .describe("`LAST_SNAPSHOT`, `NOW`, or `PITR` (point in time: needs `targetTime`)."),
      targetTime: z.iso
        .datetime({ offset: true, error: v.expecting("a string", "expected an RFC 3339 time such as 2026-01-31T12:00:00Z") })
        .optional()
        .describe("RFC 3339 time between the source's creation and now, for `PITR`."),
    },
    { error: v.expecting("an object", "expected { serviceId, strategy, targetTime? }") },
  )
  .refine((f) => f.strategy !== "PITR" || f.targetTime !== undefined, {
    error: "strategy PITR needs targetTime (an RFC 3339 time between the source's creation and now)",
    path: ["targetTime"],
  });

/** `forkFrom` of a service. */
export type ForkFrom = z.output<typeof forkFrom>;

/** `haReplicas`: high-availability replicas; a count left out is 0. */
export const haReplicas = z.strictObject(
  {
    replicaCount: v.wholeNumber(0, 2).default(0).describe("0 to 2. @default 0"),
    syncReplicaCount: v.wholeNumber(0, 2).default(0).describe("0 to `replicaCount`. @default 0"),
  },
  { error: v.expecting("an object", "expected { replicaCount: 0 to 2, syncReplicaCount: 0 to replicaCount }") },
);

/** CPU or memory of a service: a number, or `"shared"` for the shared plan. */
export type Size = number | "shared";

/** The schema of a {@link Size} output. */
export const size = z.union([z.number(), z.literal("shared")]).meta({ tsType: "Size" });

/** Types the SDK declares by name, for Service's arguments and outputs. */
export const serviceNamedTypes: Readonly<Record<string, NamedType>> = {
  HaReplicasArgs: { schema: haReplicas, doc: "High-availability replicas of a service." },
  ForkFromArgs: { schema: forkFrom, doc: "Makes a service by forking another one." },
};
