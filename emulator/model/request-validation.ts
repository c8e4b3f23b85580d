/**
 * {@link parseBody}: validates a request body with the request schema of its operation
 * (contract/api), turning a failed parse into an {@link InvalidRequestError} naming
 * each field, the value and what is allowed.
 */
import type { z } from "zod";
import { InvalidRequestError } from "./errors";

/**
 * Parses `body` with `schema`.
 * @throws InvalidRequestError naming each wrong field, its problem and what is allowed.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new InvalidRequestError("The request body must be a JSON object", `received ${describeJson(body)}`);
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const details = result.error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "body"}: ${issue.message}`)
    .join("; ");
  throw new InvalidRequestError("The request body is not valid", details);
}

function describeJson(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}
