/** The log of API requests the emulator answered, for the control path. */

/** One answered API request. */
export interface RequestLogEntry {
  /** HTTP method. */
  method: string;
  /** Path as received, query string included. */
  path: string;
  /** Status answered. */
  status: number;
  /** When the request arrived (wall clock), ISO 8601 with milliseconds. */
  at: string;
}

/** Keeps the most recent entries, oldest first. */
export class RequestLog {
  private entries: RequestLogEntry[] = [];

  /** @param capacity - entries kept; older ones are dropped. */
  constructor(private readonly capacity = 10_000) {}

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
