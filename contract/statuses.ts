/**
 * The status rules of each resource that has a status, as data: which statuses are ready,
 * which are failures, which move on by themselves, which stay until someone acts, and which
 * mean the resource is going or gone. The client's waiters judge every observation with
 * {@link waitVerdict}, the classification of a 409 uses {@link curableByWaiting}, and the
 * rest asks {@link hasStatusClass} or {@link statusesIn}; no other code spells out a status
 * rule, and code that names one status takes its name from {@link SERVICE_STATUS},
 * {@link REPLICA_SET_STATUS} or {@link PEERING_STATUS}.
 *
 * A status the table does not know (the API added one) is neither ready nor failed: a
 * waiter keeps waiting (CONTRACT.md, "Transport").
 */

/** The resources that have a status, as the waiters and errors name them. */
export type WatchedKind = "service" | "replica set" | "peering";

/**
 * The classes of status, in the order a status is looked up, by what they mean for someone
 * waiting:
 * - `ready`: the usual goal of a wait: the resource is usable;
 * - `failed`: it went wrong and will not recover by itself: a waiter fails at once;
 * - `transitional`: it is moving on by itself toward another status;
 * - `dormant`: settled but not usable, until someone acts (a paused service waits for a start);
 * - `ending`: it is being deleted: it moves on by itself, but only toward gone;
 * - `gone`: it is deleted (some APIs show this before answering 404).
 */
export const STATUS_CLASSES = ["ready", "failed", "transitional", "dormant", "ending", "gone"] as const;

/** The statuses of one resource, by class ({@link STATUS_CLASSES}). */
export type StatusRules = { readonly [C in (typeof STATUS_CLASSES)[number]]: readonly string[] };

/**
 * The rules of every resource kind (SPEC.md section 3, CONTRACT.md "States"). Service
 * statuses are upper case, replica set and peering statuses lower case, as the API spells
 * them.
 */
export const STATUS_RULES = {
  service: {
    ready: ["READY"],
    failed: ["UNSTABLE"],
    transitional: ["QUEUED", "CONFIGURING", "PAUSING", "RESUMING", "UPGRADING", "OPTIMIZING"],
    dormant: ["PAUSED"],
    ending: ["DELETING"],
    gone: ["DELETED"],
  },
  "replica set": {
    ready: ["active"],
    failed: ["error"],
    transitional: ["creating", "resizing"],
    dormant: [],
    ending: ["deleting"],
    gone: [],
  },
  peering: {
    ready: ["active"],
    failed: ["failed"],
    transitional: ["pending"],
    dormant: [],
    ending: [],
    gone: [],
  },
} as const satisfies Record<WatchedKind, StatusRules>;

/** What a status means: one of the {@link StatusRules} classes, or `unknown` for a status the table does not list. */
export type StatusClass = keyof StatusRules | "unknown";

/** The statuses the table lists for a kind in classes `C` (a union of string literals): `StatusIn<"service", "ready" | "dormant">` is `"READY" | "PAUSED"`. */
export type StatusIn<K extends WatchedKind, C extends keyof StatusRules> = (typeof STATUS_RULES)[K][C][number];

/** The statuses the table lists for a kind (a union of string literals). */
export type KnownStatus<K extends WatchedKind> = StatusIn<K, keyof StatusRules>;

/** The statuses the table lists for `kind` in any of `classes`, in the table's order. Never throws. */
export function statusesIn<K extends WatchedKind, C extends keyof StatusRules>(kind: K, ...classes: readonly C[]): StatusIn<K, C>[] {
  const rules: StatusRules = STATUS_RULES[kind];
  return STATUS_CLASSES.filter((c) => (classes as readonly string[]).includes(c)).flatMap((c) => rules[c]) as StatusIn<K, C>[];
}

/** Every status the table lists for `kind`, in the table's order. Never throws. */
export function knownStatuses<K extends WatchedKind>(kind: K): KnownStatus<K>[] {
  const rules: StatusRules = STATUS_RULES[kind];
  return STATUS_CLASSES.flatMap((c) => rules[c]) as KnownStatus<K>[];
}

/** The statuses of a kind by name, each its own value: `SERVICE_STATUS.READY` is `"READY"`. */
export type StatusNames<K extends WatchedKind> = { readonly [S in KnownStatus<K>]: S };

function namesOf<K extends WatchedKind>(kind: K): StatusNames<K> {
  return Object.freeze(Object.fromEntries(knownStatuses(kind).map((s) => [s, s]))) as StatusNames<K>;
}

/**
 * A service's statuses by name. Code that names one status (a wait's goal, a step of a
 * transition) takes it from here or from the kind's own names below, so that it is the
 * table's: a status the table does not list does not compile (tests/unit/statusLiterals.test.ts
 * finds one written as a literal in provider/ or emulator/).
 */
export const SERVICE_STATUS = namesOf("service");
/** A replica set's statuses by name (see {@link SERVICE_STATUS}). */
export const REPLICA_SET_STATUS = namesOf("replica set");
/** A peering's statuses by name (see {@link SERVICE_STATUS}). */
export const PEERING_STATUS = namesOf("peering");

/** The class of `status` for `kind`; `unknown` for a status the table does not list (or none). Never throws. */
export function classifyStatus(kind: WatchedKind, status: string | undefined): StatusClass {
  if (status === undefined) return "unknown";
  const rules: StatusRules = STATUS_RULES[kind];
  return STATUS_CLASSES.find((c) => rules[c].includes(status)) ?? "unknown";
}

/**
 * Whether `status` of `kind` (as read: anything but a string counts as no status) is in one
 * of `classes`; false for a status the table does not list, unless `unknown` is among them.
 * Never throws.
 */
export function hasStatusClass(kind: WatchedKind, status: unknown, ...classes: readonly StatusClass[]): boolean {
  return classes.includes(classifyStatus(kind, typeof status === "string" ? status : undefined));
}

/** What one observed status means for a wait. */
export type WaitVerdict = "done" | "fail" | "continue";

/**
 * Judges a status seen while waiting for one of `awaited`: `done` when it is awaited,
 * `fail` when it is a failure status not awaited (the resource will not get there by
 * itself), `continue` otherwise, an unknown status included. Never throws.
 */
export function waitVerdict(kind: WatchedKind, status: string | undefined, awaited: readonly string[]): WaitVerdict {
  if (status !== undefined && awaited.includes(status)) return "done";
  return classifyStatus(kind, status) === "failed" ? "fail" : "continue";
}

/**
 * Whether a resource in `status` can become ready without anyone acting: true while it is
 * ready (the conflict is over), moving on its own, or in a status the table does not know
 * (the API's news; treated as "not yet", like a waiter does); false when it failed, is
 * dormant, is being deleted or is gone. Never throws.
 */
export function curableByWaiting(kind: WatchedKind, status: string | undefined): boolean {
  const cls = classifyStatus(kind, status);
  return cls === "ready" || cls === "transitional" || cls === "unknown";
}
