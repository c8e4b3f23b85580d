/**
 * The one definition of a resource type: its inputs (a zod schema each, with how a change
 * applies, whether it is secret, its default and its documentation) and its outputs (a zod
 * schema and documentation each). Everything else is derived from it: the check rules, the
 * properties `diff` compares and which replace, the desired value of each, the secret
 * lists, the SDK's argument and output types (generated, see scripts/generate.ts) and the
 * README's resource tables.
 */
import { z } from "zod";
import type { CrossRule } from "./check";

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
  /** The type to show in the SDK when the one derived from the schema is not the one to show. */
  readonly sdkType?: string;
}

/** One input property. `S` is its schema, already optional when the input is. */
export interface InputSpec<S extends z.ZodType = z.ZodType> extends PropertyDocs {
  readonly schema: S;
  readonly change: Change;
  readonly required: boolean;
  readonly secret: boolean;
  /** The value used when the program does not set it (the API's, or the provider's), for diffs and docs. */
  readonly default?: unknown;
}

/** One output property. */
export interface OutputSpec<S extends z.ZodType = z.ZodType> extends PropertyDocs {
  readonly schema: S;
  readonly secret: boolean;
  /** Whether the lookup functions (`getService`, ...) return it: not when it is an input kept, or a secret. */
  readonly inLookups: boolean;
}

/** Options of {@link input} and {@link optionalInput}. */
export interface InputOptions extends PropertyDocs {
  readonly change: Change;
  readonly secret?: boolean;
  readonly default?: unknown;
}

/** A required input. */
export function input<S extends z.ZodType>(schema: S, options: InputOptions): InputSpec<S> {
  return { schema, required: true, secret: options.secret ?? false, ...options };
}

/** An optional input. */
export function optionalInput<S extends z.ZodType>(schema: S, options: InputOptions): InputSpec<z.ZodOptional<S>> {
  return { schema: schema.optional(), required: false, secret: options.secret ?? false, ...options };
}

/** An output. Absent from the live resource at times? Give an optional schema. */
export function output<S extends z.ZodType>(
  schema: S,
  docs: PropertyDocs & { readonly secret?: boolean; readonly inLookups?: boolean },
): OutputSpec<S> {
  return { schema, secret: docs.secret ?? false, inLookups: (docs.inLookups ?? true) && !docs.secret, ...docs };
}

/** The outputs the lookup functions return: `outputs` without secrets and kept inputs. */
export function lookupResult(schema: { readonly outputs: OutputSpecs }, outputs: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(outputs).filter(([k]) => schema.outputs[k]?.inLookups === true));
}

/** Input specs by property name. */
export type InputSpecs = Record<string, InputSpec>;
/** Output specs by property name. */
export type OutputSpecs = Record<string, OutputSpec>;

/** The inputs a resource's provider works with, once checked: parsed from the raw inputs. */
export type InputsOf<I extends InputSpecs> = z.infer<z.ZodObject<{ [K in keyof I]: I[K]["schema"] }>>;
/** The outputs a resource records. */
export type OutputsOf<O extends OutputSpecs> = z.infer<z.ZodObject<{ [K in keyof O]: O[K]["schema"] }>>;

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
}

/** Declares a resource schema, keeping its exact input and output types. */
export function resourceSchema<I extends InputSpecs, O extends OutputSpecs>(schema: ResourceSchema<I, O>): ResourceSchema<I, O> {
  return schema;
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
