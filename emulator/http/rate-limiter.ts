/** A sliding one-second window rate limiter for the API. */
import { RateLimitedError } from "./http-errors";

/** Admits at most `requestsPerSecond` API requests in any one-second window. */
export class RateLimiter {
  private limit = 0;
  private admitted: number[] = [];

  /** @param now - time source in milliseconds (wall clock by default). */
  constructor(private readonly now: () => number = Date.now) {}

  /** Sets the limit; 0 turns limiting off. */
  setLimit(requestsPerSecond: number): void {
    this.limit = requestsPerSecond;
    this.admitted = [];
  }

  /** Counts a request. @throws RateLimitedError when over the limit */
  admit(): void {
    if (this.limit <= 0) return;
    const now = this.now();
    this.admitted = this.admitted.filter((t) => now - t < 1000);
    if (this.admitted.length >= this.limit) {
      const waitMs = 1000 - (now - this.admitted[0]);
      throw new RateLimitedError(Math.max(1, Math.ceil(waitMs / 1000)), `at most ${this.limit} requests per second`);
    }
    this.admitted.push(now);
  }
}
