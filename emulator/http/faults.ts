/**
 * Fault rules of the control path: the next N requests matching a method and path are
 * answered with a status instead of being carried out, or carried out and then have
 * their answer replaced by a 5xx, dropped (socket destroyed) or cut short.
 */
import { z } from "zod";
import { parseControlInput, rulePattern } from "./control-input";

/** A fault rule as the control path shows it (fields of unused modes are absent). */
export interface FaultRule {
  /** Rule id, for reference. */
  id: number;
  /** Method to match (upper case); absent matches every method. */
  method?: string;
  /** Regular expression tested against the request path (without query string). */
  path: string;
  /** Status to answer (absent for `drop` and `truncate` rules). */
  status?: number;
  /** Requests still to fail. */
  count: number;
  /** `Retry-After` seconds (429 always carries one, default 1). */
  retryAfter?: number;
  /** True: carry the request out first, then lose its answer. */
  after?: boolean;
  /** True: destroy the connection without any answer. */
  drop?: boolean;
  /** True: carry the request out and send its answer cut short. */
  truncate?: boolean;
  /** Body bytes sent before the cut (implies `truncate`); default half the body. */
  truncateAt?: number;
}

/** What a matching rule does to one request. */
export type FaultAction =
  /** Answer `status` instead of the real answer; `after`: carry the request out first. */
  | { kind: "status"; status: number; retryAfter?: number; after: boolean }
  /** Destroy the socket without answering; `after`: carry the request out first. */
  | { kind: "drop"; after: boolean }
  /** Carry the request out and send its answer cut short after `atBytes` body bytes. */
  | { kind: "truncate"; after: true; atBytes?: number };

const FaultInput = z
  .object({
    method: z.string().min(1).optional(),
    path: z.string().default(".*"),
    status: z.number().int().min(400).max(599).optional(),
    count: z.number().int().min(1).default(1),
    retryAfter: z.number().int().min(0).optional(),
    after: z.boolean().optional(),
    drop: z.boolean().optional(),
    truncate: z.boolean().optional(),
    truncateAt: z.number().int().min(0).optional(),
  })
  .superRefine((rule, ctx) => {
    const truncate = rule.truncate === true || rule.truncateAt !== undefined;
    const problem = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    if (rule.truncate === false && rule.truncateAt !== undefined) problem("truncateAt", "needs truncate to be true or absent");
    if (rule.drop === true && truncate) problem("truncate", "a rule either drops or truncates, not both");
    if (rule.drop === true || truncate) {
      if (rule.status !== undefined) problem("status", "has no meaning with drop or truncate (no status is answered)");
      if (rule.retryAfter !== undefined) problem("retryAfter", "has no meaning with drop or truncate");
      if (truncate && rule.after === false) problem("after", "a truncated answer is always carried out first");
      return;
    }
    if (rule.status === undefined) problem("status", "required (400-599) unless drop or truncate is set");
    else if (rule.after === true && rule.status < 500) problem("status", "an answer lost after carrying out is a 5xx (500-599)");
  });

/** The active fault rules, first match wins. */
export class Faults {
  private rules: Array<{ rule: FaultRule; action: FaultAction; pattern: RegExp }> = [];
  private nextId = 1;

  /** Adds a rule from the control path's body. @throws InvalidRequestError */
  add(body: unknown): FaultRule {
    const input = parseControlInput(FaultInput, body, "Invalid fault rule");
    const pattern = rulePattern(input.path, "Invalid fault rule");
    const rule: FaultRule = { id: this.nextId++, path: input.path, count: input.count };
    if (input.method !== undefined) rule.method = input.method.toUpperCase();
    let action: FaultAction;
    if (input.truncate === true || input.truncateAt !== undefined) {
      rule.truncate = true;
      rule.after = true;
      if (input.truncateAt !== undefined) rule.truncateAt = input.truncateAt;
      action =
        input.truncateAt === undefined ? { kind: "truncate", after: true } : { kind: "truncate", after: true, atBytes: input.truncateAt };
    } else if (input.drop === true) {
      rule.drop = true;
      rule.after = input.after === true;
      action = { kind: "drop", after: rule.after };
    } else {
      const status = input.status!;
      rule.status = status;
      if (input.after !== undefined) rule.after = input.after;
      const retry = input.retryAfter ?? (status === 429 ? 1 : undefined);
      if (retry !== undefined) rule.retryAfter = retry;
      action = { kind: "status", status, after: input.after === true, ...(retry === undefined ? {} : { retryAfter: retry }) };
    }
    this.rules.push({ rule, action, pattern });
    return { ...rule };
  }

  /** Removes every rule. */
  clear(): void {
    this.rules = [];
  }

  /** Consumes one use of the first rule matching the request, and says what it does. */
  take(method: string, path: string): FaultAction | undefined {
    const entry = this.rules.find(({ rule, pattern }) => (rule.method === undefined || rule.method === method) && pattern.test(path));
    if (!entry) return undefined;
    entry.rule.count -= 1;
    if (entry.rule.count <= 0) this.rules = this.rules.filter((r) => r !== entry);
    return entry.action;
  }
}
