/**
 * A first-in first-out queue whose `push` and `shift` take constant time whatever its
 * length (an array's `shift` moves every element: a queue of 100,000 drained that way
 * costs tens of microseconds a request). The pacer's queues and its count of accepted
 * answers ({@link Times}) are such queues.
 */

/** Entries dropped from the front are reclaimed once at least this many have gone... */
const COMPACT_AFTER = 1_024;

/** A FIFO queue (see the module comment). */
export class Fifo<T> {
  private items: (T | undefined)[] = [];
  private head = 0;

  /** How many entries it holds. */
  get size(): number {
    return this.items.length - this.head;
  }

  /** The oldest entry, or undefined when it is empty. */
  peek(): T | undefined {
    return this.head < this.items.length ? this.items[this.head] : undefined;
  }

  /** Adds `item` at the back. */
  push(item: T): void {
    this.items.push(item);
  }

  /** Removes and returns the oldest entry, or undefined when it is empty. */
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head] = undefined;
    this.head++;
    // ...and when they are at least half of the array: amortized constant time.
    if (this.head >= COMPACT_AFTER && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  /** The entry `index` places from the oldest (0: the oldest), or undefined past the last. Constant time. */
  at(index: number): T | undefined {
    return index >= 0 && index < this.size ? this.items[this.head + index] : undefined;
  }

  /** Removes every entry and returns them, oldest first. */
  drain(): T[] {
    const all = this.items.slice(this.head) as T[];
    this.items = [];
    this.head = 0;
    return all;
  }

  /** Keeps the entries `keep` says to keep (in order) and returns the others, oldest first. Linear time. */
  partition(keep: (item: T) => boolean): T[] {
    const kept: T[] = [];
    const dropped: T[] = [];
    for (const item of this.drain()) (keep(item) ? kept : dropped).push(item);
    this.items = kept;
    return dropped;
  }
}

/**
 * Times (epoch ms) kept in order, oldest first: how many fall in a window is counted by binary
 * search, not by a walk over them all (the pacer counts its accepted answers at every answer).
 */
export class Times extends Fifo<number> {
  /** Adds `time` at the back; one earlier than the last (a clock stepped back) as the last, so that they stay in order. */
  override push(time: number): void {
    super.push(Math.max(time, this.at(this.size - 1) ?? time));
  }

  /** Forgets the times before `time`. */
  forgetBefore(time: number): void {
    while ((this.peek() ?? Infinity) < time) this.shift();
  }

  /** How many times fall after `from` and by `to` (none when `to` is before `from`). Logarithmic time. */
  countIn(from: number, to: number): number {
    return Math.max(0, this.countBy(to) - this.countBy(from));
  }

  /** How many times fall by `time`. */
  private countBy(time: number): number {
    let [lo, hi] = [0, this.size];
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.at(mid)! <= time) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
