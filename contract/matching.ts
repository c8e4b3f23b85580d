/**
 * What "is this the one I made?" is made of. Each kind's API description has one predicate
 * (`fitsVpc`, `fitsPeering`, `fitsService`, `fitsReplicaSet`, beside its create) telling
 * whether a listed item may be what a create made; the create's recovery in the description
 * (a lost answer, settled from a list) and the providers' recovery of an interrupted create
 * (the create journal) both ask it, each giving what it knows the create asked for.
 *
 * A field is compared only when the caller gives it and the item shows it in its documented
 * shape; a field the item does not show (or shows oddly) is unknown, and unknown never
 * excludes: recovery never guesses, so an item it cannot rule out stays a candidate. An
 * item being deleted or gone never fits.
 */
import { hasStatusClass, type WatchedKind } from "./statuses";

/** A listed item seen as its fields by name (a validated loose object, or a raw unreadable one). */
export type Fields = Readonly<Record<string, unknown>>;

/** The object at `path` in `item`, or undefined when it is absent or not an object. */
export function objectAt(item: Fields, ...path: (string | number)[]): Fields | undefined {
  let cur: unknown = item;
  for (const seg of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string | number, unknown>)[seg];
  }
  return cur !== null && typeof cur === "object" ? (cur as Fields) : undefined;
}

/** False only when `value` is shown with the type of `wanted` and differs from it. */
export function agrees(value: unknown, wanted: unknown): boolean {
  if (wanted === undefined || typeof value !== typeof wanted) return true;
  return value === wanted;
}

/** False only when the item shows one of the fields `wanted` gives, by the same name, with another value ({@link agrees}). */
export function agreesOn(item: Fields, wanted: object): boolean {
  return Object.entries(wanted).every(([field, value]) => agrees(item[field], value));
}

/** An amount of a size as the API shows it in `resources[].spec`, from the request's text (`"shared"` is shown as 0). */
export function sizeShown(value: string): number {
  return value === "shared" ? 0 : Number(value);
}

/** True unless the item shows a status of `kind` that is being deleted or gone. */
export function notLeaving(kind: WatchedKind, item: Fields): boolean {
  return !hasStatusClass(kind, item.status, "ending", "gone");
}
