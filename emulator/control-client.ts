/**
 * A typed client of the emulator's control path (`/_emulator/...`, see emulator/README.md):
 * for tests, benchmarks and a user's own CI. Each call sends one request with one of the
 * emulator's tokens and throws, naming the call and the answer, when the emulator refuses it.
 */
import type { FaultRule as ShownFaultRule } from "./http/faults";
import type { RateLimitPolicy } from "./http/rate-limiter";
import type { RequestLogEntry } from "./http/request-log";
import type { RewriteRule as ShownRewriteRule } from "./http/rewrites";

/** One API request the emulator answered, as its log shows it. */
export type LoggedRequest = RequestLogEntry;

/**
 * A fault rule as posted (POST /_emulator/faults): the rule the control path shows, without the
 * id it gives; `count` defaults to 1.
 */
export type FaultRule = Omit<ShownFaultRule, "id" | "count"> & { count?: number };

/**
 * A rewrite rule as posted (POST /_emulator/rewrites): the rule the control path shows, without
 * the id it gives; `path` defaults to every path, `count` to 1.
 */
export type RewriteRule = Omit<ShownRewriteRule, "id" | "count" | "path"> & { path?: string; count?: number };

/** The control path of one running emulator. */
export class EmulatorControl {
  /**
   * @param url the emulator's URL without the API's base path (`http://127.0.0.1:<port>`)
   * @param token one of the emulator's tokens
   */
  constructor(
    readonly url: string,
    private readonly token: string,
  ) {}

  /** Sends `method` to `/_emulator<path>` and returns the raw answer. */
  call(method: string, path: string, body?: unknown): Promise<Response> {
    return fetch(`${this.url}/_emulator${path}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  /** Sends and returns the parsed body (undefined when empty); throws unless 2xx. */
  async send<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.call(method, path, body);
    const text = await res.text();
    if (!res.ok) throw new Error(`emulator control ${method} ${path}: HTTP ${res.status} ${text}`);
    return (text === "" ? undefined : JSON.parse(text)) as T;
  }

  /** The request log, oldest first. */
  requests(): Promise<LoggedRequest[]> {
    return this.send<LoggedRequest[]>("GET", "/requests");
  }

  /** Empties the request log. */
  async clearRequests(): Promise<void> {
    await this.send("DELETE", "/requests");
  }

  /** Adds a fault rule. */
  async fault(rule: FaultRule): Promise<void> {
    await this.send("POST", "/faults", rule);
  }

  /** Adds a rewrite rule. */
  async rewrite(rule: RewriteRule): Promise<void> {
    await this.send("POST", "/rewrites", rule);
  }

  /**
   * Limits each API key to `requestsPerSecond` (0 lifts the limit); `options` leave
   * `Retry-After` out of the 429s (`retryAfter: false`), or add the IETF `RateLimit-Policy`
   * and `RateLimit` fields to every answer (`headers: true`).
   */
  async rateLimit(requestsPerSecond: number, options: Omit<RateLimitPolicy, "requestsPerSecond"> = {}): Promise<void> {
    await this.send("POST", "/rate-limit", { requestsPerSecond, ...options });
  }

  /** Delays every answer by `ms`. */
  async latency(ms: number): Promise<void> {
    await this.send("POST", "/latency", { ms });
  }

  /**
   * Moves the emulator's clock forward, shifts the clock it reports, or only the `Date`
   * header's (a gateway's clock; `dateFlipMs` more on every second answer: gateways whose clocks disagree).
   */
  async clock(change: { advanceMs?: number; offsetMs?: number; dateOffsetMs?: number; dateFlipMs?: number }): Promise<void> {
    await this.send("POST", "/clock", change);
  }

  /** Empties everything (tokens and projects kept). */
  async reset(): Promise<void> {
    await this.send("POST", "/reset");
  }
}
