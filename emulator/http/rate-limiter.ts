/**
 * The API's rate limit: a sliding one-second window per API key (the bearer token a request
 * carries; requests without one share the window of no key), as a real API limits each key.
 * A 429 carries `Retry-After` in whole seconds unless the policy says not; with `headers`,
 * every API answer carries the IETF fields `RateLimit-Policy` and `RateLimit`
 * (draft-ietf-httpapi-ratelimit-headers-10: `"default";q=10;w=1` and `"default";r=3;t=1`).
 */
import { RateLimitedError } from "./http-errors";

/** How the API limits its keys (POST /_emulator/rate-limit). */
export interface RateLimitPolicy {
  /** Requests a key may make in any one second; 0 turns limiting off. */
  requestsPerSecond: number;
  /** Whether a 429 carries `Retry-After`. @default true */
  retryAfter?: boolean;
  /** Whether every API answer carries `RateLimit-Policy` and `RateLimit`. @default false */
  headers?: boolean;
}

/** The name of the one policy the fields announce. */
const POLICY = '"default"';

/** Admits at most `requestsPerSecond` API requests of each key in any one-second window. */
export class RateLimiter {
  private policy: Required<RateLimitPolicy> = { requestsPerSecond: 0, retryAfter: true, headers: false };
  /** When each key's admitted requests came, oldest first, within the last second. */
  private readonly admitted = new Map<string, number[]>();

  /** @param now - time source in milliseconds (wall clock by default). */
  constructor(private readonly now: () => number = Date.now) {}

  /** Sets the policy (forgetting what each key used); a rate of 0 turns limiting off. */
  setPolicy(policy: RateLimitPolicy): void {
    this.policy = { retryAfter: true, headers: false, ...policy };
    this.admitted.clear();
  }

  /** Sets the limit with the default policy (a 429 carries `Retry-After`, no RateLimit fields); 0 turns limiting off. */
  setLimit(requestsPerSecond: number): void {
    this.setPolicy({ requestsPerSecond });
  }

  /**
   * Counts a request of `key` (its bearer token, or "" when it has none).
   *
   * @returns the headers its answer carries (the RateLimit fields, when the policy sends them).
   * @throws RateLimitedError when the key is over its limit (with `Retry-After` and the fields, as the policy says).
   */
  admit(key: string): Record<string, string> {
    const { requestsPerSecond: limit, retryAfter, headers } = this.policy;
    if (limit <= 0) return {};
    const now = this.now();
    const times = (this.admitted.get(key) ?? []).filter((t) => now - t < 1000);
    this.admitted.set(key, times);
    const over = times.length >= limit;
    if (!over) times.push(now);
    // Until the oldest request of the window leaves it: when a unit of quota comes back.
    const waitMs = times.length === 0 ? 0 : 1000 - (now - times[0]);
    const resetSeconds = Math.max(over ? 1 : 0, Math.ceil(waitMs / 1000));
    const fields: Record<string, string> = headers
      ? {
          "RateLimit-Policy": `${POLICY};q=${Math.floor(limit)};w=1`,
          RateLimit: `${POLICY};r=${Math.max(0, Math.floor(limit) - times.length)};t=${resetSeconds}`,
        }
      : {};
    if (!over) return fields;
    throw new RateLimitedError(retryAfter ? resetSeconds : undefined, `at most ${limit} requests per second`, fields);
  }
}

/** The key a request is limited by: its bearer token, or "" without one (never logged or shown). */
export function rateLimitKey(authorization: string | undefined): string {
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  return match === null ? "" : match[1];
}
