/** The emulator's clock (wall time plus an offset that tests may move forward) and the clock it reports. */

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

/**
 * The server's clock as clients see it: the emulator clock shifted by an offset the
 * control path sets (negative allowed), shown in `created` timestamps and the `Date`
 * header. Transitions keep running on the emulator clock, so a jump of the offset never
 * stalls or finishes one. Control state: never persisted.
 */
export class ReportedClock implements Clock {
  private offsetMs = 0;

  /** @param base - the emulator clock. */
  constructor(private readonly base: Clock) {}

  /** Current time as the server reports it, epoch milliseconds. */
  now(): number {
    return this.base.now() + this.offsetMs;
  }

  /** An emulator-clock time as the server reports it. */
  report(emulatorTime: number): number {
    return emulatorTime + this.offsetMs;
  }

  /** A time the server reported (or a client sent), back on the emulator clock. */
  unreport(reportedTime: number): number {
    return reportedTime - this.offsetMs;
  }

  /** Sets the offset (replacing the previous one). @throws RangeError unless finite */
  setOffset(ms: number): void {
    if (!Number.isFinite(ms)) throw new RangeError(`cannot offset the clock by ${ms} ms`);
    this.offsetMs = ms;
  }

  /** The offset, milliseconds. */
  get offset(): number {
    return this.offsetMs;
  }
}
