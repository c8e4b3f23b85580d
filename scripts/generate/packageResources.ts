/**
 * The resources of the package schema (`schema.json`), one per definition: its inputs
 * (`inputProperties`, `requiredInputs`), its outputs (`properties`, `required`) and what
 * its lookup takes (`stateInputs`), each property with its type, documentation, secrecy,
 * whether a change replaces, and its default. The inputs are the native plugin's
 * (`nativeSchema`): none that only the dynamic providers take (`timeouts`, `settings`).
 */
import { nativeSchema, type InputSpec, type OutputSpec, type ResourceSchema } from "../../provider/framework/schema";
import type { RegisteredResource } from "../../provider/resources/registration";
import { namesAtResource, type PackageTypes } from "./packageTypes";
import type { PropertySpec, ResourceSpec } from "./pulumiSchemaSpec";
import { jsonSchemaOf } from "./typeText";

/**
 * The default the schema declares for an input: its definition's default when that is a
 * primitive, and not when the input keeps its recorded value when unset (`unsetKeeps`):
 * Pulumi's SDKs fill a declared default into the inputs they send, so a fork would ask
 * for `"TIMESERIES"` instead of keeping its source's type.
 */
function declaredDefault(spec: InputSpec): boolean | number | string | undefined {
  const d = spec.default;
  const primitive = typeof d === "boolean" || typeof d === "number" || typeof d === "string";
  return primitive && spec.unsetKeeps === undefined ? d : undefined;
}

/** An input's property: a default the schema cannot declare (an object, or one `unsetKeeps` overrides) is said in its description. */
function inputProperty(kind: string, key: string, spec: InputSpec, types: PackageTypes): PropertySpec {
  const type = types.typeSpec(jsonSchemaOf(spec.schema, "input"), namesAtResource(kind, key, spec.doc), spec.sdkType);
  const dflt = declaredDefault(spec);
  const said = spec.default !== undefined && dflt === undefined ? ` Default: \`${JSON.stringify(spec.default)}\`.` : "";
  return {
    ...type,
    description: `${spec.doc}${said}`,
    ...(dflt === undefined ? {} : { default: dflt }),
    ...(spec.secret ? { secret: true } : {}),
    ...(spec.change === "replace" ? { replaceOnChanges: true } : {}),
  };
}

/** An output's property. */
export function outputProperty(kind: string, key: string, spec: OutputSpec, types: PackageTypes): PropertySpec {
  const type = types.typeSpec(jsonSchemaOf(spec.schema, "output"), namesAtResource(kind, key, spec.doc), spec.sdkType);
  return { ...type, description: spec.doc, ...(spec.secret ? { secret: true } : {}) };
}

/** Whether an output may be absent from a resource (its schema accepts `undefined`). */
export function mayBeAbsent(spec: OutputSpec): boolean {
  return spec.schema.safeParse(undefined).success;
}

/** The resource spec of one definition; its object and enum types are declared in `types`. */
export function resourceSpec(r: RegisteredResource, types: PackageTypes): ResourceSpec {
  const schema = nativeSchema(r.definition.schema as ResourceSchema);
  const kind = schema.kind;
  const { inputs, outputs } = schema;
  const inputProperties = Object.fromEntries(Object.entries(inputs).map(([key, spec]) => [key, inputProperty(kind, key, spec, types)]));
  const lookup = Object.fromEntries(
    schema.lookup.map((key) => {
      // The value's type, description and secrecy; whether a change replaces, or its default, is not a lookup's.
      const { default: _default, replaceOnChanges: _replaces, ...typed } = inputProperties[key];
      return [key, typed];
    }),
  );
  return {
    description: `${schema.doc}\n\n## Example Usage\n\n\`\`\`typescript\n${schema.example}\n\`\`\``,
    inputProperties,
    requiredInputs: Object.keys(inputs).filter((key) => inputs[key].required),
    properties: Object.fromEntries(Object.entries(outputs).map(([key, spec]) => [key, outputProperty(kind, key, spec, types)])),
    required: Object.keys(outputs).filter((key) => !mayBeAbsent(outputs[key])),
    stateInputs: { type: "object", description: `What a lookup (\`${kind}.get\`) takes besides the id.`, properties: lookup },
  };
}
