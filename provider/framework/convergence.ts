/**
 * One convergence design for every kind: a table of the API's actions, each saying when it
 * is needed (the live resource differs from what is wanted in what it changes), what it sends
 * and what the resource goes through after it (a state to wait for, or nothing: the API
 * applied it before answering). {@link converge} runs the table in order; a difference that
 * needs no action sends nothing. Each kind gives its table and how to wait (a
 * {@link Convergence}); the Service's is `resources/service/convergence.ts`.
 */
import type { ClouddbClient } from "../client/client";
import { ConflictError } from "../client/errors";

/** What a convergence has done so far: read after it failed, to record the resource as it now is. */
export interface ConvergeProgress {
  /** The actions the API accepted, in order. */
  readonly sent: string[];
}

/** Where a convergence happens: the API, the resource's project, how long each wait may take, and what it did. */
export interface ConvergeContext {
  readonly api: ClouddbClient;
  readonly projectId: string;
  /** Limit of each wait, in milliseconds. */
  readonly limitMs: number;
  /** Filled in as actions are accepted. */
  readonly progress: ConvergeProgress;
}

/** The `then` of an action the API applies before answering. */
export const AT_ONCE = "at-once";

/**
 * One of the API's actions on a resource of a kind whose live form is `L`, wanted form `W`,
 * convergence context `C` and statuses an action may leave it in `S` (the contract's, e.g.
 * `StatusIn<"service", "ready" | "dormant">`; `never` for a kind whose actions all apply at once).
 */
export interface Action<L, W, C, S extends string = never> {
  /** The action's name, as the API's operation. */
  readonly name: string;
  /** True when the live resource differs from what is wanted in what this action changes. */
  needed(live: L, want: W, ctx: C): boolean;
  /** Sends it. */
  send(ctx: C, id: string, want: W, live: L): Promise<unknown>;
  /** What follows it: the status to wait for (an asynchronous action), or `at-once` (it shows in a later read). */
  readonly then: S | typeof AT_ONCE;
}

/** A kind's table of actions and how to wait between them (the type parameters are {@link Action}'s). */
export interface Convergence<L, W, C extends { readonly progress: ConvergeProgress }, S extends string = never> {
  /** The actions, in an order the API accepts. */
  readonly actions: readonly Action<L, W, C, S>[];
  /** The resource's id. */
  idOf(live: L): string;
  /** Waits until the resource no longer moves on its own; throws when only deleting it can help. */
  settle(ctx: C, live: L): Promise<L>;
  /** Waits, after an asynchronous action, until the resource reaches `status`. */
  waitFor(ctx: C, id: string, status: S): Promise<L>;
  /** Reads the resource afresh (changes answered at once show only in a later read). */
  reread(ctx: C, id: string): Promise<L>;
  /** Learns what an accepted action changed that no read shows (a password). */
  accepted?(ctx: C, action: Action<L, W, C, S>, want: W): void;
}

/**
 * Sends an action. A 409 does not fail it at once: when an earlier attempt was accepted but
 * its answer lost (a 5xx or a dropped connection that the client then retried), the retry
 * meets the resource busy applying that very attempt; and it may be busy with a change made
 * elsewhere. So on 409 the resource is waited out and read: if the change already shows (the
 * API shows a change from the moment it accepts it), the action is done; otherwise it is sent
 * once more.
 */
async function send<L, W, C extends { readonly progress: ConvergeProgress }, S extends string>(
  c: Convergence<L, W, C, S>,
  ctx: C,
  id: string,
  action: Action<L, W, C, S>,
  want: W,
  live: L,
): Promise<void> {
  try {
    await action.send(ctx, id, want, live);
  } catch (e) {
    if (!ConflictError.isInstance(e)) throw e;
    const now = await c.settle(ctx, await c.reread(ctx, id));
    if (action.needed(now, want, ctx)) await action.send(ctx, id, want, now);
  }
  ctx.progress.sent.push(action.name);
  c.accepted?.(ctx, action, want);
}

/**
 * Applies every difference between `live` and `want`: runs each needed action of the table in
 * order, waiting after each asynchronous one, and returns the resource as it is at the end.
 * Each action the API accepted is recorded in `ctx.progress`.
 *
 * @throws what the kind's waits throw (a resource only deletion can help, a timeout), and the
 *   API's error when an action is refused
 */
export async function converge<L, W, C extends { readonly progress: ConvergeProgress }, S extends string>(
  c: Convergence<L, W, C, S>,
  ctx: C,
  live: L,
  want: W,
): Promise<L> {
  const id = c.idOf(live);
  let current = await c.settle(ctx, live);
  let unseen = false;
  for (const action of c.actions) {
    if (!action.needed(current, want, ctx)) continue;
    await send(c, ctx, id, action, want, current);
    if (action.then === AT_ONCE) {
      unseen = true;
      continue;
    }
    current = await c.waitFor(ctx, id, action.then);
    unseen = false;
  }
  return unseen ? c.reread(ctx, id) : current;
}

/** The message of an update that failed after the API accepted some of its actions. */
export function failedAfter(what: string, progress: ConvergeProgress, error: unknown): string {
  return (
    `${what}: the update failed after ${progress.sent.join(", ")}: ${error instanceof Error ? error.message : String(error)}. ` +
    "State records it as it now is; the next `pulumi up` applies the rest."
  );
}
