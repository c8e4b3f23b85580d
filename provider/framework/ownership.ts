/**
 * The user's word on who made a resource whose state does not say: state written by
 * pulumi-clouddb 0.1.0, which did not record whether the stack made each resource or adopted it
 * (`adoptId`), and which could take over a same-named resource silently. A delete of such a
 * resource never guesses (framework/adoption.ts); the user answers once, for each resource by
 * its type and id, `made` (the stack made it: it is deleted) or `adopted` (it stays in the
 * cloud and leaves the stack):
 *
 * - `clouddb:ownership` in the stack configuration, an object of resource types, each an
 *   object of ids, each `"made"` or `"adopted"`: `pulumi config set --path
 *   clouddb:ownership.Service.<id> made`. The provider reads it wherever it runs with the
 *   stack's configuration of this run: an `up` whose program declares resources of it.
 * - `CLOUDDB_OWNERSHIP` in the environment, the same object as JSON
 *   (`export CLOUDDB_OWNERSHIP='{"Service":{"<id>":"made"}}'`): for a provider that runs with
 *   the configuration the stack's last `up` stored, which `pulumi config set` does not reach
 *   (`pulumi destroy`; the dynamic providers deleting during a move to the native plugin).
 *
 * Both are read; where both answer for one resource, the stack configuration's answer counts.
 * An answer is read only where state does not record who made the resource: once it does, or
 * once the resource is gone, an answer for its id changes nothing (a stale entry is inert).
 *
 * Assumption (contract/README.md): an id names one resource of its type, so an answer keyed
 * by type and id names exactly the resource the message named; ids of two types may coincide.
 */
import { KINDS } from "./kinds";

/** What the user says of a resource: the stack made it, or it adopted it. */
export type Ownership = "made" | "adopted";

/** The answers, in the order messages name them. */
export const OWNERSHIP_ANSWERS: readonly Ownership[] = ["made", "adopted"];

/** The resource types an answer may name: the `kind` of each definition under provider/resources (the generated list). */
export const OWNERSHIP_KINDS: readonly string[] = KINDS.map((k) => k.kind);

/** The stack config key of the answers. */
export const OWNERSHIP_CONFIG_KEY = "clouddb:ownership";
/** The environment variable of the answers. */
export const OWNERSHIP_ENV = "CLOUDDB_OWNERSHIP";

/** The answers one provider process was given, by `<kind> <id>`. */
export interface OwnershipAnswers {
  /** From `clouddb:ownership`, the configuration this process was given. */
  readonly config: ReadonlyMap<string, Ownership>;
  /** From `CLOUDDB_OWNERSHIP`, this process's environment. */
  readonly env: ReadonlyMap<string, Ownership>;
}

/** No answers. */
export const NO_ANSWERS: OwnershipAnswers = { config: new Map(), env: new Map() };

/** The key of one resource among the answers. */
function keyOf(kind: string, id: string): string {
  return `${kind} ${id}`;
}

/** The answer for resource `id` of `kind` (the stack configuration's first), or undefined; `fromEnvOnly`: the environment's alone. */
export function answerFor(answers: OwnershipAnswers, kind: string, id: string, fromEnvOnly = false): Ownership | undefined {
  const key = keyOf(kind, id);
  return fromEnvOnly ? answers.env.get(key) : (answers.config.get(key) ?? answers.env.get(key));
}

/** What is allowed, for messages. */
const ALLOWED =
  `an object of resource types (${OWNERSHIP_KINDS.join(", ")}), each an object of ids, each ` +
  `${OWNERSHIP_ANSWERS.map((a) => JSON.stringify(a)).join(" or ")}, e.g. {"Service":{"<id>":"made"}}`;

/** A value as the message quotes it: JSON, cut short. */
function quoted(value: unknown): string {
  const text = typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/**
 * Reads the answers from their text: a JSON object (the engine hands a stack config object to a
 * provider as its JSON text), or the object itself (an explicit provider's input).
 *
 * @returns the answers by `<kind> <id>`, or what is wrong with the value (quoting it, naming what is allowed)
 */
export function parseOwnership(value: unknown): { answers: Map<string, Ownership> } | { problem: string } {
  let parsed: unknown = value;
  if (typeof value === "string") {
    try {
      parsed = JSON.parse(value);
    } catch {
      return { problem: `${quoted(value)} is not JSON: expected ${ALLOWED}` };
    }
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    return { problem: `${quoted(value)} is not an object: expected ${ALLOWED}` };
  }
  const answers = new Map<string, Ownership>();
  for (const [kind, ids] of Object.entries(parsed)) {
    if (!OWNERSHIP_KINDS.includes(kind)) {
      return { problem: `${quoted(kind)} is no resource type: expected one of ${OWNERSHIP_KINDS.join(", ")} (${ALLOWED})` };
    }
    if (ids === null || typeof ids !== "object" || Array.isArray(ids)) {
      return { problem: `${kind} is ${quoted(ids)}: expected an object of ids, each "made" or "adopted" (${ALLOWED})` };
    }
    for (const [id, answer] of Object.entries(ids as Record<string, unknown>)) {
      if (id.trim() === "") return { problem: `${kind} has an empty id: expected ${ALLOWED}` };
      if (!OWNERSHIP_ANSWERS.includes(answer as Ownership)) {
        return { problem: `${kind} ${id} is ${quoted(answer)}: expected "made" or "adopted"` };
      }
      answers.set(keyOf(kind, id), answer as Ownership);
    }
  }
  return { answers };
}

/** `text` as one word of a POSIX shell: as it is when it holds nothing the shell reads, else single-quoted. */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_.:/=@%+,-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}

/**
 * The command that gives `answer` for resource `id` of `kind` in the stack configuration. An id
 * that is not a plain word (the API's ids are) goes in brackets, quoted, so that no character of
 * it is read as a path or by the shell.
 */
export function configCommand(kind: string, id: string, answer: Ownership): string {
  const path = /^[A-Za-z0-9_-]+$/.test(id)
    ? `${OWNERSHIP_CONFIG_KEY}.${kind}.${id}`
    : `${OWNERSHIP_CONFIG_KEY}.${kind}[${JSON.stringify(id)}]`;
  return `pulumi config set --path ${shellWord(path)} ${answer}`;
}

/** The command that gives `answer` for resource `id` of `kind` in the environment of the commands that follow it. */
export function envCommand(kind: string, id: string, answer: Ownership): string {
  return `export ${OWNERSHIP_ENV}=${shellWord(JSON.stringify({ [kind]: { [id]: answer } }))}`;
}
