/**
 * The functions of the package schema (`schema.json`), one per function the native plugin
 * serves (the lookups of provider/lookups): its arguments, and what it returns. A lookup of one
 * resource returns that kind's lookup outputs; a lookup of many returns them in a list of the
 * object type `<Kind>Result`.
 */
import { LOOKUPS, type Lookup, type LookupResultShape } from "../../provider/lookups";
import { specsOf, type RegisteredResource } from "../../provider/resources/registration";
import { mayBeAbsent, outputProperty } from "./packageResources";
import type { PackageTypes } from "./packageTypes";
import type { FunctionSpec, ObjectTypeSpec } from "./pulumiSchemaSpec";
import { jsonSchemaOf } from "./typeText";

/** The object of a kind's lookup outputs (those the lookups return: no secrets, no inputs kept). */
function lookupObject(r: RegisteredResource, types: PackageTypes): ObjectTypeSpec {
  const kind = r.definition.schema.kind;
  const outputs = Object.entries(specsOf(r).outputs).filter(([, spec]) => spec.inLookups);
  return {
    type: "object",
    description: `A ${kind} as the lookup functions return it: its outputs, without its secrets and the inputs it keeps.`,
    properties: Object.fromEntries(outputs.map(([key, spec]) => [key, outputProperty(kind, key, spec, types)])),
    required: outputs.filter(([, spec]) => !mayBeAbsent(spec)).map(([key]) => key),
  };
}

/** What a function returns, as the schema's `outputs`. */
function outputsOf(result: LookupResultShape, resources: readonly RegisteredResource[], types: PackageTypes): ObjectTypeSpec {
  if ("schema" in result) {
    const js = jsonSchemaOf(result.schema, "output");
    return { type: "object", description: result.doc, properties: types.fields(js, result.name), required: js.required ?? [] };
  }
  const r = resources.find((x) => x.definition.schema.kind === result.kind);
  if (!r) throw new Error(`provider/lookups: no resource of kind ${result.kind}`);
  const one = lookupObject(r, types);
  if (!("list" in result)) return one;
  return {
    type: "object",
    properties: { [result.list]: { type: "array", items: types.object(`${result.kind}Result`, one), description: result.listDoc } },
    required: [result.list],
  };
}

/** Every function of the package schema, by token (`<package>:index:<name>`). */
export function functionSpecs(resources: readonly RegisteredResource[], types: PackageTypes): Record<string, FunctionSpec> {
  return Object.fromEntries(
    Object.entries(LOOKUPS as Readonly<Record<string, Lookup>>).map(([name, spec]): [string, FunctionSpec] => {
      const args = Object.entries(spec.args);
      const inputs: ObjectTypeSpec = {
        type: "object",
        properties: Object.fromEntries(args.map(([key, a]) => [key, { type: "string", description: a.doc }])),
        required: args.filter(([, a]) => a.required).map(([key]) => key),
      };
      return [
        types.token(name),
        { description: spec.doc, ...(args.length ? { inputs } : {}), outputs: outputsOf(spec.result, resources, types) },
      ];
    }),
  );
}
