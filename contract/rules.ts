/**
 * The API's rule for each kind of value (CONTRACT.md, "Identifiers and values"), as zod
 * schemas: the request schemas of the API description are built from them (the emulator
 * answers 400 with their messages), and so are the provider's input schemas, which `check`
 * runs (a failure's reason names the value, then the message). One rule, one message, for
 * both: `check` accepts exactly what the API accepts.
 */
import { z } from "zod";
import { cidrProblem } from "./cidr";
import { NAME_LENGTH_TEXT, PASSWORD_LENGTH_TEXT } from "./describe";
import { ENVIRONMENTS, FORK_STRATEGIES, LIMITS, NUMERIC_ID_PATTERN, REGIONS, SERVICE_TYPES, SHORT_ID_PATTERN } from "./values";

/** The types a value may be expected to have, as a message names them. */
export type ValueType = "a string" | "a number" | "a boolean" | "an object";

/** The type of a value as a message names it: `a string`, `a number`, `a boolean`, `an array`, `an object`, `null`. */
export function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/**
 * A rule's error for a value that must be of type `type`: `required` when it is missing,
 * `expected <type>, not <its type>` when it is of another type (`cpuMillis: "1000"` is a
 * quoting mistake, not a size no plan has), else `message`.
 */
export function expecting(type: ValueType, message: string): (issue: { readonly input?: unknown }) => string {
  return (issue) =>
    issue.input === undefined ? "required" : typeOf(issue.input) === type ? message : `expected ${type}, not ${typeOf(issue.input)}`;
}

/** An enumeration: `expected "A", "B" or "C"` (and `required` when the value is missing). */
export function oneOf<T extends readonly [string, ...string[]]>(values: T): z.ZodEnum<{ [V in T[number]]: V }> {
  const quoted = values.map((v) => JSON.stringify(v));
  const message = `expected ${quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]}`}`;
  return z.enum(values, { error: expecting("a string", message) });
}

/** A string whose every problem is told by `message`, with `required` when it is missing. */
function text(message: string): z.ZodString {
  return z.string({ error: expecting("a string", message) });
}

// Matching control characters is the point: names may not contain them (Unicode's Cc: C0, DEL and C1).
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
const NAME_TEXT = `expected ${NAME_LENGTH_TEXT} without control characters`;

/** A name of a service, VPC or replica set: {@link LIMITS} `nameMinLength` to `nameMaxLength` characters (code points), no control characters. */
export const name = text(NAME_TEXT)
  .min(LIMITS.nameMinLength, { error: NAME_TEXT })
  .max(LIMITS.nameMaxLength, { error: NAME_TEXT })
  .refine((s) => !CONTROL_CHARACTERS.test(s), { error: NAME_TEXT });

const LABEL_TEXT = `expected ${NAME_LENGTH_TEXT}`;

/** A peer's account id or VPC id: as long as a name may be. */
export const peerId = text(LABEL_TEXT).min(LIMITS.nameMinLength, { error: LABEL_TEXT }).max(LIMITS.nameMaxLength, { error: LABEL_TEXT });

/** A region the API offers. */
export const region = oneOf(REGIONS);
/** An environment tag. */
export const environment = oneOf(ENVIRONMENTS);
/** A service type a create may ask for. */
export const serviceType = oneOf(SERVICE_TYPES);
/** A fork strategy. */
export const forkStrategy = oneOf(FORK_STRATEGIES);

const NUMERIC_ID_TEXT = 'expected an id made of digits, e.g. "1234"';

/** A VPC or peering id: a decimal number written as a string. */
export const numericId = text(NUMERIC_ID_TEXT).regex(NUMERIC_ID_PATTERN, { error: NUMERIC_ID_TEXT });

/** A project, service or replica set id (10 characters of `[a-z0-9]`), `what` naming it in the message. */
export function shortId(what: string): z.ZodString {
  const message = `expected ${what} (10 characters of a-z and 0-9)`;
  return text(message).regex(SHORT_ID_PATTERN, { error: message });
}

const PASSWORD_TEXT = `expected ${PASSWORD_LENGTH_TEXT}`;

/** A password: {@link LIMITS} `passwordMinLength` to `passwordMaxLength` characters. */
export const password = text(PASSWORD_TEXT)
  .min(LIMITS.passwordMinLength, { error: `expected at least ${LIMITS.passwordMinLength} characters` })
  .max(LIMITS.passwordMaxLength, { error: `expected at most ${LIMITS.passwordMaxLength} characters` });

/** A whole number from `min` to `max`. */
export function wholeNumber(min: number, max: number): z.ZodNumber {
  const message = `expected a whole number from ${min} to ${max}`;
  return z
    .number({ error: expecting("a number", message) })
    .int({ error: message })
    .min(min, { error: message })
    .max(max, { error: message });
}

/** HA replicas (`replica_count`, `sync_replica_count`): {@link LIMITS} `haReplicaCountMin` to `haReplicaCountMax`. */
export const haReplicaCount = wholeNumber(LIMITS.haReplicaCountMin, LIMITS.haReplicaCountMax);
/** Nodes of a replica set: {@link LIMITS} `replicaSetNodesMin` to `replicaSetNodesMax`. */
export const replicaSetNodes = wholeNumber(LIMITS.replicaSetNodesMin, LIMITS.replicaSetNodesMax);

/** Whether HA replica counts go together: `sync_replica_count` at most `replica_count`. */
export function haCountsAllowed(replicaCount: number, syncReplicaCount: number): boolean {
  return syncReplicaCount <= replicaCount;
}

/** The body `{environment}` of both set-environment operations. */
export const EnvironmentBody = z.object({ environment });

/** An IPv4 network of a VPC: a prefix length within {@link LIMITS}, host bits zero, no leading zeros (cidr.ts). */
export const cidr = text(`expected an IPv4 network in CIDR notation, such as 10.0.0.0/16`).superRefine((value, ctx) => {
  const problem = cidrProblem(value);
  if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem, input: value });
});

// RFC 3339's date-time (section 5.6): `T` or `t`, `Z`, `z` or an offset, seconds required.
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const TIME_TEXT = "expected an RFC 3339 time such as 2026-01-31T12:00:00Z";

/** An RFC 3339 time. */
export const timestamp = text(TIME_TEXT).refine((s) => RFC3339.test(s) && Number.isFinite(Date.parse(s)), { error: TIME_TEXT });

/** Why a fork's target time is refused for its strategy, or undefined: `PITR` needs one (within the source's life, which only the API can check). */
export function targetTimeProblem(strategy: string, targetTime: string | undefined): string | undefined {
  return strategy === "PITR" && targetTime === undefined
    ? "strategy PITR needs a target time (an RFC 3339 time between the source's creation and now)"
    : undefined;
}
