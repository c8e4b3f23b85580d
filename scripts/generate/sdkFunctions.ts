/**
 * The TypeScript SDK's lookup functions of the resource kinds (`sdk/kindFunctions.ts`):
 * for each lookup a kind's definition declares (framework/kindLookups.ts), its typed wrapper
 * and `...Output` variant, from the lookups' table built from the same declarations
 * (provider/lookups `lookupsOf`), so that a program's function takes the arguments the table
 * documents.
 */
import { lookupsOf, type Lookup } from "../../provider/lookups";
import type { RegisteredResource } from "../../provider/resources/registration";
import { header } from "./header";

/** The arguments' type of `lookup`, `{ vpcId: string; projectId?: string }`, with `= {}` when none is required. */
function argsText(lookup: Lookup): string {
  const args = Object.entries(lookup.args);
  const type = `{ ${args.map(([key, a]) => `${key}${a.required ? "" : "?"}: string`).join("; ")} }`;
  return args.some(([, a]) => a.required) ? `args: ${type}` : `args: ${type} = {}`;
}

/** One lookup's wrapper and its `...Output` variant. */
function functionText(name: string, doc: string, lookup: Lookup, result: string): string {
  return `/** ${doc} */
export function ${name}(${argsText(lookup)}, opts?: FunctionOptions): Promise<${result}> {
  return runLookup(${JSON.stringify(name)}, args, opts) as Promise<${result}>;
}

/** {@link ${name}} taking Inputs, as an Output. */
export const ${name}Output = lifted(${name});`;
}

/** The functions of every kind of `resources` that declares lookups, and their result types. */
export function sdkKindFunctionsFile(resources: readonly RegisteredResource[]): string {
  const table = lookupsOf(resources);
  const results = resources.map((r) => `${r.definition.schema.kind}Result`);
  const functions = resources.flatMap((r) => {
    const declared = r.definition.lookups;
    if (!declared) return [];
    const result = `${r.definition.schema.kind}Result`;
    const one = declared.one;
    return [
      ...(one
        ? [functionText(one.name, `${one.finds}. @throws NotFoundError when there is none with that id.`, table[one.name], result)]
        : []),
      functionText(declared.all.name, declared.all.doc, table[declared.all.name], `${result}[]`),
    ];
  });
  return `${header("provider/resources/*/definition.ts")}/**
 * The resource kinds' lookup functions (sdk/functions.ts exports them), one wrapper of each
 * lookup a kind's definition declares, each with its \`...Output\` variant.
 */
import * as pulumi from "@pulumi/pulumi";
import { runLookup, type FunctionOptions, type InputArgs } from "./lookupCalls";
import type { ${results.join(", ")} } from "./outputs";

export type { ${results.join(", ")} } from "./outputs";

/** \`fn\` taking Inputs and returning an Output: a lookup function's \`...Output\` variant. */
function lifted<A extends object, R>(fn: (args: A, opts?: FunctionOptions) => Promise<R>) {
  return (args: InputArgs<A>, opts?: FunctionOptions): pulumi.Output<R> => pulumi.output(args).apply((plain) => fn(plain as A, opts));
}

${functions.join("\n\n")}
`;
}
