/**
 * How the client reads response bodies tolerantly, as CONTRACT.md "Transport" asks; the
 * response schemas of every API description are built from these pieces.
 *
 * - Objects are loose: unknown fields are kept (new API versions add fields).
 * - Enumerations are open: a status or service type the client does not know is carried
 *   as a string (`KnownServiceStatus | (string & {})`), never an error.
 * - Validation covers what the client relies on: identifiers, statuses, and the service
 *   fields the server always fills in that an answer cannot be read without (`project_id`,
 *   `created`). Such a field of the wrong type rejects the object
 *   (a list skips that item only: see listReading.ts). Any other field that does not have
 *   its documented shape (`metrics: null`, an endpoint that is a string) is dropped (read
 *   as absent) instead of failing the answer: see {@link tolerant}.
 * - A number sent as a numeric string (`"1000"`, `"1e3"`) is read as the number it means
 *   ({@link lenientNumber}): an unambiguous alternative shape, not an odd one.
 * - A field dropped as odd keeps its key, its value `undefined`: a reader can tell "shown in
 *   a shape it cannot read" from "not shown" (provider/framework/unreadable.ts `oddly`).
 * - A value of the right type is not yet a value of its field: which are, for every field
 *   that can drive a change of a resource, is readable.ts's to say.
 */
import { z } from "zod";
import type { Reply } from "./operation";

/** A value of an open enumeration: one the client knows, or any other string the API sends. */
export type Open<Known extends string> = Known | (string & {});

/** Schema of an open enumeration: any string, typed as the known values or a string. */
export function open<Known extends string>(): z.ZodPipe<z.ZodString, z.ZodTransform<Open<Known>, string>> {
  return z.string().transform((s): Open<Known> => s);
}

/** A field the client does not rely on: kept when it has its documented shape, read as absent otherwise. */
export function tolerant<S extends z.ZodType>(schema: S): z.ZodCatch<z.ZodOptional<S>> {
  return schema.optional().catch(undefined);
}

/**
 * A number, or a string that is one written in decimal, as JSON or a program writes numbers
 * (`"1000"`, `" 2 "`, `"1e3"`, `"5.432E3"`, `"+4"`, `".5"`), read as that number.
 */
export function lenientNumber(): z.ZodType<number, unknown> {
  return z.union([
    z.number(),
    z
      .string()
      .trim()
      .regex(/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/)
      .transform(Number)
      .refine(Number.isFinite),
  ]);
}

/** Schema of the `{message}` answers (SPEC 2.8). */
export const MessageResponseSchema = z.looseObject({ message: tolerant(z.string()) });

/** The `{message}` answer of actions such as enabling a pooler. */
export type MessageResponse = z.infer<typeof MessageResponseSchema>;

/** The reply of an operation answering `{message}`. */
export const MESSAGE = { one: MessageResponseSchema } as const satisfies Reply;
