/**
 * What an answer's rate-limit fields say, where the API sends them: the IETF fields of
 * draft-ietf-httpapi-ratelimit-headers (-08 and later), `RateLimit-Policy: "default";q=100;w=10`
 * (a quota of 100 requests in a window of 10 s) and `RateLimit: "default";r=42;t=3` (42 left,
 * more in 3 s), and the separate fields of the earlier drafts that many APIs still send
 * (`RateLimit-Remaining`, `RateLimit-Reset`, and the policy as `10;w=1`). Pure; a field that
 * cannot be read says nothing (the API's 429s still pace the client).
 */

/** The rate limit an answer announces, as far as it says. */
export interface LimitFields {
  /** The binding policy's quota per second (requests), the lowest of the policies announced. */
  perSecond?: number;
  /** Requests left of that policy's quota now. */
  remaining?: number;
  /** Seconds until more of it is made available. */
  resetSeconds?: number;
  /** The binding policy's window, seconds: a refusal of the limit's asks to wait no longer. */
  windowSeconds?: number;
}

/** A header's values as one comma-joined string (a field may be split over several lines). */
function joined(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  const text = Array.isArray(value) ? value.join(",") : value;
  return text.trim() === "" ? undefined : text;
}

/** One member of a structured-field list: its item and its parameters (`"name";q=10;w=1`). */
interface Member {
  item: string;
  params: Map<string, string>;
}

/** The members of a structured-field list, split on commas and semicolons outside quoted strings. */
function members(text: string): Member[] {
  const out: Member[] = [];
  let parts: string[] = [""];
  let quoted = false;
  const flush = (): void => {
    const [item, ...params] = parts.map((p) => p.trim());
    if (item !== undefined && (item !== "" || params.length > 0)) {
      out.push({ item, params: new Map(params.map((p) => [p.split("=")[0].trim().toLowerCase(), p.slice(p.indexOf("=") + 1).trim()])) });
    }
    parts = [""];
  };
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    if (!quoted && ch === ",") flush();
    else if (!quoted && ch === ";") parts.push("");
    else parts[parts.length - 1] += ch;
  }
  flush();
  return out;
}

/** A non-negative whole number, or undefined. */
function count(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d+$/.test(text.trim())) return undefined;
  return Number(text.trim());
}

/** The quota per second and the window (seconds) of each policy of a `RateLimit-Policy` field (requests only), by policy name. */
function policies(text: string | undefined): Map<string, { perSecond: number; window: number }> {
  const found = new Map<string, { perSecond: number; window: number }>();
  for (const m of members(text ?? "")) {
    const unit = m.params.get("qu");
    if (unit !== undefined && unit.replace(/"/g, "") !== "requests") continue;
    // The earlier drafts' syntax gives the quota as the item itself: `10;w=1`.
    const q = count(m.params.get("q")) ?? count(m.item);
    const w = count(m.params.get("w")) ?? 1;
    if (q !== undefined && w > 0) found.set(m.item, { perSecond: q / w, window: w });
  }
  return found;
}

/**
 * What the rate-limit fields of an answer's `headers` (lower-case names, as undici gives them)
 * say; an empty object when there are none. Never throws.
 */
export function readLimitFields(headers: Record<string, string | string[] | undefined>): LimitFields {
  const out: LimitFields = {};
  const byPolicy = policies(joined(headers["ratelimit-policy"]));
  let binding: string | undefined;
  for (const [name, { perSecond, window }] of byPolicy) {
    if (out.perSecond === undefined || perSecond < out.perSecond) [out.perSecond, out.windowSeconds, binding] = [perSecond, window, name];
  }
  const limits = members(joined(headers.ratelimit) ?? "");
  const current = limits.find((m) => m.item === binding) ?? limits.find((m) => m.params.has("r"));
  if (current !== undefined) {
    const r = count(current.params.get("r"));
    const t = count(current.params.get("t"));
    if (r !== undefined) out.remaining = r;
    if (t !== undefined) out.resetSeconds = t;
  }
  // The earlier drafts' separate fields, where the current ones are absent (`RateLimit-Limit`
  // names no window, so it says no rate: a limit of 5,000 may be an hour's).
  out.remaining ??= count(joined(headers["ratelimit-remaining"]));
  out.resetSeconds ??= count(joined(headers["ratelimit-reset"]));
  if (out.remaining === undefined) delete out.remaining;
  if (out.resetSeconds === undefined) delete out.resetSeconds;
  return out;
}
