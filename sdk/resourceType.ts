/**
 * A resource type as its generated class constructs it, read from the resource's
 * definition. Only the generated classes' module bodies use it, so its types (the
 * definitions' zod types) never reach a program's type graph through the SDK's declarations.
 */
import { diffedProperties, secretInputs, secretOutputs, type InputSpecs, type OutputSpecs } from "../provider/framework/schema";
import type { ResourceType } from "./construct";
import { providerText } from "./trampoline";

/** The type whose provider is `pulumi-clouddb/provider/<module>`, as its definition's `schema` declares it. */
export function resourceType(
  module: string,
  schema: { readonly kind: string; readonly idOutput: string; readonly inputs: InputSpecs; readonly outputs: OutputSpecs },
): ResourceType {
  const inputs = Object.entries(schema.inputs);
  return {
    kind: schema.kind,
    providerText: providerText(module),
    idOutput: schema.idOutput,
    shape: {
      required: inputs.filter(([, spec]) => spec.required).map(([key]) => key),
      outputs: Object.keys(schema.outputs).filter((key) => key !== schema.idOutput),
      secretInputs: secretInputs(schema),
      secretOutputs: secretOutputs(schema),
      changeable: diffedProperties(schema).map((d) => d.property),
    },
  };
}
