/**
 * What identifies one create (the same resource of the same stack, asked for again), as the
 * journal (journal.ts) keys and compares its entries.
 */
import { DEFAULT_REQUEST_TIMEOUT_MS } from "../client/config";
import type { JournalEntry } from "./journalStore";

/** What identifies one create: the same resource of the same stack, asked for again. */
export interface CreateIntent {
  /** The API's endpoint in its one form (settings.ts `apiUrl`): what the journal keys entries by. */
  readonly apiUrl: string;
  /** The endpoint as it was given, where it differs: what earlier versions keyed entries by (still looked up). */
  readonly apiUrlAsGiven?: string;
  readonly projectId: string;
  /** The resource type, e.g. `Service`. */
  readonly kind: string;
  /** What it is called in messages, e.g. `service`, `read replica set`. */
  readonly noun: string;
  /** The stack and resource asking (`__owner`); empty for programs of SDKs that did not send it. */
  readonly owner: string;
  /** The fields that identify what is made (name, type, region, parent id, ...; the name too, as 0.1 keyed entries by it). */
  readonly identity: Readonly<Record<string, string>>;
  /** The name the create sends, when the resource has one. */
  readonly name?: string;
  /** True when `name` is the resource's own (autonamed): what bears it is what this resource made. */
  readonly autonamed: boolean;
  /** The bound within which the API's list shows what a create made, from its request's end, ms (settings `listLagMs`). */
  readonly listLagMs: number;
  /** The longest one request lasts, ms (settings `requestTimeoutMs`): with the create's deadline, when its request ended at the latest. */
  readonly requestTimeoutMs: number;
}

/**
 * The intent of a create of `kind` (`noun` in messages) in `projectId`, identified by
 * `identity`, that a provider call (`ctx`) makes, sending `name` when the resource has one.
 */
export function intentOf(
  ctx: {
    readonly settings: {
      readonly apiUrl?: string;
      readonly apiUrlAsGiven?: string;
      readonly listLagMs: number;
      readonly requestTimeoutMs?: number;
    };
    readonly owner: string;
    readonly autonamed: boolean;
  },
  what: { readonly kind: string; readonly noun: string },
  projectId: string,
  identity: CreateIntent["identity"],
  name?: string,
): CreateIntent {
  const named = name === undefined ? {} : { name };
  const asGiven = ctx.settings.apiUrlAsGiven;
  return {
    apiUrl: ctx.settings.apiUrl ?? "",
    ...(asGiven === undefined ? {} : { apiUrlAsGiven: asGiven }),
    projectId,
    ...what,
    owner: ctx.owner,
    identity,
    ...named,
    autonamed: ctx.autonamed && name !== undefined,
    listLagMs: ctx.settings.listLagMs,
    requestTimeoutMs: ctx.settings.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
  };
}

/**
 * True when `entry` records `intent`: the same identity, without the name when a name of the
 * resource's own is not part of what it is.
 */
export function sameIntent(entry: Pick<JournalEntry, "identity" | "autonamed">, intent: CreateIntent): boolean {
  const strip = (identity: Readonly<Record<string, string>>, autonamed: boolean) =>
    JSON.stringify(
      Object.entries(identity)
        .filter(([k]) => !(autonamed && k === "name"))
        .sort(([a], [b]) => a.localeCompare(b)),
    );
  return (
    (entry.autonamed === true) === intent.autonamed && strip(entry.identity, intent.autonamed) === strip(intent.identity, intent.autonamed)
  );
}
