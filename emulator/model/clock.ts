/** The emulator's clock: wall time plus an offset that tests may move forward. */

/** A source of the current time in epoch milliseconds. */
export interface Clock {
  /** Current time, epoch milliseconds. */
  now(): number;
}

/**
 * Wall-clock time shifted by an offset. `advance` moves it forward (never back), which
 * finishes transitions without waiting; the offset is persisted with the state.
 */
export class OffsetClock implements Clock {
  /**
   * @param offsetMs - initial offset added to `Date.now()`.
   * @param wallClock - the underlying time source (default `Date.now`).
   */
  constructor(
    private offsetMs = 0,
    private readonly wallClock: () => number = Date.now,
  ) {}

  /** Current emulator time, epoch milliseconds. */
  now(): number {
    return this.wallClock() + this.offsetMs;
  }

  /** Moves the clock forward by `ms` milliseconds (negative values are refused). */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`cannot advance the clock by ${ms} ms`);
    this.offsetMs += ms;
  }

  /** The current offset, for persistence. */
  get offset(): number {
    return this.offsetMs;
  }
}
