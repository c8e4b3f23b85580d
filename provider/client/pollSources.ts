/**
 * What the poll hub (pollHub.ts) is given: a wait, and the shared request that observes its
 * resource (a source), with what one answer of it holds.
 */
import type { WatchedKind } from "../../contract";
import type { PollScheduleOptions } from "./pollSchedule";
import type { WatchedBodies, WatchedResource } from "./waitErrors";
import type { Observation, WaitGoal } from "./waiters";

/** One answer of a source, and when its request was sent (client clock, epoch ms). */
export interface Fetched<A> {
  /** The answer. */
  answer: A;
  /** When its request was sent. */
  sentAt: number;
}

/** A request whose answer can serve several waits. */
export interface Source<A> {
  /** Identifies the request: waits with the same key share it. */
  key: string;
  /** Sends it once (no retry), naming `caller` as the operation in errors. */
  fetch: (caller: string) => Promise<Fetched<A>>;
  /** How many items an answer holds (a list's length): what it costs beside its request. */
  size: (answer: A) => number;
}

/** One wait, as the hub is given it. */
export interface WatchSpec<K extends WatchedKind, A> {
  /** The watched resource. */
  resource: WatchedResource<K>;
  /** The client method waiting (`waitForService`, ...), for errors. */
  operation: string;
  /** What ends the wait. */
  goal: WaitGoal;
  /** Total time allowed, in ms. */
  timeoutMs: number;
  /** Its poll schedule (`expectedMs` as the caller's hint, if any). */
  schedule: PollScheduleOptions;
  /** The request that observes it. */
  source: Source<A>;
  /**
   * Finds the resource in an answer of the source (at once, or after a request that
   * confirms it is absent). Throws (or rejects with) a transient error for an item it cannot read.
   */
  locate: (answer: A) => Observation<WatchedBodies[K]> | Promise<Observation<WatchedBodies[K]>>;
  /**
   * Reads the resource alone, once (no retry), naming `caller` as the operation in errors:
   * the poll of a wait when its source's list costs more ({@link listPays}).
   */
  own: (caller: string) => Promise<Fetched<Observation<WatchedBodies[K]>>>;
}
