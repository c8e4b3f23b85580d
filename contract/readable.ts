/**
 * Which values of an answer can be read as what their field means: the contract's rule of
 * every field whose value can drive a replacement or an update of a resource (contract/README.md,
 * "Readable values"). A value is readable when a request could carry it, by the very rules a
 * request is judged by (rules.ts, sizes.ts, cidr.ts), and a text field is not blank; an open
 * set is read by its shape, not by the values this client knows: a region by the shape of a
 * region code, a status by the spelling of its kind's statuses. Anything else (`""`, spaces, a
 * tab, a value of another type, another field's value: a region where a type belongs, a CIDR
 * where a region belongs, a count out of range, a size pair no plan has) is unreadable: the
 * providers keep what state recorded (for a create, what it sent), say so once, and never
 * change or replace a resource because of it (provider/framework/unreadable.ts).
 *
 * A service type is a closed set here, though the API may add types (CONTRACT.md "Transport"
 * carries them): a type is fixed at creation (no action changes it), so a type this client
 * does not know can never be a change the program asked for, and reading it as one would
 * replace the database. It is carried where nothing is recorded (a lookup), and kept as
 * recorded everywhere else. Statuses stay open (carried, "not yet" to a waiter), but only in
 * their kind's spelling; whether a service is paused is read only from a status the table knows.
 */
import { cidrProblem } from "./cidr";
import { haCountsAllowed, haReplicaCount, name, peerId, replicaSetNodes } from "./rules";
import { DEDICATED_SIZES, SERVICE_SIZES } from "./sizes";
import { classifyStatus, knownStatuses, type WatchedKind } from "./statuses";
import { ENVIRONMENTS, NUMERIC_ID_PATTERN, REGION_SHAPE, SERVICE_TYPES } from "./values";

/** True when `text` holds something besides white space. */
const filled = (text: string): boolean => /\S/.test(text);

/** A readable name of a service, VPC or replica set: one a request could give (rules.ts `name`: its length, no control characters), not blank. */
export function readableName(value: unknown): value is string {
  return typeof value === "string" && filled(value) && name.safeParse(value).success;
}

/** A readable peer account or VPC id: one a request could give (rules.ts `peerId`), not blank. */
export function readablePeerId(value: unknown): value is string {
  return typeof value === "string" && filled(value) && peerId.safeParse(value).success;
}

/** A readable VPC network: one the VPC rule takes (cidr.ts). */
export function readableCidr(value: unknown): value is string {
  return typeof value === "string" && cidrProblem(value) === undefined;
}

/** A readable region: a region code's shape (the API may offer regions this client does not list). */
export function readableRegion(value: unknown): value is string {
  return typeof value === "string" && REGION_SHAPE.test(value);
}

/** A readable service type: one this client knows (see the module comment). */
export function readableServiceType(value: unknown): value is string {
  return typeof value === "string" && (SERVICE_TYPES as readonly string[]).includes(value);
}

/** A readable environment: `DEV` or `PROD`. */
export function readableEnvironment(value: unknown): value is string {
  return typeof value === "string" && (ENVIRONMENTS as readonly string[]).includes(value);
}

/** A readable VPC id where a service shows its VPC: decimal digits, or the whole number they write. */
export function readableVpcId(value: unknown): boolean {
  return (typeof value === "string" && NUMERIC_ID_PATTERN.test(value)) || (Number.isSafeInteger(value) && (value as number) >= 0);
}

/** A readable service size: a pair a service may have (the shared plan shown as 0/0). */
export function readableServiceSize(cpuMillis: unknown, memoryGbs: unknown): boolean {
  return SERVICE_SIZES.some((p) => p.cpuMillis === cpuMillis && p.memoryGbs === memoryGbs);
}

/** A readable replica set size: a pair a replica set may have (never the shared plan). */
export function readableReplicaSetSize(cpuMillis: unknown, memoryGbs: unknown): boolean {
  return DEDICATED_SIZES.some((p) => p.cpuMillis === cpuMillis && p.memoryGbs === memoryGbs);
}

/** A readable number of replica set nodes: one a request could give (rules.ts `replicaSetNodes`). */
export function readableNodes(value: unknown): value is number {
  return replicaSetNodes.safeParse(value).success;
}

/** Readable HA counts: each one a request could give (rules.ts `haReplicaCount`), the synchronous ones at most the others. */
export function readableHaCounts(replicaCount: unknown, syncReplicaCount: unknown): boolean {
  return (
    haReplicaCount.safeParse(replicaCount).success &&
    haReplicaCount.safeParse(syncReplicaCount).success &&
    haCountsAllowed(replicaCount as number, syncReplicaCount as number)
  );
}

/** The spelling of a kind's statuses, from its table: upper or lower case letters and underscores. */
function statusShape(kind: WatchedKind): RegExp {
  return knownStatuses(kind).every((s) => s === s.toUpperCase()) ? /^[A-Z][A-Z0-9_]*$/ : /^[a-z][a-z0-9_]*$/;
}

/** A readable status of `kind`: spelled as its statuses are, known or not (an unknown one is carried, and "not yet" to a waiter). */
export function readableStatus(kind: WatchedKind, value: unknown): value is string {
  return typeof value === "string" && statusShape(kind).test(value);
}

/** A status of `kind` the table knows: only such a status says what it means (a service paused or not). */
export function knownStatus(kind: WatchedKind, value: unknown): value is string {
  return typeof value === "string" && classifyStatus(kind, value) !== "unknown";
}
