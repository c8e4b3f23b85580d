/**
 * What every resource class has, in one place: {@link resourceClass} gives each generated
 * class its constructor, `get` and output properties, on {@link ClouddbResource}, which
 * turns the program's arguments into the resource's properties and options.
 * Its declarations are part of a program's type graph, and a program loads it to construct
 * resources, so it imports nothing of the provider but the names of internal inputs: each
 * class is given its {@link ResourceType} as a literal, generated from its definition.
 */
import * as pulumi from "@pulumi/pulumi";
import { dynamicTypeOf, OWNER_KEY, PROVIDER_KEY } from "../provider/framework/internalInputs";
import { requireArguments } from "./inputs";
import { optionsFor } from "./options";
import { untracedConstruction } from "./promiseStacks";
import { atProgramPosition } from "./sourcePosition";
import { providerText } from "../provider/framework/trampoline";

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
  /** Inputs whose change updates or replaces the resource (what `replaceOnChanges` may name). */
  readonly changeable: readonly string[];
}

/**
 * The properties and options to hand to `pulumi.dynamic.Resource`: every output as a
 * property to fill in (`undefined`), the arguments (secret ones wrapped with `pulumi.secret`,
 * so state never holds them in plain text), `__owner` (the project, stack, type and name of
 * the resource), what Pulumi's options mean for our resources (options.ts: `retainOnDelete`
 * for an adopted resource, `replaceOnChanges` carried to the provider), and
 * `additionalSecretOutputs` with the secret outputs. Checks the required arguments unless
 * `opts.id` looks an existing resource up.
 *
 * @throws MissingArgumentError naming the first required argument missing
 * @throws ConflictingOptionsError when the options contradict the arguments
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
  if (!opts?.id) props[OWNER_KEY] = `${pulumi.getProject()}/${pulumi.getStack()}/${type}/${name}`;
  const chosen = optionsFor(type, name, given, opts ?? {}, shape.changeable);
  Object.assign(props, chosen.props);
  const options = shape.secretOutputs.length
    ? { ...chosen.options, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...shape.secretOutputs] }
    : { ...chosen.options };
  return { props, options };
}

/** A resource type as its class constructs it. */
export interface ResourceType {
  /** The type's name, e.g. `Vpc`. */
  readonly kind: string;
  /** Its provider's module, `pulumi-clouddb/provider/<module>` (see trampoline.ts). */
  readonly module: string;
  /** The output holding the resource's id. */
  readonly idOutput: string;
  /** What the constructor needs to know of the schema. */
  readonly shape: ResourceShape;
}

/**
 * The base of every resource class: a dynamic resource (type `pulumi-nodejs:dynamic/clouddb:<Kind>`,
 * run by Pulumi's dynamic-provider process), its properties and options built from the
 * program's arguments (see {@link resourceProps}). It registers what `pulumi.dynamic.Resource`
 * would, with the serialized provider written once (trampoline.ts) instead of serialized per
 * program, and without the stack traces Pulumi takes for each property's promises when
 * nothing can show them (promiseStacks.ts).
 */
export abstract class ClouddbResource extends pulumi.CustomResource {
  /**
   * @param type the resource type
   * @param name the resource's name in the program
   * @param args its arguments (a lookup's state, with `opts.id`)
   * @param opts resource options
   */
  protected constructor(type: ResourceType, name: string, args: object | undefined, opts: pulumi.CustomResourceOptions | undefined) {
    const { props, options } = resourceProps(`clouddb.${type.kind}`, name, args, opts, type.shape);
    const settle = untracedConstruction(options);
    // The engine records the program's call as where the resource is declared (sourcePosition.ts).
    const restore = atProgramPosition();
    try {
      // As `pulumi.dynamic.Resource` does (@pulumi/pulumi dynamic/index.js): the type token, and `__provider` among the properties.
      super(dynamicTypeOf(type.kind), name, { ...props, [PROVIDER_KEY]: providerText(type.module) }, options);
    } catch (e) {
      restore();
      settle(e);
      throw e;
    }
    restore();
    settle();
    // The id output is the resource's id, so it stays known while an update is only
    // previewed (the engine previews a dynamic resource's update with its inputs as outputs).
    Object.assign(this, { [type.idOutput]: this.id });
  }
}

/** A resource's outputs as its class holds them: each a `pulumi.Output`, documented as in `Outputs`. */
export type OutputProperties<Outputs> = { readonly [K in keyof Outputs]-?: pulumi.Output<Outputs[K]> };

/**
 * The constructor and the `get` every resource class has: the class a generated class
 * extends (`class Vpc extends resourceClass<VpcArgs, VpcOutputs, "projectId">(type) {}`),
 * so that neither is repeated in every class.
 *
 * @typeParam Args the resource's arguments
 * @typeParam Outputs the resource's outputs, as plain values
 * @typeParam Lookup the arguments a lookup (`get`) may give besides the id
 */
export interface ResourceClass<Args, Outputs, Lookup extends keyof Args> {
  /**
   * Declares the resource.
   *
   * @param name the resource's name in the program
   * @param args the resource's arguments
   * @param opts resource options; the outputs the resource keeps secret are always added to
   *   `additionalSecretOutputs`, and its secret arguments are sent as secret inputs
   */
  new (name: string, args: Args, opts?: pulumi.CustomResourceOptions): ClouddbResource & OutputProperties<Outputs>;
  /**
   * Looks up an existing resource of this type without managing it (read-only). An id that
   * does not exist fails the lookup.
   *
   * @param name the name of the resulting resource in the program
   * @param id the resource's id
   * @param state what the lookup needs besides the id: the project, and the parent's id for a resource under another
   * @param opts resource options
   */
  get<T>(
    this: new (name: string, args: Args, opts?: pulumi.CustomResourceOptions) => T,
    name: string,
    id: pulumi.Input<pulumi.ID>,
    state?: Partial<Pick<Args, Lookup>>,
    opts?: pulumi.CustomResourceOptions,
  ): T;
}

/**
 * The class a resource type's generated class extends: {@link ClouddbResource} with the
 * type's constructor and `get`.
 *
 * @param type the resource type (its provider and what its constructor needs of its definition)
 */
export function resourceClass<Args extends object, Outputs, Lookup extends keyof Args>(
  type: ResourceType,
): ResourceClass<Args, Outputs, Lookup> {
  // Typed by the interface, `this` (the class it is called on) included.
  const get: ResourceClass<Args, Outputs, Lookup>["get"] = function (name, id, state, opts) {
    // A lookup's state is not the arguments: with `opts.id`, the constructor checks none of them.
    return new this(name, state as Args, { ...opts, id });
  };
  class Resource extends ClouddbResource {
    static readonly get = get;

    constructor(name: string, args: Args, opts?: pulumi.CustomResourceOptions) {
      super(type, name, args, opts);
    }
  }
  // The outputs are not declared by the class: `pulumi.dynamic.Resource` sets each output
  // property from the resource's properties (all of them, `resourceProps` lists every
  // output), which is what `OutputProperties<Outputs>` says of an instance.
  return Resource as unknown as ResourceClass<Args, Outputs, Lookup>;
}
