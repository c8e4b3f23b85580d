/**
 * Checks a response body against its zod schema and turns the first mismatch into a
 * {@link ResponseValidationError} naming the operation, the field path and what came back.
 */
import type { z } from "zod";
import { ResponseValidationError } from "./errors";
import { describeReceived } from "./redact";

type Issue = z.core.$ZodIssue;

/** Renders a zod path as `read_replica_sets[0].status` (`(body)` for the root). Never throws. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else out += out === "" ? String(seg) : `.${String(seg)}`;
  }
  return out === "" ? "(body)" : out;
}

function valueAt(body: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let cur: unknown = body;
  for (const seg of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[seg];
  }
  return cur;
}

function expectation(issue: Issue): string {
  switch (issue.code) {
    case "invalid_type":
      return issue.expected === "object" || issue.expected === "array" ? `an ${issue.expected}` : `a ${issue.expected}`;
    case "invalid_value":
      return `one of ${issue.values.map((v) => JSON.stringify(v)).join(" | ")}`;
    default:
      return issue.message;
  }
}

/**
 * Returns `body` parsed by `schema` (unknown fields kept). `named` is the operation the
 * caller ran (and the request's own name as `step`, when it serves another operation).
 * @throws ResponseValidationError for the first issue; its `received` is the value at the
 * failing path, truncated and with secret-named fields masked.
 */
export function validateResponse<S extends z.ZodType>(
  schema: S,
  body: unknown,
  named: { operation: string; step?: string; subject?: string },
): z.output<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const value = valueAt(body, issue.path);
  const received = value === undefined && issue.path.length > 0 ? "nothing (the field is absent)" : describeReceived(value);
  throw new ResponseValidationError({
    ...named,
    path: formatPath(issue.path),
    expected: expectation(issue),
    received,
  });
}
