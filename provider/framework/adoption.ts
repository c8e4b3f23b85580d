import { InputConflictError } from "./errors";

/** A property that cannot change in place: what the program asks for and what exists. */
export type FixedProperty = readonly [property: string, wanted: unknown, found: unknown];

/**
 * Checks that an existing resource can be adopted: every property that cannot change in
 * place must already have the value the program asks for.
 *
 * @param what the resource, e.g. `VPC 12`
 * @throws InputConflictError naming the first property that differs, both values, and
 *   what to do
 */
export function assertAdoptable(what: string, fixed: readonly FixedProperty[]): void {
  for (const [property, wanted, found] of fixed) {
    if (wanted !== found) {
      throw new InputConflictError(
        property,
        `adoptId: ${what} has ${property} ${JSON.stringify(found)} but the program asks for ${JSON.stringify(wanted)}, which cannot change in place; make the program match it to adopt it`,
      );
    }
  }
}

/**
 * The error for an `adoptId` that names nothing.
 *
 * @param what the resource looked for, e.g. `no VPC 12 in project abc`
 */
export function nothingToAdopt(what: string): InputConflictError {
  return new InputConflictError("adoptId", `adoptId: ${what} to adopt`);
}

/** The resources adopted in this process, as `<kind> <id>`. */
const adopted = new Set<string>();

/** Records that a create adopted resource `id` of `kind` (`adoptId`) in this process. */
export function rememberAdopted(kind: string, id: string): void {
  adopted.add(`${kind} ${id}`);
}

/**
 * Whether a create adopted resource `id` of `kind` in this process: a delete of that id is
 * then the old half of a replacement that took the same resource over again. (The SDK
 * registers adopted resources with `retainOnDelete`, so Pulumi calls no delete for them; this
 * covers state written before it did, within the run that replaces them.)
 */
export function adoptedHere(kind: string, id: string): boolean {
  return adopted.has(`${kind} ${id}`);
}
