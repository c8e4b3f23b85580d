/**
 * The README's resource tables, generated from the resource schemas: each lives between
 * `<!-- generated:<Kind> -->` and `<!-- /generated:<Kind> -->`. A resource type without its
 * block yet gets a section of its own (heading, the schema's doc, the block), added after
 * the last resource's section, before "### Functions"; the prose around it is the README's.
 */
import type { InputSpec } from "../../provider/framework/schema";
import { specsOf, type RegisteredResource } from "../../provider/resources/registration";
import { typeText } from "./typeText";

const CHANGE: Record<InputSpec["change"], string> = {
  "in-place": "in place",
  replace: "**replace**",
  "create-only": "read at create only",
};

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n\s*/g, " ");
}

/** The table of one resource. */
export function resourceTable(r: RegisteredResource): string {
  const { inputs, outputs } = specsOf(r);
  const rows = Object.entries(inputs).map(([key, spec]) => {
    const type = spec.sdkType ?? typeText(spec.schema, "output");
    const name = `\`${key}\`${spec.required ? " (required)" : ""}${spec.secret ? " (secret)" : ""}`;
    const dflt = spec.default === undefined ? "" : `\`${JSON.stringify(spec.default)}\``;
    return `| ${name} | ${cell(`\`${type}\``)} | ${dflt} | ${CHANGE[spec.change]} | ${cell(spec.doc)} |`;
  });
  const outs = Object.entries(outputs).map(([key, spec]) => `\`${key}\`${spec.secret ? " (secret)" : ""}`);
  return ["| argument | type | default | on change | |", "|---|---|---|---|---|", ...rows, "", `Outputs: ${outs.join(", ")}.`].join("\n");
}

/** The heading before which a new resource's section goes. */
const AFTER_RESOURCES = "### Functions";

/** `readme` with a new section for `kind` (its heading, `doc` and an empty table block). */
function withSection(readme: string, kind: string, doc: string, start: string, end: string): string {
  const at = readme.indexOf(AFTER_RESOURCES);
  if (at < 0) throw new Error(`README.md has no ${start} block, and no "${AFTER_RESOURCES}" heading to add one before`);
  return `${readme.slice(0, at)}### \`${kind}\`\n\n${doc}\n\n${start}\n${end}\n\n${readme.slice(at)}`;
}

/** `readme` with every resource's table regenerated. */
export function withResourceTables(readme: string, resources: readonly RegisteredResource[]): string {
  let out = readme;
  for (const r of resources) {
    const kind = r.definition.schema.kind;
    const start = `<!-- generated:${kind} -->`;
    const end = `<!-- /generated:${kind} -->`;
    if (!out.includes(start)) out = withSection(out, kind, r.definition.schema.doc, start, end);
    const a = out.indexOf(start);
    const b = out.indexOf(end);
    if (a < 0 || b < a) throw new Error(`README.md has no ${start} ... ${end} block`);
    out = `${out.slice(0, a + start.length)}\n${resourceTable(r)}\n${out.slice(b)}`;
  }
  return out;
}
