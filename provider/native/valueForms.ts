/**
 * Values in the form the native plugin's SDKs carry them. A named type may declare a form of
 * its own there (framework/schema.ts `NativeForm`: a service's `Size` is an integer, 0 for the
 * shared plan, where the core holds `"shared"`); the package schema types it so
 * (scripts/generate/packageTypes.ts), and this module finds where each such value sits in a
 * resource's inputs and outputs and in a lookup's result, from the definitions, and turns it:
 * to the native form on the way out, back to the core's on the way in. Everything else passes
 * as it is.
 */
import { z } from "zod";
import type { InputSpecs, NamedType, NativeForm, OutputSpecs } from "../framework/schema";
import { namedTypesOf, type RegisteredResource } from "../resources/registration";
import type { Bag } from "./protos";

/** Where a value of a native form sits: the value itself, each item of a list, or some fields of an object. */
type Place = { readonly form: NativeForm } | { readonly items: Place } | { readonly fields: Readonly<Record<string, Place>> };

/** The types the SDK declares by name, by name. */
type NamedTypes = Readonly<Record<string, NamedType>>;

/** The place of a value of `schema` that holds a native form somewhere, or undefined where none does. */
function placeIn(schema: z.ZodType, named: NamedTypes): Place | undefined {
  const tsType = z.globalRegistry.get(schema)?.tsType;
  const form = typeof tsType === "string" ? named[tsType]?.native : undefined;
  if (form !== undefined) return { form };
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault) {
    return placeIn(schema.unwrap() as z.ZodType, named);
  }
  if (schema instanceof z.ZodArray) {
    const items = placeIn(schema.element as z.ZodType, named);
    return items && { items };
  }
  if (schema instanceof z.ZodObject) return fieldsIn(schema.shape, named);
  return undefined;
}

/** The places of the fields of `shape` that hold a native form, or undefined where none does. */
function fieldsIn(shape: Readonly<Record<string, z.ZodType>>, named: NamedTypes): Place | undefined {
  const fields = Object.entries(shape).flatMap(([key, schema]) => {
    const place = placeIn(schema, named);
    return place ? [[key, place] as const] : [];
  });
  return fields.length > 0 ? { fields: Object.fromEntries(fields) } : undefined;
}

/** `value` with the values at `place` turned by `turn` (a value not of the shape the place expects is left as it is). */
function turned(value: unknown, place: Place, turn: (form: NativeForm, value: unknown) => unknown): unknown {
  if ("form" in place) return turn(place.form, value);
  if ("items" in place) return Array.isArray(value) ? value.map((v) => turned(v, place.items, turn)) : value;
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const out: Bag = { ...(value as Bag) };
  for (const [key, inner] of Object.entries(place.fields)) if (key in out) out[key] = turned(out[key], inner, turn);
  return out;
}

/** The values of a bag (a resource's inputs, its outputs, a lookup's result) in the native SDKs' form, and back. */
export interface BagForms {
  /** `bag` as the native SDKs carry it. */
  toNative(bag: Bag): Bag;
  /** `bag` as the core holds it. */
  fromNative(bag: Bag): Bag;
}

/** The forms of a bag with no value of a native form: it passes as it is both ways. */
export const SAME_FORMS: BagForms = { toNative: (bag) => bag, fromNative: (bag) => bag };

/** The forms of a bag whose values of a native form sit at `place` (none: the bag passes as it is). */
function bagForms(place: Place | undefined): BagForms {
  if (place === undefined) return SAME_FORMS;
  return {
    toNative: (bag) => turned(bag, place, (form, v) => form.toNative(v)) as Bag,
    fromNative: (bag) => turned(bag, place, (form, v) => form.fromNative(v)) as Bag,
  };
}

/** The places in a resource's inputs: an input whose `sdkType` is a named type with a native form, or whose schema holds one. */
function inputPlaces(inputs: InputSpecs, named: NamedTypes): Place | undefined {
  const fields = Object.entries(inputs).flatMap(([key, spec]) => {
    const form = spec.sdkType === undefined ? undefined : named[spec.sdkType]?.native;
    const place = form ? { form } : placeIn(spec.schema, named);
    return place ? [[key, place] as const] : [];
  });
  return fields.length > 0 ? { fields: Object.fromEntries(fields) } : undefined;
}

/** The places in a resource's outputs (and so in its lookups' results). */
function outputPlaces(outputs: OutputSpecs, named: NamedTypes): Place | undefined {
  return fieldsIn(Object.fromEntries(Object.entries(outputs).map(([key, spec]) => [key, spec.schema])), named);
}

/** The forms of a resource type's inputs and outputs in the native SDKs. */
export interface ResourceForms {
  readonly inputs: BagForms;
  readonly outputs: BagForms;
}

/** Each registered type's forms, derived once. */
const derived = new WeakMap<RegisteredResource, ResourceForms>();

/** The forms of `registered`'s inputs and outputs (derived from its definition and the SDK's named types once, then kept). */
export function resourceForms(registered: RegisteredResource): ResourceForms {
  let forms = derived.get(registered);
  if (forms === undefined) {
    const { inputs, outputs } = registered.definition.schema as { inputs: InputSpecs; outputs: OutputSpecs };
    const named = namedTypesOf([registered]);
    forms = { inputs: bagForms(inputPlaces(inputs, named)), outputs: bagForms(outputPlaces(outputs, named)) };
    derived.set(registered, forms);
  }
  return forms;
}
