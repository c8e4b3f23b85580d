import type { CheckFailure } from "@pulumi/pulumi/dynamic";
import type { z } from "zod";
import { containsUnknown } from "./unknowns";

/** Per-property schemas of a resource's inputs, keyed by the input's name. */
export type InputSchemas = Record<string, z.ZodType>;

/** A rule over several properties, run once each of them is valid and known. */
export interface CrossRule {
  /** The properties the rule reads; it runs only when none is unknown. */
  readonly properties: readonly string[];
  /** Returns the failures, if any; `news` holds the inputs. */
  validate(news: Record<string, unknown>): CheckFailure[];
}

/** How the inputs of one resource type are checked. */
export interface InputRules {
  /** Schema of each input property. Properties not listed here are ignored. */
  readonly schemas: InputSchemas;
  /** Properties that must be present. */
  readonly required: readonly string[];
  /** Rules across properties. */
  readonly cross?: readonly CrossRule[];
  /** Properties whose values must never be quoted (passwords). */
  readonly secret?: readonly string[];
}

const MAX_SHOWN = 80;

/** Renders a value for a check failure's reason: short, and never a secret. */
export function showValue(value: unknown, secret = false): string {
  if (secret) return "[secret]";
  const text = value === undefined ? "undefined" : JSON.stringify(value);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}...` : text;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/**
 * Checks the inputs of a resource: one failure per bad property, whose `property` is
 * the input's name (dotted for nested fields, e.g. `haReplicas.syncReplicaCount`) and
 * whose `reason` names the value given and what is allowed. Values that are unknown
 * during a preview pass, as do rules that read them.
 *
 * A failure on a secret property names it only in its reason, with `property` empty:
 * Pulumi prints a failure that names a property with that property's value from the
 * program, in plain text even when it is a secret.
 */
export function checkInputs(rules: InputRules, news: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const bad = new Set<string>();
  const secret = new Set(rules.secret ?? []);
  for (const property of rules.required) {
    if (news[property] === undefined || news[property] === null) {
      failures.push({ property, reason: `${property} is required` });
      bad.add(property);
    }
  }
  for (const [property, schema] of Object.entries(rules.schemas)) {
    const value = news[property];
    if (value === undefined || value === null || containsUnknown(value)) continue;
    const result = schema.safeParse(value);
    if (result.success) continue;
    bad.add(property);
    const seen = new Set<string>();
    for (const issue of result.error.issues) {
      const path = [property, ...issue.path.map(String)].join(".");
      if (seen.has(path)) continue;
      seen.add(path);
      const given = showValue(valueAt(value, issue.path), secret.has(property));
      failures.push({ property: path, reason: `${path} is ${given}: ${issue.message}` });
    }
  }
  for (const rule of rules.cross ?? []) {
    const involved = rule.properties;
    if (involved.some((p) => bad.has(p) || containsUnknown(news[p]))) continue;
    failures.push(...rule.validate(news));
  }
  return failures.map((f) => (secret.has(f.property.split(".")[0]!) ? { property: "", reason: f.reason } : f));
}
