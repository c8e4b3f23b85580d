/**
 * Adoption (`adoptId`): checking that an existing resource can be taken over, and never
 * deleting one a stack took over.
 *
 * Every resource's outputs record whether the program adopts it ({@link ADOPTED_KEY}): set
 * by `create`, kept by `read`, and changed by `update` when the program sets or removes
 * `adoptId` (which `diff` reports as a change: the update sends nothing to the API). `delete`
 * keeps an adopted resource in the cloud, whatever the engine's `retainOnDelete` (the SDK
 * sets it too, but the engine deletes the old half of a replacement under the *old* state's
 * flag, and other languages' programs have no SDK of ours to set it). State written before
 * the record existed (0.1.0) does not say: such a resource is kept when this run's program
 * adopts it, and otherwise the delete stops and says what to do (never a guess).
 */
import { InputConflictError, OwnershipUnknownError } from "./errors";
import { containsUnknown } from "./unknowns";

/** The output that records whether the program adopts the resource (`adoptId`): `true` or `false`; absent in state written before 0.2. */
export const ADOPTED_KEY = "__adopted";

/**
 * A property that cannot change in place: what the program asks for, what exists, and whether
 * the answer showed it readably (contract/readable.ts; true when not said).
 */
export type FixedProperty = readonly [property: string, wanted: unknown, found: unknown, readable?: boolean];

/**
 * Checks that an existing resource can be adopted: every property that cannot change in
 * place must already have the value the program asks for, as the answer shows it readably
 * (an unreadable value proves nothing: the resource is not taken over on it).
 *
 * @param what the resource, e.g. `VPC 12`
 * @throws InputConflictError naming the first property that differs (both values) or that the
 *   answer does not show readably, and what to do
 */
export function assertAdoptable(what: string, fixed: readonly FixedProperty[]): void {
  for (const [property, wanted, found, readable = true] of fixed) {
    if (!readable) {
      throw new InputConflictError(
        property,
        `adoptId: the API's answer does not show ${what}'s ${property} in a shape the provider can read (${JSON.stringify(found) ?? "absent"}), ` +
          `so it cannot be compared with the program's ${JSON.stringify(wanted)} and ${what} is not adopted; run \`pulumi up\` again once the API shows it`,
      );
    }
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

/** Whether inputs adopt a resource: `adoptId` is set (a value not known yet, in a preview, counts). */
export function adopts(inputs: Record<string, unknown>): boolean {
  const id = inputs.adoptId;
  return (id !== undefined && id !== null) || containsUnknown(id);
}

/** What recorded outputs say of the resource: adopted (`true`), made or handed over (`false`), or nothing (state written before the record). */
export function recordedAdoption(outputs: Record<string, unknown> | undefined): boolean | undefined {
  const mark = outputs?.[ADOPTED_KEY];
  return typeof mark === "boolean" ? mark : undefined;
}

/** The resources whose adoption this process saw (a program's `adoptId` in `check`, or a create that adopted), as `<kind> <id>`. */
const adopted = new Set<string>();

/** Records that this run's program adopts resource `id` of `kind` (`adoptId`), seen by `check` or done by `create`. */
export function rememberAdopted(kind: string, id: unknown): void {
  if (typeof id === "string" && id !== "" && !containsUnknown(id)) adopted.add(`${kind} ${id}`);
}

/** What `delete` does with a resource: deletes it, or keeps it in the cloud (and why, for the user). */
export type DeleteDecision = { readonly delete: true } | { readonly delete: false; readonly why: string };

/**
 * Whether `delete` may delete resource `id` of `kind` (`what` in messages, e.g. `VPC 12`),
 * whose outputs are `outputs`: not when it was adopted, nor when this run's program adopts
 * it (a replacement taking the same resource over again). State that does not record it
 * (written by 0.1.0) proves nothing either way.
 *
 * @throws OwnershipUnknownError when the state does not say and nothing in this run does
 */
export function deleteDecision(kind: string, id: string, what: string, outputs: Record<string, unknown>): DeleteDecision {
  if (adopted.has(`${kind} ${id}`)) {
    return {
      delete: false,
      why: `${what} is not deleted: this run's program adopts it (adoptId); it stays in the cloud, and in state under its replacement`,
    };
  }
  const recorded = recordedAdoption(outputs);
  if (recorded === true) {
    return {
      delete: false,
      why: `${what} is not deleted: the stack adopted it (adoptId), so it stays in the cloud and only leaves the stack (remove adoptId from the program, and \`pulumi up\`, to hand it to the stack)`,
    };
  }
  if (recorded === false) return { delete: true };
  throw new OwnershipUnknownError(
    `${what} is not deleted: its state was written by an earlier version of pulumi-clouddb (0.1.0), which did not record whether this stack ` +
      `made it or adopted it with adoptId, and a resource a stack adopted is never deleted. Run \`pulumi up\` once with the program that ` +
      `declares it (it records which, and sends nothing to the API), then run this again; or, to leave it in the cloud, remove it from ` +
      "the stack with `pulumi state delete <urn>`.",
  );
}
