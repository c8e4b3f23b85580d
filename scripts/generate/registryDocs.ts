/**
 * The configuration table of the Registry's installation page
 * (`docs/installation-configuration.md`), between `<!-- generated:config -->` and
 * `<!-- /generated:config -->`: one row per configuration key of the package schema (the
 * keys the settings read, packageConfig.ts), with its variable, default and meaning.
 */
import type { PackageConfig } from "./packageConfig";

const START = "<!-- generated:config -->";
const END = "<!-- /generated:config -->";

/** `page` with its configuration table regenerated from `config`. */
export function withConfigTable(page: string, config: PackageConfig): string {
  const a = page.indexOf(START);
  const b = page.indexOf(END);
  if (a < 0 || b < a) throw new Error(`docs/installation-configuration.md has no ${START} ... ${END} block`);
  const rows = Object.entries(config.variables).map(([name, v]) => {
    const env = (v.defaultInfo?.environment ?? []).map((e) => `\`${e}\``).join(", ");
    const dflt = v.default === undefined ? "" : `\`${String(v.default)}\``;
    return `| \`${config.namespace}:${name}\` | ${env} | ${dflt} | ${(v.description ?? "").replace(/\|/g, "\\|")}${v.secret ? " (secret)" : ""} |`;
  });
  const table = ["| configuration key | environment variable | default | meaning |", "|---|---|---|---|", ...rows].join("\n");
  return `${page.slice(0, a + START.length)}\n${table}\n${page.slice(b)}`;
}
