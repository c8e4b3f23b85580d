/**
 * What every resource class's constructor does with the program's arguments, in one place
 * (the classes themselves are generated from the resource schemas).
 */
import * as pulumi from "@pulumi/pulumi";
import { requireArguments } from "./inputs";

/** What a constructor needs to know of its resource's schema. */
export interface ResourceShape {
  /** Inputs the program must give (unless it looks an existing resource up). */
  readonly required: readonly string[];
  /** Outputs besides the id output, which the constructor fills in from the id. */
  readonly outputs: readonly string[];
  /** Inputs sent as secrets, even when the program passes plain values. */
  readonly secretInputs: readonly string[];
  /** Outputs always marked secret. */
  readonly secretOutputs: readonly string[];
}

/**
 * The properties and options to hand to `pulumi.dynamic.Resource`: every output as a
 * property to fill in (`undefined`), the arguments (secret ones wrapped with `pulumi.secret`,
 * so state never holds them in plain text), `__owner` (the project, stack, type and name of
 * the resource), and `additionalSecretOutputs` with the secret outputs. Checks the required arguments unless `opts.id` looks an existing resource up.
 *
 * @throws MissingArgumentError naming the first required argument missing
 */
export function resourceProps(
  type: string,
  name: string,
  args: object | undefined,
  opts: pulumi.CustomResourceOptions | undefined,
  shape: ResourceShape,
): { props: Record<string, unknown>; options: pulumi.CustomResourceOptions } {
  if (!opts?.id) requireArguments(type, name, args, [...shape.required]);
  const given: Record<string, unknown> = { ...(args ?? {}) };
  for (const key of shape.secretInputs) if (given[key] !== undefined) given[key] = pulumi.secret(given[key]);
  const props: Record<string, unknown> = Object.assign(Object.fromEntries(shape.outputs.map((k) => [k, undefined])), given);
  // Who asks: an interrupted create is only ever taken over by the same stack's same resource.
  if (!opts?.id) props.__owner = `${pulumi.getProject()}/${pulumi.getStack()}/${type}/${name}`;
  const options = shape.secretOutputs.length
    ? { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...shape.secretOutputs] }
    : { ...opts };
  return { props, options };
}
