/**
 * What proves that a listed item is what a create whose answer was lost made, and what one
 * look at the list settles (createRecovery.ts runs the looks): the pure half of create
 * recovery. No clock decides ownership: an item is the create's by its unique name, by its
 * absence from the list read just before the request, or by the id a readable answer named;
 * by nothing else.
 */
import type { Fields } from "../../contract";
import type { CreatedIds } from "./createdIds";
import { ApiError, ForeignResourceError, NetworkError, NotTheApiError, RedirectError, ResponseValidationError } from "./errors";
import type { ListReading } from "./listReading";
import type { AttemptRecord } from "./operations";

/** What proves that a listed item is what a create made. */
export type Proof =
  /** Its exact name, unique to this create. */
  | { by: "name"; name: string }
  /** Its absence from the list read just before the request (undefined when that list could not be read). */
  | { by: "snapshot"; before: ReadonlySet<string> | undefined }
  /** Nothing: any item that fits may be another client's. */
  | { by: "nothing" };

/** A listed item that fits the request: readable (`item`) or not. */
export interface Candidate<T> {
  id: string;
  fields: Fields;
  item: T | undefined;
}

/** How recovery settled one look at the list. */
export type Settled<T> = { taken: Candidate<T> } | { none: true } | { ambiguous: Candidate<T>[]; why: string };

/** What {@link judge} needs to know of a create. */
export interface Judged {
  /** What it makes, as its list names it (`service`). */
  readonly noun: string;
  /** How a person knows it, for messages. */
  readonly label: string;
  /** Whether a listed item fits the request. */
  readonly fits: (item: Fields) => boolean;
  /** What proves ownership. */
  readonly proof: Proof;
}

/** Fields of a resource, for the matchers (every answer is a loose object). */
export function fieldsOf(item: unknown): Fields {
  return item !== null && typeof item === "object" ? (item as Fields) : {};
}

/** A short account of how an outcome became unknown, for messages. */
export function describeFailure(failure: unknown): string {
  if (ApiError.isInstance(failure)) return `its answer was lost: ${failure.status} ${failure.code}`;
  if (NetworkError.isInstance(failure)) return `no whole answer came: ${failure.causeCode ?? "connection closed"}`;
  if (ResponseValidationError.isInstance(failure)) return `its answer could not be read: field \`${failure.path}\` was ${failure.received}`;
  if (NotTheApiError.isInstance(failure)) {
    return `its answer was not the API's but a ${failure.status} ${failure.title === undefined ? "page" : `page titled "${failure.title}"`} of something between this machine and the API`;
  }
  if (RedirectError.isInstance(failure)) {
    return `it was answered with a ${failure.status} redirect${failure.location === undefined ? "" : ` to ${failure.location}`}, which a server may send after it acted`;
  }
  return failure instanceof Error ? failure.message : String(failure);
}

/** The candidates of a list reading, each id once (a gateway may repeat items; a readable copy wins). */
export function candidatesOf<T>(reading: ListReading<T>, idField: string): Candidate<T>[] {
  const byId = new Map<string, Candidate<T>>();
  for (const item of reading.items) {
    const id = String(fieldsOf(item)[idField]);
    if (!byId.has(id)) byId.set(id, { id, fields: fieldsOf(item), item });
  }
  for (const r of reading.rejected) {
    // An item of another project is not what a create sent to this one made.
    if (ForeignResourceError.isInstance(r.error)) continue;
    if (r.id !== undefined && !byId.has(r.id)) byId.set(r.id, { id: r.id, fields: fieldsOf(r.raw), item: undefined });
  }
  return [...byId.values()];
}

/**
 * What one look at the list (`listed`) settles for `create`, by its proof: the one item it
 * made (taken), none, or several or unprovable ones (ambiguous, saying why). `ids` is what the
 * client knows of ids (its own creates' are never candidates); `attempt` the request whose
 * answer was lost; `namedId` the id an unreadable 2xx named.
 */
export function judge<T>(
  create: Judged,
  ids: CreatedIds,
  listed: Candidate<T>[],
  attempt: AttemptRecord,
  namedId: string | undefined,
): Settled<T> {
  const fitting = listed.filter((c) => !ids.isOwned(create.noun, c.id) && create.fits(c.fields));
  const one = (found: Candidate<T>[], why: string): Settled<T> =>
    found.length === 0 ? { none: true } : found.length === 1 ? { taken: found[0] } : { ambiguous: found, why };
  if (namedId !== undefined)
    return one(
      fitting.filter((c) => c.id === namedId),
      "several items carry the id its answer named",
    );
  const { proof } = create;
  if (proof.by === "name") {
    const mine = fitting.filter((c) => c.fields.name === proof.name);
    const unknown = fitting.filter((c) => typeof c.fields.name !== "string");
    if (mine.length === 0 && unknown.length > 0) {
      return {
        ambiguous: unknown,
        why: `the list does not show the name of ${unknown.length === 1 ? "this one" : "these"}, so the client cannot tell`,
      };
    }
    return one(
      mine,
      `${mine.length} ${create.noun}s carry the name ${JSON.stringify(proof.name)}, which is this create's own: the request was carried out more than once (a gateway repeated it)`,
    );
  }
  if (proof.by === "snapshot" && proof.before !== undefined) {
    const before = proof.before;
    return one(
      fitting.filter((c) => !before.has(c.id)),
      `several ${create.noun}s that fit it appeared while it was under way, and the client does not guess which one is its own`,
    );
  }
  // New unless an answer showed it before the request went out: what this client saw, never a clock.
  const sentAt = attempt.trace.sentAt ?? Date.now();
  const maybeNew = fitting.filter((c) => !ids.seenBefore(create.noun, c.id, sentAt));
  if (maybeNew.length === 0) return { none: true };
  return {
    ambiguous: maybeNew,
    why:
      proof.by === "snapshot"
        ? `the list could not be read before it was sent, so the client cannot tell which ${create.noun} is new`
        : `its name ${create.label} is not unique to this create, so ${maybeNew.length === 1 ? "this one" : "each of them"} may be another client's (another stack's): the client takes over only what it can prove it made`,
  };
}
