/**
 * Inputs every resource type has: `projectId`, `timeouts` and `adoptId`.
 */
import type { z } from "zod";
import { optionalInput } from "../framework/schema";
import * as v from "./values";

/** `projectId`: the project of the resource. */
export const projectIdInput = optionalInput(v.projectId, {
  change: "replace",
  doc: "Project; defaults to `clouddb:projectId`.",
});

/** `timeouts`: how long operations may wait (Pulumi's `customTimeouts` never reach a dynamic provider). */
export const timeoutsInput = optionalInput(v.timeouts, {
  change: "in-place",
  doc: "How long operations may wait. A change records the new timeouts and sends nothing.",
  sdkType: "Timeouts",
});

/** `adoptId`: an existing resource to take over at create, instead of making one. */
export function adoptIdInput<S extends z.ZodType>(idSchema: S, what: string) {
  return optionalInput(idSchema, {
    change: "create-only",
    doc: `Id of an existing ${what} to take over instead of creating one (read at create only); its fixed properties must match the program.`,
  });
}
