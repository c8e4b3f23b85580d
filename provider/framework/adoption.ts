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
 * adopts it (or its recorded inputs set `adoptId`), deleted or kept as the user answered
 * (framework/ownership.ts), and otherwise the delete stops, or the replacement that would need
 * it, before anything is created, and says how to answer (never a guess).
 */
import { InputConflictError, OwnershipUnknownError } from "./errors";
import { answerFor, configCommand, envCommand, OWNERSHIP_CONFIG_KEY, OWNERSHIP_ENV, type OwnershipAnswers } from "./ownership";
import { containsUnknown } from "./unknowns";
import type { FixedProperty } from "./outputs";

/** The output that records whether the program adopts the resource (`adoptId`): `true` or `false`; absent in state written before 0.2. */
export const ADOPTED_KEY = "__adopted";

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

/**
 * The resources whose recorded inputs adopt them (`adoptId` in the state's inputs, seen by
 * `check` as its old inputs or by the native plugin's delete), as `<kind> <id>`: what proves,
 * for state of 0.1.0 whose outputs do not record it, that the stack adopted the resource.
 */
const adoptedInState = new Set<string>();

/** Records that the state's inputs of a resource adopt resource `id` of `kind` (`adoptId` among its old inputs). */
export function rememberAdoptedInState(kind: string, id: unknown): void {
  if (typeof id === "string" && id !== "" && !containsUnknown(id)) adoptedInState.add(`${kind} ${id}`);
}

/**
 * Whether this process saw the program: a `check` ran in it. Then its configuration is the
 * stack's of this run (the engine configured the provider the program's resources use), and an
 * answer given with `pulumi config set` reaches it at the next run. A process that saw no
 * `check` (`pulumi destroy`, `refresh`, the dynamic providers deleting while the stack moves
 * to the native plugin) runs with the configuration the stack's last `up` stored.
 */
let programSeen = false;

/** Records that this process saw the program (see {@link programSeen}): called by `check`. */
export function noteProgram(): void {
  programSeen = true;
}

/** What `delete` does with a resource: deletes it, or keeps it in the cloud (and why, for the user). */
export type DeleteDecision = { readonly delete: true } | { readonly delete: false; readonly why: string };

/** How the user's answer reaches the process that deletes: the stack configuration, or (when that process runs with the configuration the last `up` stored) the environment. */
type Reach = "config" | "env";

/**
 * The error that stops an operation that would delete, on a guess, resource `id` of `kind`
 * whose state does not say who made it: what is known, and the two commands (the stack made
 * it; the stack adopted it) that answer, as typed in a shell.
 *
 * @param stopped what is not done: the resource is not `deleted`, or not `replaced` (nothing was created)
 * @param movingToNative the old half is deleted by the dynamic providers during a move to the native plugin
 */
function ownershipUnknown(
  kind: string,
  id: string,
  stopped: "deleted" | "replaced",
  reach: Reach,
  movingToNative = false,
): OwnershipUnknownError {
  const command = reach === "config" ? configCommand : envCommand;
  const state = movingToNative
    ? "its state, written by pulumi-clouddb 0.1.0 and not moved to the native plugin yet, does not record whether this stack made it or adopted it (adoptId)"
    : "its state was written by pulumi-clouddb 0.1.0, which did not record whether this stack made it or adopted it (adoptId)";
  const guess =
    stopped === "replaced"
      ? movingToNative
        ? "; the old one would be deleted by the dynamic providers (pulumi-clouddb, in the program's node_modules), which cannot tell either, and a resource a stack adopted is never deleted on a guess. Nothing was created"
        : ", and nothing in this run says which: the delete of the old one after its replacement could only guess, and a resource a stack adopted is never deleted on a guess. Nothing was created"
      : ", and nothing in this run says which; a resource a stack adopted is never deleted on a guess";
  const where =
    reach === "config"
      ? "Say which, once, then run the command again"
      : "Say which, once, in the environment (the provider that deletes it runs with the configuration the stack's last `pulumi up` with it stored, " +
        "which `pulumi config set` does not change), then run the command again in the same shell";
  const made = stopped === "replaced" ? "it is deleted once its replacement exists" : "it is deleted";
  return new OwnershipUnknownError(
    `${kind} ${id} is not ${stopped}: ${state}${guess}. ${where}: if this stack made it (${made}): \`${command(kind, id, "made")}\`; ` +
      `if this stack adopted it (it stays in the cloud and leaves the stack): \`${command(kind, id, "adopted")}\`.`,
  );
}

/**
 * Whether `delete` may delete resource `id` of `kind` (`what` in messages, e.g. `VPC 12`),
 * whose outputs are `outputs`: not when it was adopted, nor when this run's program adopts
 * it (a replacement taking the same resource over again). Outputs that do not record it
 * (state written by 0.1.0) prove nothing either way: then the state's inputs decide where they
 * set `adoptId`, else the user's answer (framework/ownership.ts), and without one the delete stops.
 *
 * @throws OwnershipUnknownError when the state does not say, nothing in this run does, and the
 *   user has not answered: it prints the commands that answer, in the way that reaches this process
 */
export function deleteDecision(
  kind: string,
  id: string,
  what: string,
  outputs: Record<string, unknown>,
  answers: OwnershipAnswers,
): DeleteDecision {
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
  if (adoptedInState.has(`${kind} ${id}`)) {
    return {
      delete: false,
      why: `${what} is not deleted: its state's inputs adopt it (adoptId, as pulumi-clouddb 0.1.0 recorded them), so it stays in the cloud and leaves the stack`,
    };
  }
  const answer = answerFor(answers, kind, id);
  if (answer === "made") return { delete: true };
  if (answer === "adopted") {
    const from = answers.config.has(`${kind} ${id}`) ? OWNERSHIP_CONFIG_KEY : OWNERSHIP_ENV;
    return {
      delete: false,
      why: `${what} is not deleted: you said the stack adopted it (${from}), so it stays in the cloud and leaves the stack`,
    };
  }
  throw ownershipUnknown(kind, id, "deleted", programSeen ? "config" : "env");
}

/**
 * Stops a replacement, before anything is created, whose old half's delete would stop
 * ({@link deleteDecision}): state that does not record who made resource `id` of `kind`, with
 * nothing in this run and no answer to say. `movingToNative`: the state is still the dynamic
 * providers' and the old half is deleted by them, in a process that reads only the
 * environment's answers (the native plugin's `diff` during a move). Only in a process that saw
 * the program: a refresh diffs too (to show what it found) and must not fail.
 *
 * @throws OwnershipUnknownError saying what to answer, and how
 */
export function assertReplaceable(
  kind: string,
  id: string,
  outputs: Record<string, unknown>,
  answers: OwnershipAnswers,
  movingToNative = false,
): void {
  if (!programSeen || recordedAdoption(outputs) !== undefined) return;
  if (movingToNative) {
    if (answerFor(answers, kind, id, true) === undefined) throw ownershipUnknown(kind, id, "replaced", "env", true);
    return;
  }
  const key = `${kind} ${id}`;
  if (adopted.has(key) || adoptedInState.has(key) || answerFor(answers, kind, id) !== undefined) return;
  throw ownershipUnknown(kind, id, "replaced", "config");
}
