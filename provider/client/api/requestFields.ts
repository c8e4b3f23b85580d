/**
 * The pieces the request schemas of the API descriptions are built from: names, regions,
 * environments, ids and size checks, each with the error message the emulator answers
 * (CONTRACT.md, "Identifiers and values").
 */
import { z } from "zod";
import {
  DEDICATED_SIZES,
  ENVIRONMENTS,
  LIMITS,
  REGIONS,
  SERVICE_SIZE_STRINGS,
  NUMERIC_ID_PATTERN,
  replicaSetSize,
  serviceSizeFromStrings,
} from "./values";

/** An enumeration whose error names the value and the allowed ones. */
export function oneOf<T extends readonly [string, ...string[]]>(values: T): z.ZodEnum<{ [V in T[number]]: V }> {
  return z.enum(values, {
    error: (issue) => (issue.input === undefined ? "required" : `${JSON.stringify(issue.input)} is not one of ${values.join(", ")}`),
  });
}

// Matching control characters is the point: names may not contain them.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/** A name of a service, VPC or replica set: 1 to 128 characters, no control characters. */
export const name = z
  .string()
  .min(1, "must not be empty")
  .max(LIMITS.nameMaxLength, `must be at most ${LIMITS.nameMaxLength} characters`)
  .refine((s) => !CONTROL_CHARACTERS.test(s), "must not contain control characters");

/** A region the emulator offers. */
export const region = oneOf(REGIONS);
/** An environment tag. */
export const environment = oneOf(ENVIRONMENTS);
/** A VPC or peering id. */
export const decimalId = z.string().regex(NUMERIC_ID_PATTERN, "must be a decimal number as a string");
/** A non-empty string of at most the name length. */
export const nonEmpty = z.string().min(1, "must not be empty").max(LIMITS.nameMaxLength);
/** HA replicas, 0 to 2. */
export const haReplicaCount = z.number().int().min(0).max(LIMITS.haReplicaCountMax);
/** Nodes of a replica set, 1 to 10. */
export const replicaSetNodes = z.number().int().min(LIMITS.replicaSetNodesMin).max(LIMITS.replicaSetNodesMax);

/** The body `{environment}` of both set-environment operations. */
export const EnvironmentBody = z.object({ environment });

const ALLOWED_SERVICE_PAIRS = `allowed cpu_millis/memory_gbs pairs: ${SERVICE_SIZE_STRINGS.join(", ")}`;
const ALLOWED_REPLICA_PAIRS = `allowed cpu_millis/memory_gbs pairs: ${DEDICATED_SIZES.map((p) => `${p.cpuMillis}/${p.memoryGbs}`).join(", ")}`;

/** Adds issues for an optional service size given as two strings (both or neither). */
export function checkOptionalServiceSize(
  value: { cpu_millis?: string | undefined; memory_gbs?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  const { cpu_millis: cpu, memory_gbs: memory } = value;
  if (cpu === undefined && memory === undefined) return;
  if (cpu === undefined || memory === undefined) {
    ctx.addIssue({
      code: "custom",
      path: [cpu === undefined ? "cpu_millis" : "memory_gbs"],
      message: "cpu_millis and memory_gbs must be given together",
    });
    return;
  }
  if (!serviceSizeFromStrings(cpu, memory)) {
    ctx.addIssue({ code: "custom", path: ["cpu_millis"], message: `${cpu}/${memory} is not allowed; ${ALLOWED_SERVICE_PAIRS}` });
  }
}

/** Adds an issue unless the replica set size (numbers, or strings of digits) is an allowed pair. */
export function checkReplicaSetSize(value: { cpu_millis: number | string; memory_gbs: number | string }, ctx: z.RefinementCtx): void {
  if (!replicaSetSize(Number(value.cpu_millis), Number(value.memory_gbs))) {
    ctx.addIssue({
      code: "custom",
      path: ["cpu_millis"],
      message: `${value.cpu_millis}/${value.memory_gbs} is not allowed; ${ALLOWED_REPLICA_PAIRS}`,
    });
  }
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** An RFC 3339 timestamp. */
export const timestamp = z.string().refine((s) => RFC3339.test(s) && Number.isFinite(Date.parse(s)), "must be an RFC 3339 timestamp");
