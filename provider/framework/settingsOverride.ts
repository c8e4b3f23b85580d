/**
 * What one resource says of the API it is in, in place of the stack's configuration (its
 * `settings` input), and what a raw `settings` input stands for when `check` judges it.
 */
import { UNKNOWN } from "./unknowns";

/**
 * What one resource says of the API it is in (its `settings` input): its endpoint, key and
 * default project, in place of the stack's. How one program manages several projects or API
 * keys, as a Registry package's explicit provider instances do.
 */
export interface SettingsOverride {
  readonly apiUrl?: string;
  readonly apiKey?: string;
  readonly projectId?: string;
}

/**
 * What a resource's raw `settings` input stands for when `check` judges the configuration:
 * each field it gives. A field not known yet (a preview), or of a type `check` refuses as an
 * input, stands for a value of its own, so that the stack's setting it replaces is not judged
 * (and not reported missing); a `settings` not known yet stands for all three.
 */
export function givenSettings(raw: unknown): SettingsOverride {
  if (raw === UNKNOWN) return { apiUrl: UNKNOWN, apiKey: UNKNOWN, projectId: UNKNOWN };
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return {};
  const given = raw as Record<string, unknown>;
  const fields = (["apiUrl", "apiKey", "projectId"] as const).filter((k) => given[k] !== undefined && given[k] !== null);
  return Object.fromEntries(fields.map((k) => [k, typeof given[k] === "string" ? given[k] : UNKNOWN]));
}
