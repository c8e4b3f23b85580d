/** The types the pacer (pacer.ts) and its callers share: who a request serves, why one was let go unsent. */

/** Who a request serves: writes go first, waiters' polls last. */
export type Priority = "write" | "read" | "poll";

/** A request waiting for its turn. */
export interface Waiting {
  /** Lets it go: `true` to send, `false` when the pause outlasts what it may wait. */
  release(send: boolean): void;
  /** The latest time (epoch ms) it may still be sent; Infinity when it waits through any pause. */
  waitUntil: number;
  /** When it was queued (epoch ms). */
  queuedAt: number;
  /**
   * Past this time (epoch ms) it is let go unsent when its turn comes, if the client sent other
   * requests ahead of it meanwhile: it waited too long behind them to be worth a turn.
   */
  staleAt: number;
}

/** Why a request was let go unsent, and until when it would have had to wait. */
export interface Held {
  /** Until when (epoch ms) it would have had to wait. */
  until: number;
  /**
   * What held it: a 429's pause, its turn in the schedule the machine's clients of the key
   * share, or (a poll) the client's other requests ahead of it until it was stale.
   */
  by: "pause" | "schedule" | "queue";
  /** Clients of the key on this machine that took turns in the last seconds, this one included (1 when it paces alone). */
  sharedWith: number;
  /** The key's limit as known (requests per second), if it is. */
  limit: number | undefined;
}

/**
 * What one request costs a client now, beyond its bytes: nothing (`free`: the API has not
 * limited the key), a turn at a limit the key's other clients share (`limited`: a 429 met, or a
 * limit announced), or a slot of the machine's own on the grid of a fleet told its size
 * (`slot`: one request a cycle, seconds of the machine's time; fleetSlots.ts).
 */
export type RequestPrice = "free" | "limited" | "slot";
