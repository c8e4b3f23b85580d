/**
 * Shapes of every request body the API accepts (CONTRACT.md, "Request and response
 * bodies"), as zod schemas, and {@link parseBody}, which turns a failed parse into an
 * {@link InvalidRequestError} naming each field, the value and what is allowed.
 */
import { z } from "zod";
import {
  DEDICATED_SIZES,
  ENVIRONMENTS,
  FORK_STRATEGIES,
  LIMITS,
  REGIONS,
  SERVICE_SIZE_STRINGS,
  SERVICE_TYPES,
  SHARED_SIZE,
  type SizePair,
} from "./catalog";
import { cidrProblem } from "./cidr";
import { InvalidRequestError } from "./errors";
import { NUMERIC_ID_PATTERN } from "./ids";

function oneOf<T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, {
    error: (issue) => (issue.input === undefined ? "required" : `${JSON.stringify(issue.input)} is not one of ${values.join(", ")}`),
  });
}

// Matching control characters is the point: names may not contain them.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

const name = z
  .string()
  .min(1, "must not be empty")
  .max(LIMITS.nameMaxLength, `must be at most ${LIMITS.nameMaxLength} characters`)
  .refine((s) => !CONTROL_CHARACTERS.test(s), "must not contain control characters");

const region = oneOf(REGIONS as unknown as readonly [string, ...string[]]);
const environment = oneOf(ENVIRONMENTS);
const decimalId = z.string().regex(NUMERIC_ID_PATTERN, "must be a decimal number as a string");
const nonEmpty = z.string().min(1, "must not be empty").max(LIMITS.nameMaxLength);

/** Finds the service size for a pair of request strings. */
export function serviceSizeFromStrings(cpu: string, memory: string): SizePair | undefined {
  if (cpu === "shared" && memory === "shared") return SHARED_SIZE;
  return DEDICATED_SIZES.find((p) => String(p.cpuMillis) === cpu && String(p.memoryGbs) === memory);
}

/** Finds the replica-set size for numbers (the shared plan is not offered). */
export function replicaSetSize(cpu: number, memory: number): SizePair | undefined {
  return DEDICATED_SIZES.find((p) => p.cpuMillis === cpu && p.memoryGbs === memory);
}

const ALLOWED_SERVICE_PAIRS = `allowed cpu_millis/memory_gbs pairs: ${SERVICE_SIZE_STRINGS.join(", ")}`;
const ALLOWED_REPLICA_PAIRS = `allowed cpu_millis/memory_gbs pairs: ${DEDICATED_SIZES.map((p) => `${p.cpuMillis}/${p.memoryGbs}`).join(", ")}`;

/** Adds issues for an optional service size given as two strings (both or neither). */
function checkOptionalServiceSize(value: { cpu_millis?: string | undefined; memory_gbs?: string | undefined }, ctx: z.RefinementCtx): void {
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

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** Request schemas, one per operation that takes a body. */
export const RequestSchemas = {
  createVpc: z.object({
    name,
    cidr: z.string().superRefine((cidr, ctx) => {
      const problem = cidrProblem(cidr);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
    region_code: region,
  }),
  renameVpc: z.object({ name }),
  createPeering: z.object({ peer_account_id: nonEmpty, peer_region_code: region, peer_vpc_id: nonEmpty }),
  createService: z
    .object({
      name,
      service_type: oneOf(SERVICE_TYPES).optional(),
      region_code: region.optional(),
      cpu_millis: z.string().optional(),
      memory_gbs: z.string().optional(),
      replica_count: z.number().int().min(0).max(LIMITS.haReplicaCountMax).optional(),
      environment_tag: environment.optional(),
    })
    .superRefine(checkOptionalServiceSize),
  vpcReference: z.object({ vpc_id: decimalId }),
  resizeService: z.object({ cpu_millis: z.string(), memory_gbs: z.string() }).superRefine(checkOptionalServiceSize),
  forkService: z
    .object({
      fork_strategy: oneOf(FORK_STRATEGIES),
      target_time: z
        .string()
        .refine((s) => RFC3339.test(s) && Number.isFinite(Date.parse(s)), "must be an RFC 3339 timestamp")
        .optional(),
      name: name.optional(),
      cpu_millis: z.string().optional(),
      memory_gbs: z.string().optional(),
      environment_tag: environment.optional(),
    })
    .superRefine((value, ctx) => {
      if (value.fork_strategy === "PITR" && value.target_time === undefined) {
        ctx.addIssue({ code: "custom", path: ["target_time"], message: "required when fork_strategy is PITR" });
      }
      checkOptionalServiceSize(value, ctx);
    }),
  updatePassword: z.object({
    password: z
      .string()
      .min(LIMITS.passwordMinLength, `must be at least ${LIMITS.passwordMinLength} characters`)
      .max(LIMITS.passwordMaxLength, `must be at most ${LIMITS.passwordMaxLength} characters`),
  }),
  setEnvironment: z.object({ environment }),
  setHA: z
    .object({
      replica_count: z.number().int().min(0).max(LIMITS.haReplicaCountMax).optional(),
      sync_replica_count: z.number().int().min(0).max(LIMITS.haReplicaCountMax).optional(),
    })
    .refine((v) => v.replica_count !== undefined || v.sync_replica_count !== undefined, {
      message: "give replica_count, sync_replica_count or both",
    }),
  createReplicaSet: z
    .object({
      name,
      nodes: z.number().int().min(LIMITS.replicaSetNodesMin).max(LIMITS.replicaSetNodesMax),
      cpu_millis: z.number(),
      memory_gbs: z.number(),
    })
    .superRefine((v, ctx) => {
      if (!replicaSetSize(v.cpu_millis, v.memory_gbs)) {
        ctx.addIssue({
          code: "custom",
          path: ["cpu_millis"],
          message: `${v.cpu_millis}/${v.memory_gbs} is not allowed; ${ALLOWED_REPLICA_PAIRS}`,
        });
      }
    }),
  resizeReplicaSet: z
    .object({
      cpu_millis: z.union([z.number(), z.string().regex(/^[0-9]+$/, "must be a whole number")]),
      memory_gbs: z.union([z.number(), z.string().regex(/^[0-9]+$/, "must be a whole number")]),
      nodes: z.number().int().min(LIMITS.replicaSetNodesMin).max(LIMITS.replicaSetNodesMax).optional(),
    })
    .superRefine((v, ctx) => {
      if (!replicaSetSize(Number(v.cpu_millis), Number(v.memory_gbs))) {
        ctx.addIssue({
          code: "custom",
          path: ["cpu_millis"],
          message: `${v.cpu_millis}/${v.memory_gbs} is not allowed; ${ALLOWED_REPLICA_PAIRS}`,
        });
      }
    }),
} as const;

/** Parsed body of an operation, by schema name. */
export type RequestBody<K extends keyof typeof RequestSchemas> = z.infer<(typeof RequestSchemas)[K]>;

/**
 * Parses `body` with the named schema.
 * @throws InvalidRequestError naming each wrong field, its problem and what is allowed.
 */
export function parseBody<K extends keyof typeof RequestSchemas>(schema: K, body: unknown): RequestBody<K> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new InvalidRequestError("The request body must be a JSON object", `received ${describeJson(body)}`);
  }
  const result = RequestSchemas[schema].safeParse(body);
  if (result.success) return result.data as RequestBody<K>;
  const details = result.error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "body"}: ${issue.message}`)
    .join("; ");
  throw new InvalidRequestError("The request body is not valid", details);
}

function describeJson(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}
