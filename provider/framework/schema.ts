/**
 * The one definition of a resource type: its inputs (a zod schema each, with how a change
 * applies, whether it is secret, its default and its documentation) and its outputs (a zod
 * schema, documentation, and how each reads from the live resource). Everything else is
 * derived from it: the check rules, the properties `diff` compares and which replace, the
 * desired value of each (`desiredOf`), the outputs of a live resource (`outputsFrom`), the
 * secret lists, the SDK's argument and output types and the README's resource tables
 * (generated, see scripts/generate).
 */
import { z } from "zod";
import type { CrossRule } from "./check";
import { readOf, type FieldRead, type LiveOf, type ReadOptions } from "./outputs";
import type { Wire } from "./requestBodies";

/** How a change to an input applies. */
export type Change =
  /** Sent to the API as an action on the live resource: an update. */
  | "in-place"
  /** The API cannot change it: a new resource replaces the old one. */
  | "replace"
  /** Read only when the resource is created (e.g. `adoptId`): never diffed. */
  | "create-only";

/** What the documentation of a property says, besides its type. */
export interface PropertyDocs {
  /** One or two sentences for the SDK's TSDoc and the README. */
  readonly doc: string;
  /**
   * The type to show in the SDK when the one derived from the schema is not the one to show
   * (a name the SDK declares, or a wider primitive). It must agree with the schema: whatever
   * the schema accepts can be written as it, and it has the schema's fields and primitive
   * types (tests/unit/sdkTypes.test.ts).
   */
  readonly sdkType?: string;
}

/** Inputs and outputs as they cross the dynamic-provider boundary. */
export type Props = Record<string, unknown>;

/** One input property. `S` is its schema, already optional when the input is. */
export interface InputSpec<S extends z.ZodType = z.ZodType> extends PropertyDocs {
  readonly schema: S;
  readonly change: Change;
  readonly required: boolean;
  readonly secret: boolean;
  /** The value used when the program does not set it (the API's, or the provider's), for diffs and docs. */
  readonly default?: unknown;
  /**
   * When the program does not set it and this says so for the inputs (raw, possibly
   * unknown in a preview), the desired value is the recorded one (e.g. a fork keeps its
   * source's size), else the default.
   */
  readonly unsetKeeps?: (news: Props) => boolean;
  /**
   * Set on an input only the dynamic providers take, because the Pulumi engine does the same
   * natively: what a native program uses instead (e.g. "the `customTimeouts` resource
   * option"). The native plugin's schema and resources leave the input out ({@link nativeSchema}).
   */
  readonly nativeInstead?: string;
  /**
   * The request bodies the API takes the input in (a create, a fork, an update action), by
   * operation, each with its field there or how it is written (framework/requestBodies.ts): the one
   * place an input meets its wire name.
   */
  readonly wire?: Wire<z.output<S>>;
}

/** One output property: how it reads from `Src`, what the provider knows of the live resource. */
export interface OutputSpec<S extends z.ZodType = z.ZodType, Src = never> extends PropertyDocs {
  readonly schema: S;
  readonly secret: boolean;
  /** Whether the lookup functions (`getService`, ...) return it: not when it is an input kept, or a secret. */
  readonly inLookups: boolean;
  /** The output's value, read from the live resource (and what the provider keeps of it). */
  readonly from: (source: Src) => z.output<S>;
  /** The field of the live resource it is read from, and when an answer shows that readably (framework/outputs.ts); none for an output not read from one. */
  readonly read?: FieldRead<LiveOf<Src>>;
}

/** Options of {@link input} and {@link optionalInput}; `S` is the input's schema (its value type types `wire`). */
export interface InputOptions<C extends Change = Change, S extends z.ZodType = z.ZodType> extends PropertyDocs {
  readonly change: C;
  readonly secret?: boolean;
  readonly default?: unknown;
  readonly unsetKeeps?: (news: Props) => boolean;
  readonly nativeInstead?: string;
  readonly wire?: Wire<z.output<S>>;
}

/** A required input. */
export function input<S extends z.ZodType, C extends Change>(
  schema: S,
  options: InputOptions<C, S>,
): InputSpec<S> & { readonly change: C; readonly required: true } {
  return { schema, secret: options.secret ?? false, ...options, required: true };
}

/** An optional input with a default: its desired value is never absent. */
export function optionalInput<S extends z.ZodType, C extends Change>(
  schema: S,
  options: InputOptions<C, S> & { readonly default: z.output<S> },
): InputSpec<z.ZodOptional<S>> & { readonly change: C; readonly default: z.output<S> };
/** An optional input. */
export function optionalInput<S extends z.ZodType, C extends Change>(
  schema: S,
  options: InputOptions<C, S>,
): InputSpec<z.ZodOptional<S>> & { readonly change: C };
export function optionalInput<S extends z.ZodType, C extends Change>(
  schema: S,
  options: InputOptions<C, S>,
): InputSpec<z.ZodOptional<S>> & { readonly change: C } {
  return { schema: schema.optional(), secret: options.secret ?? false, ...options, required: false };
}

/**
 * Options of an output: its docs, whether it is secret or left out of lookups, how it reads,
 * and the field of the live resource it reads with the rule of when an answer shows it
 * (framework/outputs.ts `ReadOptions`: `field: "region_code", readable: readableRegion`).
 */
export type OutputOptions<S extends z.ZodType, Src> = PropertyDocs & {
  readonly secret?: boolean;
  readonly inLookups?: boolean;
  readonly from: (source: Src) => z.output<S>;
} & ReadOptions<LiveOf<Src>>;

/**
 * The output builder of a resource whose outputs read from `Src`. Absent from the live
 * resource at times? Give an optional schema.
 */
export function outputsReadFrom<Src>(): <S extends z.ZodType>(schema: S, options: OutputOptions<S, Src>) => OutputSpec<S, Src> {
  return (schema, options) => {
    const { field: _field, readable: _readable, shows: _shows, ...spec } = options;
    const read = readOf<LiveOf<Src>>(options);
    return {
      schema,
      secret: options.secret ?? false,
      inLookups: (options.inLookups ?? true) && !options.secret,
      ...spec,
      ...(read === undefined ? {} : { read }),
    };
  };
}

/**
 * The outputs the lookup functions return: `outputs` without secrets and kept inputs (the
 * outputs whose spec has no `inLookups`).
 *
 * @typeParam Result the lookup's result type (the SDK's `<Kind>Result`), generated from the
 *   same specs: it declares none of the outputs this leaves out
 */
export function lookupResult<Result extends object>(schema: { readonly outputs: OutputSpecs }, outputs: Result): Result {
  return Object.fromEntries(Object.entries(outputs).filter(([k]) => schema.outputs[k]?.inLookups === true)) as Result;
}

/** Input specs by property name. */
export type InputSpecs = Record<string, InputSpec>;
/** Output specs by property name, each reading from `Src`. */
export type OutputSpecs<Src = never> = Record<string, OutputSpec<z.ZodType, Src>>;

/** The inputs a resource's provider works with, once checked: parsed from the raw inputs. */
export type InputsOf<I extends InputSpecs> = z.infer<z.ZodObject<{ [K in keyof I]: I[K]["schema"] }>>;
/** The outputs a resource records. */
export type OutputsOf<O extends OutputSpecs> = z.infer<z.ZodObject<{ [K in keyof O]: O[K]["schema"] }>>;

/**
 * How the native plugin's SDKs carry a value the core holds in another form: as a
 * primitive of the package schema, which every SDK types exactly (Go has no unions: a
 * `number | "shared"` would be `interface{}` there). The native host turns each value where
 * the type is used into this form on the way out and back on the way in
 * (native/valueForms.ts); the dynamic providers and their SDK keep the core's form.
 */
export interface NativeForm {
  /** The schema's type of the value in this form. */
  readonly type: "integer";
  /** The value as the native SDKs carry it, from the core's (a value of no other form passes as it is). */
  readonly toNative: (value: unknown) => unknown;
  /** The core's value, from the native SDKs' (a value of no other form passes as it is). */
  readonly fromNative: (value: unknown) => unknown;
}

/** A type the SDK declares by name: from a schema, or written out; with its form in the native SDKs where that differs. */
export type NamedType = { readonly doc: string; readonly native?: NativeForm } & (
  { readonly schema: z.ZodType } | { readonly tsType: string }
);

/** The declarative half of a resource type. */
export interface ResourceSchema<I extends InputSpecs = InputSpecs, O extends OutputSpecs = OutputSpecs> {
  /** The type's name, e.g. `Vpc` (the SDK class, the type token `clouddb:Vpc`). */
  readonly kind: string;
  /** What the resource is, for the SDK class and the README. */
  readonly doc: string;
  /** A short program using it. */
  readonly example: string;
  readonly inputs: I;
  readonly outputs: O;
  /** The output holding the resource's id. */
  readonly idOutput: keyof O & string;
  /** Inputs a lookup (`X.get`) takes as its state, besides the id. */
  readonly lookup: ReadonlyArray<keyof I & string>;
  /** Rules across several inputs. */
  readonly cross?: readonly CrossRule[];
  /** Types the SDK declares by name for this resource's arguments and outputs (named in `sdkType`s). */
  readonly namedTypes?: Readonly<Record<string, NamedType>>;
  /**
   * The inputs this schema leaves out because the engine does the same natively, each with
   * what a program uses instead (set by {@link nativeSchema}): `check` names it for a program
   * that still gives one.
   */
  readonly replacedNatively?: Readonly<Record<string, string>>;
}

/**
 * The schema as the native plugin serves it: without the inputs only the dynamic providers
 * take (their spec's `nativeInstead`: `timeouts`, `settings`), which are then neither
 * checked, diffed nor recorded, and listed in `replacedNatively` with what to use instead.
 */
export function nativeSchema<I extends InputSpecs, O extends OutputSpecs>(schema: ResourceSchema<I, O>): ResourceSchema<InputSpecs, O> {
  const entries = Object.entries(schema.inputs);
  const native = (spec: InputSpec): boolean => spec.nativeInstead === undefined;
  return {
    ...schema,
    inputs: Object.fromEntries(entries.filter(([, spec]) => native(spec))),
    lookup: schema.lookup.filter((key) => native(schema.inputs[key])),
    replacedNatively: Object.fromEntries(
      entries.flatMap(([key, spec]) => (spec.nativeInstead === undefined ? [] : [[key, spec.nativeInstead]])),
    ),
  };
}

/** The outputs of a resource, each read from `source` by its spec's `from`. */
export function outputsFrom<Src, O extends OutputSpecs<Src>>(schema: { readonly outputs: O }, source: Src): OutputsOf<O> {
  const entries = Object.entries(schema.outputs).map(([key, spec]) => [key, spec.from(source)]);
  return Object.fromEntries(entries) as OutputsOf<O>;
}

/** The desired value of an input: `null` when absent, which it never is when it is required or has a default. */
type DesiredValue<T extends InputSpec> = T extends { readonly required: true } | { readonly default: unknown }
  ? NonNullable<z.output<T["schema"]>>
  : NonNullable<z.output<T["schema"]>> | null;

/** The desired value of every diffed input (see {@link desiredOf}). */
export type DesiredOf<I extends InputSpecs> = {
  readonly [K in keyof I as I[K]["change"] extends "create-only" ? never : K]: DesiredValue<I[K]>;
};

function isPlainObject(value: unknown): value is Props {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** What the derivations below read of a schema: its inputs. */
export interface WithInputs<I extends InputSpecs = InputSpecs> {
  readonly inputs: I;
}

/** The zod object of all inputs (unknown keys such as `__provider` stripped). */
export function inputsObject<I extends InputSpecs>(schema: WithInputs<I>): z.ZodObject<{ [K in keyof I]: I[K]["schema"] }> {
  const shape = Object.fromEntries(Object.entries(schema.inputs).map(([k, spec]) => [k, spec.schema]));
  return z.object(shape) as unknown as z.ZodObject<{ [K in keyof I]: I[K]["schema"] }>;
}

/**
 * The checked inputs, typed. Called by create and update, after `check` passed: a failure
 * here is a bug, reported as such.
 */
export function parseInputs<I extends InputSpecs>(schema: WithInputs<I>, raw: Record<string, unknown>): InputsOf<I> {
  return inputsObject(schema).parse(raw);
}

/** The properties `diff` compares, with whether a change replaces. */
export function diffedProperties(schema: WithInputs): Array<{ property: string; replace: boolean }> {
  return Object.entries(schema.inputs)
    .filter(([, spec]) => spec.change !== "create-only")
    .map(([property, spec]) => ({ property, replace: spec.change === "replace" }));
}

/** The names of the secret inputs. */
export function secretInputs(schema: WithInputs): string[] {
  return Object.entries(schema.inputs)
    .filter(([, s]) => s.secret)
    .map(([k]) => k);
}

/** The names of the secret outputs. */
export function secretOutputs(schema: { readonly outputs: OutputSpecs }): string[] {
  return Object.entries(schema.outputs)
    .filter(([, s]) => s.secret)
    .map(([k]) => k);
}

/**
 * What the inputs ask for, property by property (every diffed input): the value written,
 * else the recorded one where the input's `unsetKeeps` says so, else its default, else
 * `null`. An object default fills in the fields an object value leaves out. `news` may be
 * the raw inputs of a preview (with unknowns) or the parsed ones; `recorded` are the
 * outputs so far.
 */
export function desiredOf<I extends InputSpecs>(schema: WithInputs<I>, news: Props, recorded: Props): DesiredOf<I> {
  const entries = diffedProperties(schema).map(({ property }) => {
    const spec = schema.inputs[property];
    const given = news[property];
    if (given === undefined || given === null) {
      const kept = spec.unsetKeeps?.(news) === true ? recorded[property] : undefined;
      return [property, kept ?? spec.default ?? null];
    }
    if (isPlainObject(spec.default) && isPlainObject(given)) {
      const set = Object.entries(given).filter(([, v]) => v !== undefined);
      return [property, { ...spec.default, ...Object.fromEntries(set) }];
    }
    return [property, given];
  });
  return Object.fromEntries(entries) as DesiredOf<I>;
}

/**
 * The inputs a program declaring a live resource as it is would give, read back from its
 * outputs: every diffed input but `timeouts` (secrets are not known: the API never returns
 * them). What an import records (`clouddb-import`'s document, the native plugin's Read of an
 * id alone), so that the program it leads to shows no change.
 */
export function inputsReadBack(schema: WithInputs, outputs: Props): Props {
  const secret = new Set(secretInputs(schema));
  return Object.fromEntries(
    diffedProperties(schema)
      .map(({ property }) => property)
      .filter((p) => p !== "timeouts" && !secret.has(p) && outputs[p] !== undefined && outputs[p] !== null)
      .map((p) => [p, outputs[p]]),
  );
}
