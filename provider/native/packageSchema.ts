/**
 * The package schema the plugin serves (GetSchema) and its version (GetPluginInfo): the
 * repository's `schema.json`, which `npm run generate` derives from the definitions and the
 * package's version, compiled in (so the single-file build carries it too).
 */
import schemaJson from "../../schema.json";

/** The package schema, as JSON text. */
export const PACKAGE_SCHEMA: string = JSON.stringify(schemaJson);

/** The plugin's version: the package's, as the schema records it. */
export const PLUGIN_VERSION: string = schemaJson.version;

/** The configuration keys the schema declares secret (`apiKey`): an explicit provider's input of that name is stored secret, however it was given. */
export const SECRET_CONFIG_KEYS: readonly string[] = Object.entries(schemaJson.config.variables as Record<string, { secret?: boolean }>)
  .filter(([, v]) => v.secret === true)
  .map(([k]) => k);
