/** Fault rules of the control path: fail the next N requests matching a method and path. */
import { z } from "zod";
import { InvalidRequestError } from "../model/errors";
import { InjectedFaultError } from "./http-errors";

/** A fault rule as the control path shows it. */
export interface FaultRule {
  /** Rule id, for reference. */
  id: number;
  /** Method to match (upper case); absent matches every method. */
  method?: string;
  /** Regular expression tested against the request path (without query string). */
  path: string;
  /** Status to answer. */
  status: number;
  /** Requests still to fail. */
  count: number;
  /** `Retry-After` seconds (429 always carries one, default 1). */
  retryAfter?: number;
}

const FaultInput = z.object({
  method: z.string().min(1).optional(),
  path: z.string().default(".*"),
  status: z.number().int().min(400).max(599),
  count: z.number().int().min(1).default(1),
  retryAfter: z.number().int().min(0).optional(),
});

/** The active fault rules, first match wins. */
export class Faults {
  private rules: Array<FaultRule & { pattern: RegExp }> = [];
  private nextId = 1;

  /** Adds a rule from the control path's body. @throws InvalidRequestError */
  add(body: unknown): FaultRule {
    const parsed = FaultInput.safeParse(body);
    if (!parsed.success) {
      throw new InvalidRequestError(
        "Invalid fault rule",
        parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; "),
      );
    }
    let pattern: RegExp;
    try {
      pattern = new RegExp(parsed.data.path);
    } catch (error) {
      throw new InvalidRequestError("Invalid fault rule", `path: ${(error as Error).message}`);
    }
    const { method, path, status, count, retryAfter } = parsed.data;
    const rule: FaultRule = { id: this.nextId++, path, status, count };
    if (method !== undefined) rule.method = method.toUpperCase();
    const retry = retryAfter ?? (status === 429 ? 1 : undefined);
    if (retry !== undefined) rule.retryAfter = retry;
    this.rules.push({ ...rule, pattern });
    return rule;
  }

  /** Removes every rule. */
  clear(): void {
    this.rules = [];
  }

  /** Consumes one use of the first matching rule. @throws InjectedFaultError when one matches */
  check(method: string, path: string): void {
    const rule = this.rules.find((r) => (r.method === undefined || r.method === method) && r.pattern.test(path));
    if (!rule) return;
    rule.count -= 1;
    if (rule.count <= 0) this.rules = this.rules.filter((r) => r !== rule);
    throw new InjectedFaultError(rule.status, rule.retryAfter);
  }
}
