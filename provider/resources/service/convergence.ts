/**
 * Brings a live service to a desired state: one loop over the service's table of the API's
 * actions (`SERVICE_ACTIONS` in `definition.ts`), each saying when it is needed, what it
 * sends and what the service goes through after it. A difference that needs no action
 * sends nothing.
 */
import type { ClouddbClient, ProjectOptions, Service } from "../../client";
import { ConflictError, ResourceFailedError } from "../../client/errors";
import { classifyStatus } from "../../../contract/statuses";
import { ProviderErrorCode, UnusableResourceError } from "../../framework/errors";
import { SERVICE_ACTIONS, type DesiredService } from "./definition";

/** What a convergence has done so far: read after it failed, to record the service as it now is. */
export interface ConvergeProgress {
  /** The actions the API accepted, in order. */
  readonly sent: string[];
  /** The password the service has, as far as is known: the recorded one until `updatePassword` is accepted. */
  password?: string;
}

/** Where convergence happens and how long each wait may take. */
export interface ConvergeContext {
  readonly api: ClouddbClient;
  readonly projectId: string;
  /** Limit for each wait, in milliseconds. */
  readonly timeoutMs: number;
  /** The password recorded in state; a different desired one is applied. */
  readonly recordedPassword?: string;
  /** The service was adopted (`adoptId`): a replacement would adopt it again, which changes what to advise. */
  readonly adopted: boolean;
  /** Filled in as actions are accepted. */
  readonly progress: ConvergeProgress;
}

/** One of the API's actions on a service. */
export interface ServiceAction {
  /** The action's name, as the API's operation. */
  readonly name: string;
  /** True when the live service differs from what is wanted in what this action changes. */
  needed(live: Service, want: DesiredService, ctx: ConvergeContext): boolean;
  /** Sends it. */
  send(api: ClouddbClient, id: string, want: DesiredService, live: Service, opts: ProjectOptions): Promise<unknown>;
  /**
   * What follows it: the status to wait for (an asynchronous action), or `at-once` (the API
   * applied it before answering; it shows in a later read).
   */
  readonly then: "READY" | "PAUSED" | "at-once";
  /** The API refuses it on a paused service: a paused service is resumed first. */
  readonly needsRunning: boolean;
}

/**
 * The error for a service only deletion can help. An adopted service is not the stack's to
 * delete, and a replacement would adopt the same one again: the advice says so.
 */
export function unusable(service: Service, adopted: boolean): UnusableResourceError<Service> {
  const what = `Service ${service.service_id} (${service.name ?? "unnamed"}) is ${service.status}: the API allows nothing but deleting it.`;
  const advice = adopted
    ? "It was adopted (adoptId), so `pulumi up --replace` would adopt it again: remove adoptId from the program, then run " +
      "`pulumi up --replace <urn>` to make a new service in its place; this one is left in the cloud for you to delete."
    : "Replace it with `pulumi up --replace <urn>`, or delete it and run `pulumi up` again.";
  return new UnusableResourceError(service, `${what} ${advice}`, ProviderErrorCode.ServiceUnusable);
}

async function waitFor(ctx: ConvergeContext, id: string, until: Array<"READY" | "PAUSED">): Promise<Service> {
  try {
    return await ctx.api.waitForService(id, { until, timeoutMs: ctx.timeoutMs, projectId: ctx.projectId });
  } catch (e) {
    if (ResourceFailedError.isInstance(e, "service") && e.state === "UNSTABLE" && e.lastSeen) throw unusable(e.lastSeen, ctx.adopted);
    throw e;
  }
}

/**
 * Waits until a service is no longer moving between states on its own: ready or paused. A
 * status the client does not know (the API's news) is "not yet", as a waiter reads it.
 */
export async function settle(ctx: ConvergeContext, live: Service): Promise<Service> {
  const cls = classifyStatus("service", live.status);
  if (cls === "failed" || cls === "ending" || cls === "gone") throw unusable(live, ctx.adopted);
  if (cls === "ready" || cls === "dormant") return live;
  return waitFor(ctx, live.service_id, live.status === "PAUSING" ? ["PAUSED"] : ["READY", "PAUSED"]);
}

/**
 * Sends an asynchronous action. A 409 does not fail it at once: when an earlier attempt
 * was accepted but its answer lost (a 5xx or a dropped connection that the client then
 * retried), the retry meets the service busy applying that very attempt; and the service
 * may be busy with a change made elsewhere. So on 409 the service is waited out and read:
 * if the change already shows (the API shows a change from the moment it accepts it), the
 * action is done; otherwise it is sent once more.
 */
async function perform(ctx: ConvergeContext, id: string, action: ServiceAction, want: DesiredService, live: Service): Promise<void> {
  const opts = { projectId: ctx.projectId };
  try {
    await action.send(ctx.api, id, want, live, opts);
  } catch (e) {
    if (!ConflictError.isInstance(e)) throw e;
    const now = await settle(ctx, await ctx.api.perform("getService", { service: id, projectId: ctx.projectId, fresh: true }));
    if (action.needed(now, want, ctx)) await action.send(ctx.api, id, want, now, opts);
  }
  accepted(ctx, action, want);
}

/** Records an action the API accepted. */
function accepted(ctx: ConvergeContext, action: ServiceAction, want: DesiredService): void {
  ctx.progress.sent.push(action.name);
  if (action.name === "updatePassword" && want.password !== null) ctx.progress.password = want.password;
}

/**
 * Applies every difference between `live` and `want`, running each needed action of
 * {@link SERVICE_ACTIONS} in order and waiting after each asynchronous one, and returns the
 * service as it is at the end.
 *
 * @throws UnusableResourceError when the service turns UNSTABLE; a client TimeoutError
 *   when a wait exceeds `ctx.timeoutMs`; the API's error when an action is refused.
 */
export async function converge(ctx: ConvergeContext, live: Service, want: DesiredService): Promise<Service> {
  const id = live.service_id;
  let current = await settle(ctx, live);
  let unseen = false;
  for (const action of SERVICE_ACTIONS) {
    if (!action.needed(current, want, ctx)) continue;
    if (action.then === "at-once") {
      await action.send(ctx.api, id, want, current, { projectId: ctx.projectId });
      accepted(ctx, action, want);
      unseen = true;
      continue;
    }
    await perform(ctx, id, action, want, current);
    current = await waitFor(ctx, id, [action.then]);
    unseen = false;
  }
  // Changes answered at once show only in a later read (the next wait's, or a last one).
  return unseen ? ctx.api.perform("getService", { service: id, projectId: ctx.projectId, fresh: true }) : current;
}
