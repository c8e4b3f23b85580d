/**
 * A resource type served without a `settings` input (the native plugin, resources/common.ts)
 * may be handed state that records one: written by the dynamic providers (a stack moving to
 * the native plugin) or by plugin 0.2.0, whose resources took their own API, key and project.
 * `read` and `delete` keep using those recorded settings (the resource lives there); a
 * program's `diff` stops when the provider serving it has other ones, rather than managing
 * the resource in another API or project: the way out is an explicit provider with them.
 */
import { SettingsNotServedError } from "./errors";
import { sharedOf } from "./operationContext";
import type { Props } from "./schema";
import { settingsFor, type ProviderSettings } from "./settings";

/** The fields of a `settings` input, in the order they are told. */
const FIELDS = ["apiUrl", "apiKey", "projectId"] as const;

/**
 * @throws SettingsNotServedError when `recorded` (a resource's outputs) records `settings`
 *   one of whose fields differs from the provider's (`served`), naming each such field, its
 *   recorded value (never the key's) and the explicit provider to give instead
 */
export function assertRecordedSettingsServed(kind: string, id: string, recorded: Props, served: ProviderSettings): void {
  const own = sharedOf(recorded).settings;
  if (own === undefined) return;
  const wanted = settingsFor(own);
  const differing = FIELDS.filter((f) => own[f] !== undefined && wanted[f] !== served[f]);
  if (differing.length === 0) return;
  const told = differing.map((f) =>
    f === "apiKey"
      ? "settings.apiKey (a key other than the provider's)"
      : `settings.${f} ${JSON.stringify(wanted[f])} (the provider's: ${JSON.stringify(served[f] ?? "unset")})`,
  );
  const args = FIELDS.filter((f) => own[f] !== undefined).join(", ");
  throw new SettingsNotServedError(
    `clouddb.${kind} ${id}: its state records its own ${told.join(", ")}, from the dynamic providers or plugin 0.2.0; ` +
      "the native provider takes no per-resource `settings`, and planning it with this provider's would manage the resource in another API or project. " +
      `Give the resource an explicit provider with those settings: \`new clouddb.Provider(name, { ${args} })\`, passed as its \`provider\` resource option. Nothing was changed.`,
  );
}
