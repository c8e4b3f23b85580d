/**
 * zod schemas for the inputs of every resource, one per kind of value, each with a
 * message that says what is allowed. The API's rules (CONTRACT.md, "Identifiers and
 * values") are checked here, in `check`, before anything is sent. A value of the wrong
 * type is told the type it should have ("expected a number, not a string"), not what else
 * is allowed: `cpuMillis: "1000"` is a quoting mistake, not a size no plan has.
 */
import { z } from "zod";
import { isTimeout, TIMEOUT_RANGE_TEXT } from "../framework/durations";

/** The types an input's value may be expected to have, as a message names them. */
export type ValueType = "a string" | "a number" | "a boolean" | "an object";

/** The type of a value the program gave, as a message names it: `a string`, `a number`, `a boolean`, `an array`, `an object`, `null`. */
export function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/**
 * A schema's error for a value that must be of type `type`: a value of another type gets
 * `expected <type>, not <its type>`, one of that type `message`.
 */
export function expecting(type: ValueType, message: string): (issue: { readonly input?: unknown }) => string {
  return (issue) => (typeOf(issue.input) === type ? message : `expected ${type}, not ${typeOf(issue.input)}`);
}

/** Regions the API offers. */
export const REGIONS = ["us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-southeast-1", "ap-southeast-2", "sa-east-1"] as const;

/** CPU (millicores) and memory (GB) pairs a service may have. */
export const SERVICE_SIZES = [
  ["shared", "shared"],
  [500, 2],
  [1000, 4],
  [2000, 8],
  [4000, 16],
  [8000, 32],
  [16000, 64],
  [32000, 128],
] as const;

/** CPU and memory pairs a read replica set may have: the service pairs but `shared`. */
export const REPLICA_SET_SIZES = SERVICE_SIZES.filter(([cpu]) => cpu !== "shared") as ReadonlyArray<readonly [number, number]>;

/** The pairs of {@link SERVICE_SIZES} as text, for messages: `shared/shared, 500/2, ...`. */
export function describeSizes(sizes: ReadonlyArray<readonly [number | string, number | string]>): string {
  return sizes.map(([cpu, mem]) => `${cpu}/${mem}`).join(", ");
}

/** A name of a service, VPC or replica set: 1 to 128 characters, no control characters. */
export const name = z
  .string({ error: expecting("a string", "expected a string of 1 to 128 characters") })
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\u0000-\u001f\u007f]{1,128}$/u, { error: "expected 1 to 128 characters without control characters" });

/** A project id: 10 characters of `[a-z0-9]`. */
export const projectId = z
  .string({ error: expecting("a string", "expected a project id (10 characters of a-z and 0-9)") })
  .regex(/^[a-z0-9]{10}$/, { error: "expected a project id (10 characters of a-z and 0-9)" });

/** A service or replica set id: 10 characters of `[a-z0-9]`. */
export const serviceId = z
  .string({ error: expecting("a string", "expected a service id (10 characters of a-z and 0-9)") })
  .regex(/^[a-z0-9]{10}$/, { error: "expected a service id (10 characters of a-z and 0-9)" });

/** A VPC or peering id: a decimal number written as a string. */
export const numericId = z
  .string({ error: expecting("a string", 'expected an id made of digits, e.g. "1234"') })
  .regex(/^[0-9]+$/, { error: 'expected an id made of digits, e.g. "1234"' });

/** A region the API offers. */
export const regionCode = z.enum(REGIONS, { error: expecting("a string", `expected one of ${REGIONS.join(", ")}`) });

/** An environment tag. */
export const environment = z.enum(["DEV", "PROD"], { error: expecting("a string", 'expected "DEV" or "PROD"') });

/** A password: 8 to 128 characters. */
export const password = z
  .string({ error: expecting("a string", "expected a string of 8 to 128 characters") })
  .min(8, { error: "expected at least 8 characters" })
  .max(128, { error: "expected at most 128 characters" });

function cidrIsValid(text: string): boolean {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(text);
  if (!match) return false;
  const octets = match.slice(1, 5).map(Number);
  const prefix = Number(match[5]);
  if (octets.some((o) => o > 255) || prefix < 16 || prefix > 28) return false;
  const address = octets.reduce((acc, o) => acc * 256 + o, 0);
  return address % 2 ** (32 - prefix) === 0;
}

/** An IPv4 network, prefix 16 to 28, host bits zero. */
export const cidr = z
  .string({ error: expecting("a string", 'expected an IPv4 network in CIDR notation such as "10.0.0.0/16"') })
  .refine(cidrIsValid, {
    error: 'expected an IPv4 network in CIDR notation with a prefix length of 16 to 28 and the host bits zero, such as "10.0.0.0/16"',
  });

/** A timeout: seconds as a number, or a string such as `"30m"`, from 1 second to 7 days. */
export const duration = z
  .custom<number | string>(isTimeout, {
    error: (issue) =>
      typeof issue.input === "number" || typeof issue.input === "string"
        ? `expected a duration ${TIMEOUT_RANGE_TEXT}: a number of seconds or a string such as "90s", "30m", "1h30m"`
        : `expected a number of seconds or a string such as "30m", not ${typeOf(issue.input)}`,
  })
  .meta({ tsType: "number | string" });

/** The `timeouts` input every resource takes. */
export const timeouts = z.strictObject(
  {
    create: duration.optional().describe("How long `create` waits for the resource to be ready."),
    update: duration.optional().describe("How long `update` waits after each change."),
    delete: duration.optional().describe("How long `delete` waits for the resource to be gone."),
  },
  { error: expecting("an object", "expected an object with optional create, update and delete durations") },
);

/** A boolean flag. */
export const flag = z.boolean({ error: expecting("a boolean", "expected true or false") });

/** A whole number within bounds. */
export function wholeNumber(min: number, max: number): z.ZodNumber {
  const text = `expected a whole number from ${min} to ${max}`;
  return z
    .number({ error: expecting("a number", text) })
    .int({ error: text })
    .min(min, { error: text })
    .max(max, { error: text });
}

/**
 * One of `allowed` sizes: a number, or `"shared"` where `allowShared`. A size no plan has
 * (a number, or `"shared"` where there is no shared plan) is told the sizes; any other
 * value (`"1000"`) is told to be a number.
 */
function sizeOf(allowed: ReadonlyArray<number | string>, allowShared: boolean): z.ZodType<number | "shared"> {
  const type = allowShared ? 'a number (or "shared")' : "a number";
  return z.custom<number | "shared">((v) => allowed.includes(v as number | "shared"), {
    error: (issue) =>
      typeof issue.input === "number" || issue.input === "shared"
        ? `expected one of ${allowed.join(", ")}`
        : `expected ${type}, not ${typeOf(issue.input)}`,
  });
}

/** A CPU allocation in millicores: a number, or `"shared"` where `allowShared`. */
export function cpuMillis(allowShared: boolean): z.ZodType<number | "shared"> {
  return sizeOf(
    (allowShared ? SERVICE_SIZES : REPLICA_SET_SIZES).map(([cpu]) => cpu),
    allowShared,
  );
}

/** A memory allocation in GB: a number, or `"shared"` where `allowShared`. */
export function memoryGbs(allowShared: boolean): z.ZodType<number | "shared"> {
  return sizeOf(
    (allowShared ? SERVICE_SIZES : REPLICA_SET_SIZES).map(([, mem]) => mem),
    allowShared,
  );
}

/** True when `cpu`/`memory` form one of the allowed pairs. */
export function isAllowedPair(sizes: ReadonlyArray<readonly [number | string, number | string]>, cpu: unknown, memory: unknown): boolean {
  return sizes.some(([c, m]) => c === cpu && m === memory);
}
