/**
 * Autonaming, as Pulumi's providers do it: when the program sets no `name`, `check` fills
 * one in from the resource's logical name (the last segment of the owner the core is told,
 * `<project>/<stack>/<type>/<name>`) and a random suffix of 7 hex digits, `db-1a2b3c4`.
 *
 * - The name is kept: a `check` that gets old inputs holding one returns it again.
 * - A replacement's `check` gets no old inputs, and so a new name (a create-before-delete
 *   replacement never shares its predecessor's name).
 * - A create that was interrupted (its entry is still in the journal, framework/journal.ts)
 *   is asked for again with the name it was sent with, so that what it made is found by that
 *   exact name.
 * - With `adoptId` and no name, none is made up: the adopted resource keeps its own (and
 *   keeps it when `adoptId` is later removed).
 *
 * Such a name is the resource's own: no other stack's resource has it, so a create whose
 * answer was lost is recovered by that exact name, and by nothing weaker. A name the program
 * sets proves nothing (another stack may use the same one).
 *
 * The dynamic-provider host passes `check` neither the engine's autonaming options nor its
 * random seed (`provider.check(olds, news)` in @pulumi/pulumi/cmd/dynamic-provider), so
 * a preview and the update after it may show two different suffixes: the update's is the
 * one made.
 */
import { randomBytes } from "crypto";
import { LIMITS } from "../../contract/values";
import { AUTONAMED_KEY } from "./internalInputs";
import { entryFile, journalDir, readEntry } from "./journalStore";
import type { Props, WithInputs } from "./schema";
import { endpointSpellings, providerContext } from "./settings";
import { containsUnknown } from "./unknowns";

export { AUTONAMED_KEY } from "./internalInputs";

/** What the documentation of a `name` input says of autonaming. */
export const AUTONAME_DOC =
  "Unset: the resource's name in the program plus a random suffix (`db-1a2b3c4`), kept from then on (a replacement gets a new one); with `adoptId`, the adopted one's.";

/** The logical name in an owner (`<project>/<stack>/<type>/<name>`); `fallback` without one. */
export function logicalNameOf(owner: unknown, fallback: string): string {
  if (typeof owner !== "string" || owner === "") return fallback;
  const parts = owner.split("/");
  return parts.slice(3).join("/") || fallback;
}

/** A new name: `logical` (shortened to fit) and a random suffix of 7 hex digits. */
export function newAutoname(logical: string): string {
  const suffix = randomBytes(4).toString("hex").slice(0, 7);
  return `${logical.slice(0, LIMITS.nameMaxLength - suffix.length - 1)}-${suffix}`;
}

/** The name an interrupted create of this resource was sent with, when it was autonamed and its journal entry tells. Never throws. */
function interruptedName(kind: string, projectId: string | undefined, owner: string): string | undefined {
  const { settings } = providerContext();
  if (settings.apiUrl === undefined || projectId === undefined || owner === "") return undefined;
  // This version's entry, else one an earlier version keyed by the endpoint as it was given.
  for (const url of endpointSpellings(settings)) {
    const stored = readEntry(entryFile(journalDir(), url, projectId, kind, owner));
    if (stored.kind !== "none") return stored.kind === "entry" && stored.entry.autonamed === true ? stored.entry.name : undefined;
  }
  return undefined;
}

/**
 * The checked inputs with the resource's name, as the module comment says: `news` as they
 * are when the program sets a name (or `adoptId`, or the resource has no `name` input, or
 * exists without one), else with `name` filled in and {@link AUTONAMED_KEY} set. `olds` are
 * the old inputs (`{}` on a create or a replacement); `owner` who asks (`<project>/<stack>/<type>/<name>`,
 * the core's request; `""` when unknown).
 */
export function withName(schema: WithInputs & { readonly kind: string }, olds: Props, news: Props, owner: string): Props {
  if (!("name" in schema.inputs) || (news.name !== undefined && news.name !== null)) return withoutMark(news);
  if (news.adoptId !== undefined && news.adoptId !== null) return withoutMark(news);
  if (typeof olds.name === "string") {
    return olds[AUTONAMED_KEY] === true ? { ...news, name: olds.name, [AUTONAMED_KEY]: true } : { ...withoutMark(news), name: olds.name };
  }
  // A resource that exists without a name input (adopted, then `adoptId` removed) keeps the name it has.
  if (Object.keys(olds).length > 0) return withoutMark(news);
  const projectId =
    typeof news.projectId === "string"
      ? containsUnknown(news.projectId)
        ? undefined
        : news.projectId
      : providerContext().settings.projectId;
  const name = interruptedName(schema.kind, projectId, owner) ?? newAutoname(logicalNameOf(owner, schema.kind.toLowerCase()));
  return { ...news, name, [AUTONAMED_KEY]: true };
}

function withoutMark(news: Props): Props {
  if (!(AUTONAMED_KEY in news)) return news;
  const rest = { ...news };
  delete rest[AUTONAMED_KEY];
  return rest;
}

/**
 * The name `check` filled in or the program set; for the operations, which run after
 * `check` (a missing one is a bug: check fills it in unless `adoptId` is set).
 */
export function nameOf(news: { readonly name?: string | undefined }): string {
  if (news.name === undefined) throw new Error("no name: check fills one in when the program sets none");
  return news.name;
}
