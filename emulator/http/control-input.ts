/** Reading the bodies of the control path: zod validation and rule patterns, failing as a 400. */
import type { z } from "zod";
import { InvalidRequestError } from "../model/errors";

/**
 * Parses a control request's body with `schema`.
 * @throws InvalidRequestError with `message`, naming each wrong field and its problem.
 */
export function parseControlInput<S extends z.ZodType>(schema: S, body: unknown, message = "Invalid control request"): z.output<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  throw new InvalidRequestError(message, result.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; "));
}

/**
 * The regular expression of a rule's `path`.
 * @throws InvalidRequestError with `message` when it does not compile.
 */
export function rulePattern(path: string, message: string): RegExp {
  try {
    return new RegExp(path);
  } catch (error) {
    throw new InvalidRequestError(message, `path: ${(error as Error).message}`);
  }
}
