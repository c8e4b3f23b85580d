/**
 * A typed client of the emulator's control path (`/_emulator/...`, see emulator/README.md):
 * for tests, benchmarks and a user's own CI. Each call sends one request with one of the
 * emulator's tokens and throws, naming the call and the answer, when the emulator refuses it.
 */
import type { RequestLogEntry } from "./http/request-log";

/** One API request the emulator answered, as its log shows it. */
export type LoggedRequest = RequestLogEntry;

/** A fault rule (POST /_emulator/faults). */
export interface FaultRule {
  method?: string;
  /** Regular expression on the request path. */
  path: string;
  status?: number;
  count?: number;
  retryAfter?: number;
  /** Carry the request out, then lose its answer. */
  after?: boolean;
  /** Destroy the connection without an answer. */
  drop?: boolean;
  /** Send the real answer cut short (half the body unless `truncateAt`). */
  truncate?: boolean;
  truncateAt?: number;
  /** Send `Retry-After` as an HTTP date instead of seconds. */
  retryAfterDate?: boolean;
  /** Hold the request this many milliseconds first (a gateway that holds it). */
  holdMs?: number;
  /** Carry the request out and send its body one byte every `trickleMs` milliseconds. */
  trickleMs?: number;
  /** Answer with the answer the same path had the time before (a list one answer behind). */
  stale?: boolean;
  /** Carry the request out and show every item of a list answer twice. */
  repeat?: boolean;
  /** Answer this redirect status (301, 302, 303, 307, 308) with `location`; nothing is carried out. */
  redirect?: number;
  location?: string;
  /** Answer 200 with a firewall's own HTML page (carried out only with `after`). */
  waf?: boolean;
}

/** A rewrite rule (POST /_emulator/rewrites). */
export interface RewriteRule {
  method?: string;
  path?: string;
  field: string;
  value: unknown;
  count?: number;
}

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

  /** Limits the API to `requestsPerSecond` (0 lifts the limit). */
  async rateLimit(requestsPerSecond: number): Promise<void> {
    await this.send("POST", "/rate-limit", { requestsPerSecond });
  }

  /** Delays every answer by `ms`. */
  async latency(ms: number): Promise<void> {
    await this.send("POST", "/latency", { ms });
  }

  /** Moves the emulator's clock forward, shifts the clock it reports, or only the `Date` header's (a gateway's clock). */
  async clock(change: { advanceMs?: number; offsetMs?: number; dateOffsetMs?: number }): Promise<void> {
    await this.send("POST", "/clock", change);
  }

  /** Empties everything (tokens and projects kept). */
  async reset(): Promise<void> {
    await this.send("POST", "/reset");
  }
}
