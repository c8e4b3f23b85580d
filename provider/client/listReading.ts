/**
 * Reading a list answer item by item (CONTRACT.md "Transport": one odd item in a list
 * never spoils the other items). Every item is validated on its own; an item that fails
 * what the client relies on is set aside with its error, so a list skips it while a read
 * of exactly that item fails clearly, naming the field and the value. Each identifier
 * counts once (a gateway may repeat items): every path that reads a list (create
 * recovery, waits, the read cache, the providers' journal) sees one item per id.
 */
import type { z } from "zod";
import type { ListShape } from "../../contract";
import { NotFoundError, ResponseValidationError } from "./errors";
import { validateResponse } from "./validation";

/** An item of a list answer that the client cannot rely on. */
export interface RejectedItem {
  /** Its identifier, when it has one that is a string. */
  id: string | undefined;
  /** Why: the field, what was expected and what came (relative to the item). */
  error: ResponseValidationError;
  /** The item as the API sent it (for create recovery, which must not ignore it). */
  raw: unknown;
}

/** A list answer read item by item. */
export interface ListReading<T> {
  /** The items the client can rely on, in the API's order. */
  items: T[];
  /** The items it cannot, each with its error. */
  rejected: RejectedItem[];
  /**
   * When the request this answer came from was sent (epoch ms, this machine's clock): a list
   * shows what a create made within a bound after its request ended, so what a read proves
   * depends on when it started (createRecovery.ts). Absent where the client does not know it.
   */
  sentAt?: number;
}

/** The identifier of a raw item, when it has a string one. */
function rawId(item: unknown, idField: string): string | undefined {
  if (item === null || typeof item !== "object") return undefined;
  const id = (item as Record<string, unknown>)[idField];
  return typeof id === "string" ? id : undefined;
}

/**
 * Reads `body` as a list of `shape.item`, item by item, each identifier once: the first
 * readable copy of an id, else its first unreadable one (a repeated item is one item, not
 * two). `named` is the operation the caller ran (and the request as `step`).
 *
 * @throws ResponseValidationError only when `body` itself is not an array.
 */
export function readList<S extends z.ZodType>(
  body: unknown,
  shape: ListShape<S>,
  named: { operation: string; step?: string },
): ListReading<z.output<S>> {
  if (!Array.isArray(body)) {
    return { items: validateResponse(shape.item.array(), body, named), rejected: [] };
  }
  const items: z.output<S>[] = [];
  const rejected = new Map<string | number, RejectedItem>();
  const readable = new Set<string>();
  body.forEach((item, index) => {
    const id = rawId(item, shape.idField);
    if (id !== undefined && readable.has(id)) return;
    try {
      items.push(validateResponse(shape.item, item, { ...named, subject: `${shape.noun} ${id ?? `#${index}`} in the list` }));
      if (id !== undefined) {
        readable.add(id);
        rejected.delete(id);
      }
    } catch (err) {
      if (!ResponseValidationError.isInstance(err)) throw err;
      const key = id ?? index;
      if (!rejected.has(key)) rejected.set(key, { id, error: err, raw: item });
    }
  });
  return { items, rejected: [...rejected.values()] };
}

/** What a list says about one identifier. */
export type ItemLookup<T> = { found: T } | { rejected: ResponseValidationError } | { absent: true };

/** Looks `id` up in a list reading, by the identifier `idOf` gives. Never throws. */
export function lookUp<T>(reading: ListReading<T>, id: string, idOf: (item: T) => string): ItemLookup<T> {
  const found = reading.items.find((item) => idOf(item) === id);
  if (found !== undefined) return { found };
  const rejected = reading.rejected.find((r) => r.id === id);
  return rejected === undefined ? { absent: true } : { rejected: rejected.error };
}

/**
 * The 404 of an item that its list does not show (there is no single GET for it), built
 * like the API's own. Never throws.
 * @param operation - the operation the caller ran.
 * @param what - what is missing, e.g. `Replica set x is not among the replica sets of service y`.
 */
export function notListed(operation: string, what: string): NotFoundError {
  return new NotFoundError({
    status: 404,
    code: "NOT_FOUND",
    apiMessage: what,
    operation,
    hint: "Check the identifiers; it may have been deleted.",
  });
}
