/**
 * The inputs every resource carries besides its schema's: the serialized provider (Pulumi's
 * own), and what the SDK adds from the program's context and options. Imported by the SDK's
 * constructor and the provider, so each name is written once.
 */

/** Pulumi's serialized provider text. */
export const PROVIDER_KEY = "__provider";

/**
 * `<project>/<stack>/<type>/<name>` of the resource, added by the SDK: a create interrupted in
 * one stack is never taken over by another (framework/journal.ts).
 */
export const OWNER_KEY = "__owner";

/**
 * The program's `replaceOnChanges` paths, added by the SDK: the dynamic-provider host answers
 * Diff without the changed keys the engine matches the option against, so the provider's
 * `diff` applies it (framework/replaceOnChanges.ts).
 */
export const REPLACE_ON_CHANGES_KEY = "__replaceOnChanges";

/** The input `check` adds when it made the name up (framework/autonaming.ts): the name is the resource's own. */
export const AUTONAMED_KEY = "__autonamed";

/** Every key above: never an input of a schema, never reported as unknown by `check`. */
export const INTERNAL_KEYS: ReadonlySet<string> = new Set([PROVIDER_KEY, OWNER_KEY, REPLACE_ON_CHANGES_KEY, AUTONAMED_KEY]);

/**
 * The type token of a resource of kind `kind` registered through the dynamic providers
 * (`pulumi-nodejs:dynamic/clouddb:<Kind>`, as `pulumi.dynamic.Resource` names it): what the
 * TypeScript SDK registers, and what the native types (`clouddb:index:<Kind>`) alias.
 */
export function dynamicTypeOf(kind: string): string {
  return `pulumi-nodejs:dynamic/clouddb:${kind}`;
}
