/**
 * Rewrite rules of the control path: in the next N answers to requests matching a
 * method and path, every occurrence of a field name, at any depth (objects inside arrays
 * included), gets a given JSON value: an enum value the client has never seen, a null,
 * a number where a string belongs.
 */
import { z } from "zod";
import { parseControlInput, rulePattern } from "./control-input";

/** A rewrite rule as the control path shows it. */
export interface RewriteRule {
  /** Rule id, for reference. */
  id: number;
  /** Method to match (upper case); absent matches every method. */
  method?: string;
  /** Regular expression tested against the request path (without query string). */
  path: string;
  /** The field name rewritten wherever it appears. */
  field: string;
  /** The value it gets (any JSON value, `null` included). */
  value: unknown;
  /** Answers still to rewrite; only answers that contain the field count. */
  count: number;
}

/** A body after the rules applied, and the fields they rewrote (empty when none). */
export interface RewriteResult {
  /** The rewritten body (the same value when nothing matched). */
  body: unknown;
  /** Names of the fields rewritten, one per rule that applied, in rule order. */
  fields: string[];
}

const RewriteInput = z.object({
  method: z.string().min(1).optional(),
  path: z.string().default(".*"),
  field: z.string().min(1),
  value: z.unknown().refine((v) => v !== undefined, { message: "required: any JSON value, null included" }),
  count: z.number().int().min(1).default(1),
});

/** Replaces every `field` at any depth with a copy of `value`; counts the replacements. */
function replaceField(node: unknown, field: string, value: unknown, counter: { n: number }): unknown {
  if (Array.isArray(node)) return node.map((item) => replaceField(item, field, value, counter));
  if (typeof node !== "object" || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(node)) {
    if (key === field) {
      counter.n += 1;
      out[key] = structuredClone(value);
    } else {
      out[key] = replaceField(child, field, value, counter);
    }
  }
  return out;
}

/** The active rewrite rules; every matching rule applies, in the order they were added. */
export class Rewrites {
  private rules: Array<{ rule: RewriteRule; pattern: RegExp }> = [];
  private nextId = 1;

  /** Adds a rule from the control path's body. @throws InvalidRequestError */
  add(body: unknown): RewriteRule {
    const { method, path, field, value, count } = parseControlInput(RewriteInput, body, "Invalid rewrite rule");
    const pattern = rulePattern(path, "Invalid rewrite rule");
    const rule: RewriteRule = { id: this.nextId++, path, field, value, count };
    if (method !== undefined) rule.method = method.toUpperCase();
    this.rules.push({ rule, pattern });
    return structuredClone(rule);
  }

  /** Removes every rule. */
  clear(): void {
    this.rules = [];
  }

  /**
   * Applies the matching rules to an answer's body. A rule loses one use per answer in
   * which its field appeared; answers without the field leave it untouched.
   */
  apply(method: string, path: string, body: unknown): RewriteResult {
    let current = body;
    const fields: string[] = [];
    for (const entry of [...this.rules]) {
      const { rule, pattern } = entry;
      if ((rule.method !== undefined && rule.method !== method) || !pattern.test(path)) continue;
      const counter = { n: 0 };
      const rewritten = replaceField(current, rule.field, rule.value, counter);
      if (counter.n === 0) continue;
      current = rewritten;
      fields.push(rule.field);
      rule.count -= 1;
      if (rule.count <= 0) this.rules = this.rules.filter((r) => r !== entry);
    }
    return { body: current, fields };
  }
}
