/**
 * Where the API takes an input: the field of each request body it is sent in (a create, a
 * fork, an update action), declared on the input in its definition (`wire`), and the one
 * function that builds such a body from the definition and the values to send
 * ({@link bodyOf}). An operation never retypes a wire name: an input whose `wire` names an
 * operation is in that operation's body, and nothing else of the inputs is.
 */
import type { BodyOf, Operation } from "../../contract/api";
import type { Props, WithInputs } from "./schema";

/** The operations that take a request body. */
export type BodyOperation = { [O in Operation]: BodyOf<O> extends undefined ? never : O }[Operation];

/**
 * How an input is written into the body of operation `O`: the name of the one field that
 * takes its value as it is, or the fields (and their values) the value is written as (a size
 * as text, an object's counts in two fields). Written as a method, so that the input's own
 * value type narrows it.
 */
export type WireField<V, O extends BodyOperation> =
  (keyof BodyOf<O> & string) | { write(value: NonNullable<V>): Partial<BodyOf<O>> }["write"];

/** The request bodies an input is sent in, by operation, each with how it is written there. */
export type Wire<V = unknown> = { readonly [O in BodyOperation]?: WireField<V, O> };

/**
 * The body of `operation`: each input whose `wire` names the operation, written as it says,
 * from its value in `values`; an input whose value is absent (`undefined` or `null`) is left
 * out, and so is every input the operation does not take. What the values are is the
 * caller's choice, said where it calls: a create sends the desired values (defaults filled
 * in, `desiredOf`), a fork only what the program gave (the rest is the source's), an update
 * action what is wanted now.
 *
 * The type of the result is the operation's body as its sender writes it; that the inputs'
 * wire fields make a whole body is the contract's request schema's to say (the emulator
 * checks it, tests/unit/wireBodies.test.ts sends one of each kind).
 */
export function bodyOf<O extends BodyOperation>(schema: WithInputs, operation: O, values: Props): BodyOf<O> {
  const body: Record<string, unknown> = {};
  for (const [property, spec] of Object.entries(schema.inputs)) {
    const field = spec.wire?.[operation] as string | ((value: unknown) => object) | undefined;
    const value = values[property];
    if (field === undefined || value === undefined || value === null) continue;
    if (typeof field === "string") body[field] = value;
    else Object.assign(body, field(value));
  }
  return body as BodyOf<O>;
}

/**
 * The operations whose body an input of `schema` is sent in, each with the inputs sent there:
 * what the definitions say the API receives, for the tests and the docs.
 */
export function wiredOperations(schema: WithInputs): Map<BodyOperation, string[]> {
  const wired = new Map<BodyOperation, string[]>();
  for (const [property, spec] of Object.entries(schema.inputs)) {
    for (const operation of Object.keys(spec.wire ?? {}) as BodyOperation[]) {
      wired.set(operation, [...(wired.get(operation) ?? []), property]);
    }
  }
  return wired;
}
