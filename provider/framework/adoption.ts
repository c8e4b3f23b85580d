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
