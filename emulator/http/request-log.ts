/** The log of API requests the emulator received and what their clients saw, for the control path. */

/** What a fault rule did to an answer (absent from entries answered normally). */
export type InjectedOutcome =
  /** Carried out, then answered with the injected 5xx instead of the real answer. */
  | "replaced"
  /** The connection was destroyed without an answer (`status` is 0). */
  | "dropped"
  /** The real answer was sent cut short. */
  | "truncated"
  /** The real answer's body was sent one byte at a time. */
  | "trickled"
  /** The answer this path had the time before was sent (a list one answer behind). */
  | "stale"
  /** The real answer was sent with every list item twice. */
  | "repeated"
  /** A redirect was answered; nothing was carried out. */
  | "redirected"
  /** A firewall's own HTML page (200) was answered instead of the API's. */
  | "waf"
  /** A gateway's error page quoting the request was answered instead of the API's. */
  | "echoed"
  /** The list as it was some time before was sent (a list that lags). */
  | "lagged"
  /** The real answer was sent gzip-compressed, unasked. */
  | "compressed";

/** One API request and what the client saw of its answer. */
export interface RequestLogEntry {
  /** HTTP method. */
  method: string;
  /** Path as received, query string included. */
  path: string;
  /** Status the client saw; 0 when the connection was dropped without an answer. */
  status: number;
  /** When the request arrived (wall clock), ISO 8601 with milliseconds. */
  at: string;
  /** Set when a fault rule changed what the client got (lost, dropped, cut, trickled, stale, lagging, repeated, compressed, redirected, a gateway's page). */
  outcome?: InjectedOutcome;
  /** With `outcome`: whether the request was carried out (its effects happened). */
  carriedOut?: boolean;
  /** With `outcome` and `carriedOut`: the status of the real answer the client did not get whole. */
  realStatus?: number;
  /** Fields that rewrite rules changed in the answer, when any did. */
  rewritten?: string[];
}

/** Requests the log keeps by default; older ones are dropped. */
export const REQUEST_LOG_CAPACITY = 10_000;

/** Keeps the most recent entries, oldest first. */
export class RequestLog {
  private entries: RequestLogEntry[] = [];

  /** @param capacity - entries kept; older ones are dropped. */
  constructor(private readonly capacity = REQUEST_LOG_CAPACITY) {}

  /** Appends an entry. */
  record(entry: RequestLogEntry): void {
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
  }

  /** The entries, oldest first. */
  list(): RequestLogEntry[] {
    return [...this.entries];
  }

  /** Forgets every entry. */
  clear(): void {
    this.entries = [];
  }
}
