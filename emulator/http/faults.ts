/**
 * Fault rules of the control path: the next N requests matching a method and path are
 * answered with a status instead of being carried out, or carried out and then have
 * their answer replaced by a 5xx, dropped (socket destroyed) or cut short; or they meet
 * what a gateway between a client and a real API does: it holds them, redirects them
 * (before or after passing them on), serves its own HTML page (one that quotes the request
 * it refused, too), answers a list with the answer before or as it was some time ago,
 * repeats its items, compresses the body unasked, or lets the body trickle in a byte at a time.
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
  /** Status to answer (absent for the modes that answer no status of their own). */
  status?: number;
  /** Requests still to fail. */
  count: number;
  /** `Retry-After` seconds (429 always carries one, default 1). */
  retryAfter?: number;
  /** True: `Retry-After` is sent as an HTTP date (the `Date` header's clock plus `retryAfter`), not as seconds. */
  retryAfterDate?: boolean;
  /** True: carry the request out first, then lose its answer. */
  after?: boolean;
  /** True: destroy the connection without any answer. */
  drop?: boolean;
  /** True: carry the request out and send its answer cut short. */
  truncate?: boolean;
  /** Body bytes sent before the cut (implies `truncate`); default half the body. */
  truncateAt?: number;
  /** Milliseconds the gateway holds the request before anything else happens to it. */
  holdMs?: number;
  /** Carry the request out and send its body one byte every `trickleMs` milliseconds. */
  trickleMs?: number;
  /** Answer with the answer this path had the time before (a list one answer behind). */
  stale?: boolean;
  /** Carry the request out and show every item of a list answer twice. */
  repeat?: boolean;
  /** Answer this redirect status (301, 302, 303, 307, 308) with `location`, without carrying the request out. */
  redirect?: number;
  /** Where a redirect points. */
  location?: string;
  /** Answer 200 with a web application firewall's own HTML page (carried out only with `after`). */
  waf?: boolean;
  /** Answer `status` with a gateway's HTML page quoting the request it refused (its body as received, and form-encoded). */
  echo?: boolean;
  /** Answer a GET with the list as it was this many milliseconds before (a list read from a copy that lags). */
  lagMs?: number;
  /** Carry the request out and send the body gzip-compressed (`Content-Encoding: gzip`), though the client did not ask. */
  gzip?: boolean;
}

/** What a matching rule does to one request (besides holding it for {@link FaultAction.holdMs}). */
export type FaultEffect =
  /** Answer `status` instead of the real answer; `after`: carry the request out first. */
  | { kind: "status"; status: number; retryAfter?: number; retryAfterDate: boolean; after: boolean }
  /** Destroy the socket without answering; `after`: carry the request out first. */
  | { kind: "drop"; after: boolean }
  /** Carry the request out and send its answer cut short after `atBytes` body bytes. */
  | { kind: "truncate"; after: true; atBytes?: number }
  /** Carry the request out and send its answer's body one byte every `byteMs`. */
  | { kind: "trickle"; after: true; byteMs: number }
  /** Answer with the previous answer to the same path. */
  | { kind: "stale"; after: true }
  /** Carry the request out and repeat every item of an array answer. */
  | { kind: "repeat"; after: true }
  /** Answer a redirect to `location`; `after`: carry the request out first (a 303 after the API acted). */
  | { kind: "redirect"; after: boolean; status: number; location: string }
  /** Answer 200 with an HTML page of a firewall; `after`: carry the request out first. */
  | { kind: "waf"; after: boolean }
  /** Answer `status` with a page quoting the request; `after`: carry the request out first. */
  | { kind: "echo"; after: boolean; status: number }
  /** Answer with the list as it was `lagMs` before. */
  | { kind: "lag"; after: true; lagMs: number }
  /** Carry the request out and send its body gzip-compressed. */
  | { kind: "gzip"; after: true };

/** A rule's effect and how long it holds the request first. */
export type FaultAction = FaultEffect & { holdMs: number };

const REDIRECTS = [301, 302, 303, 307, 308] as const;

const FaultInput = z
  .object({
    method: z.string().min(1).optional(),
    path: z.string().default(".*"),
    status: z.number().int().min(400).max(599).optional(),
    count: z.number().int().min(1).default(1),
    retryAfter: z.number().int().min(0).optional(),
    retryAfterDate: z.boolean().optional(),
    after: z.boolean().optional(),
    drop: z.boolean().optional(),
    truncate: z.boolean().optional(),
    truncateAt: z.number().int().min(0).optional(),
    holdMs: z.number().int().min(0).max(600_000).optional(),
    trickleMs: z.number().int().min(1).max(60_000).optional(),
    stale: z.boolean().optional(),
    repeat: z.boolean().optional(),
    redirect: z
      .number()
      .int()
      .refine((s) => (REDIRECTS as readonly number[]).includes(s), { message: `one of ${REDIRECTS.join(", ")}` })
      .optional(),
    location: z.string().min(1).optional(),
    waf: z.boolean().optional(),
    echo: z.boolean().optional(),
    lagMs: z.number().int().min(1).max(600_000).optional(),
    gzip: z.boolean().optional(),
  })
  .superRefine((rule, ctx) => {
    const problem = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    const truncate = rule.truncate === true || rule.truncateAt !== undefined;
    if (rule.truncate === false && rule.truncateAt !== undefined) problem("truncateAt", "needs truncate to be true or absent");
    const modes = [
      ["drop", rule.drop === true],
      ["truncate", truncate],
      ["trickleMs", rule.trickleMs !== undefined],
      ["stale", rule.stale === true],
      ["repeat", rule.repeat === true],
      ["redirect", rule.redirect !== undefined],
      ["waf", rule.waf === true],
      ["echo", rule.echo === true],
      ["lagMs", rule.lagMs !== undefined],
      ["gzip", rule.gzip === true],
    ].filter(([, on]) => on) as Array<[string, boolean]>;
    if (modes.length > 1) problem(modes[1][0], `a rule has one mode: ${modes.map(([m]) => m).join(" and ")} cannot go together`);
    if (rule.location !== undefined && rule.redirect === undefined) problem("location", "needs redirect");
    if (rule.retryAfterDate === true && rule.status === undefined) problem("retryAfterDate", "needs a status");
    if (modes.length > 0 && modes[0][0] === "echo") {
      if (rule.status === undefined) problem("status", "required with echo (400-599): the status of the page");
      else if (rule.after === true && rule.status < 500) problem("status", "an answer lost after carrying out is a 5xx (500-599)");
      if (rule.retryAfter !== undefined) problem("retryAfter", "has no meaning with echo");
      return;
    }
    if (modes.length > 0) {
      const [mode] = modes[0];
      if (rule.status !== undefined) problem("status", `has no meaning with ${mode} (no status of its own is answered)`);
      if (rule.retryAfter !== undefined) problem("retryAfter", `has no meaning with ${mode}`);
      const carried = truncate || ["trickleMs", "stale", "repeat", "lagMs", "gzip"].includes(mode);
      if (carried && rule.after === false) problem("after", `${mode} always carries the request out first`);
      if (mode === "redirect" && rule.after === true && rule.redirect !== 303 && rule.redirect !== 301 && rule.redirect !== 302) {
        problem("after", "a 307 or 308 says the request was not carried out: only 301, 302 and 303 may follow one that was");
      }
      return;
    }
    if (rule.status === undefined) problem("status", "required (400-599) unless another mode is set");
    else if (rule.after === true && rule.status < 500) problem("status", "an answer lost after carrying out is a 5xx (500-599)");
  });

/** The rule shown and its effect, from a parsed input. */
function ruleOf(input: z.output<typeof FaultInput>, id: number): { rule: FaultRule; effect: FaultEffect } {
  const rule: FaultRule = { id, path: input.path, count: input.count };
  if (input.method !== undefined) rule.method = input.method.toUpperCase();
  if (input.holdMs !== undefined) rule.holdMs = input.holdMs;
  if (input.truncate === true || input.truncateAt !== undefined) {
    Object.assign(rule, { truncate: true, after: true }, input.truncateAt === undefined ? {} : { truncateAt: input.truncateAt });
    return {
      rule,
      effect:
        input.truncateAt === undefined ? { kind: "truncate", after: true } : { kind: "truncate", after: true, atBytes: input.truncateAt },
    };
  }
  if (input.drop === true) {
    Object.assign(rule, { drop: true, after: input.after === true });
    return { rule, effect: { kind: "drop", after: input.after === true } };
  }
  if (input.trickleMs !== undefined) {
    Object.assign(rule, { trickleMs: input.trickleMs, after: true });
    return { rule, effect: { kind: "trickle", after: true, byteMs: input.trickleMs } };
  }
  if (input.stale === true) {
    Object.assign(rule, { stale: true, after: true });
    return { rule, effect: { kind: "stale", after: true } };
  }
  if (input.repeat === true) {
    Object.assign(rule, { repeat: true, after: true });
    return { rule, effect: { kind: "repeat", after: true } };
  }
  if (input.redirect !== undefined) {
    const location = input.location ?? "https://api.example.com/public/api/v2";
    const after = input.after === true;
    Object.assign(rule, { redirect: input.redirect, location, after });
    return { rule, effect: { kind: "redirect", after, status: input.redirect, location } };
  }
  if (input.waf === true) {
    Object.assign(rule, { waf: true, after: input.after === true });
    return { rule, effect: { kind: "waf", after: input.after === true } };
  }
  if (input.echo === true) {
    const status = input.status!;
    Object.assign(rule, { echo: true, status, after: input.after === true });
    return { rule, effect: { kind: "echo", after: input.after === true, status } };
  }
  if (input.lagMs !== undefined) {
    Object.assign(rule, { lagMs: input.lagMs, after: true });
    return { rule, effect: { kind: "lag", after: true, lagMs: input.lagMs } };
  }
  if (input.gzip === true) {
    Object.assign(rule, { gzip: true, after: true });
    return { rule, effect: { kind: "gzip", after: true } };
  }
  const status = input.status!;
  rule.status = status;
  if (input.after !== undefined) rule.after = input.after;
  const retry = input.retryAfter ?? (status === 429 ? 1 : undefined);
  if (retry !== undefined) rule.retryAfter = retry;
  if (input.retryAfterDate === true) rule.retryAfterDate = true;
  const effect: FaultEffect = { kind: "status", status, after: input.after === true, retryAfterDate: input.retryAfterDate === true };
  if (retry !== undefined) effect.retryAfter = retry;
  return { rule, effect };
}

/** The active fault rules, first match wins. */
export class Faults {
  private rules: Array<{ rule: FaultRule; action: FaultAction; pattern: RegExp }> = [];
  private nextId = 1;

  /** Adds a rule from the control path's body. @throws InvalidRequestError */
  add(body: unknown): FaultRule {
    const input = parseControlInput(FaultInput, body, "Invalid fault rule");
    const pattern = rulePattern(input.path, "Invalid fault rule");
    const { rule, effect } = ruleOf(input, this.nextId++);
    this.rules.push({ rule, action: { ...effect, holdMs: input.holdMs ?? 0 }, pattern });
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
