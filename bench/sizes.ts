/**
 * The points of the bench's curves. `npm run bench` measures the full curves (about 9
 * to 11 minutes on a 2-core machine); `BENCH_QUICK=1` stops the curves through the plugin one
 * point earlier and repeats less (about 5 minutes), for a look while working, not for the
 * figures of the Performance section.
 */

/** The points of every curve of one run. */
export interface Sizes {
  /** True when the run is the quick one. */
  readonly quick: boolean;
  /** Services created at once, then refreshed (N). */
  readonly creates: readonly number[];
  /** Services created at once against a rate limit. */
  readonly rateLimited: readonly number[];
  /** Services already in the project when one more is created (L). */
  readonly projectSizes: readonly number[];
  /** Requests queued at the pacer (Q), and waits on a list as long (W = L) at the poll hub. */
  readonly queues: readonly number[];
  /** Refreshes of the largest N, in each tree: the median is the figure. */
  readonly refreshes: number;
  /** Fresh plugin processes per tree for a first call's time: the median is the figure. */
  readonly starts: number;
  /** Stacks of a fleet on one machine (K), each of 10 services, one API key. */
  readonly fleets: readonly number[];
}

const FULL: Sizes = {
  quick: false,
  creates: [10, 100, 1_000],
  rateLimited: [20, 200],
  projectSizes: [0, 1_000, 5_000],
  queues: [1_000, 10_000, 100_000],
  refreshes: 3,
  starts: 5,
  fleets: [1, 5, 20, 50],
};

const QUICK: Sizes = {
  quick: true,
  creates: [10, 100],
  rateLimited: [20],
  projectSizes: [0, 1_000],
  // In this process, half a minute: the whole curve (where the growth is judged) even in a quick run.
  queues: [1_000, 10_000, 100_000],
  refreshes: 1,
  starts: 3,
  fleets: [1, 20],
};

/**
 * The sizes of this run: {@link QUICK} when `BENCH_QUICK` is `1`, else the full curves;
 * `BENCH_FLEETS` (`1,20`) picks the fleet sizes.
 */
export function sizes(env: NodeJS.ProcessEnv = process.env): Sizes {
  const chosen = env.BENCH_QUICK === "1" ? QUICK : FULL;
  const fleets = env.BENCH_FLEETS?.split(",")
    .map(Number)
    .filter((k) => Number.isInteger(k) && k > 0);
  return fleets !== undefined && fleets.length > 0 ? { ...chosen, fleets } : chosen;
}
