/**
 * How a service converges (framework/convergence.ts): its table of the API's actions
 * (`SERVICE_ACTIONS` in `definition.ts`), and how a service is waited for between them: a
 * service only deletion can help (UNSTABLE) ends it with the advice that fits.
 */
import type { Service } from "../../client";
import { ResourceFailedError } from "../../client/errors";
import { hasStatusClass, SERVICE_STATUS, statusesIn, type StatusIn } from "../../../contract/statuses";
import type { Action, ConvergeContext as BaseContext, Convergence, ConvergeProgress as Progress } from "../../framework/convergence";
import { ProviderErrorCode, UnusableResourceError } from "../../framework/errors";
import { SERVICE_ACTIONS, type DesiredService } from "./definition";

/** What a service's convergence has done so far: read after it failed, to record the service as it now is. */
export interface ConvergeProgress extends Progress {
  /** The password the service has, as far as is known: the recorded one until `updatePassword` is accepted. */
  password?: string;
}

/** Where a service converges: the framework's context, and what the service's actions need besides. */
export interface ConvergeContext extends BaseContext {
  /** The password recorded in state; a different desired one is applied. */
  readonly recordedPassword?: string;
  /** The service was adopted (`adoptId`): a replacement would adopt it again, which changes what to advise. */
  readonly adopted: boolean;
  /** Filled in as actions are accepted, the password applied included. */
  readonly progress: ConvergeProgress;
}

/** The statuses a service's action leaves it in: a settled one, ready or dormant (`READY`, `PAUSED`). */
export type SettledStatus = StatusIn<"service", "ready" | "dormant">;

/** One of the API's actions on a service. */
export interface ServiceAction extends Action<Service, DesiredService, ConvergeContext, SettledStatus> {
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

async function waitFor(ctx: ConvergeContext, id: string, until: SettledStatus[]): Promise<Service> {
  try {
    return await ctx.api.waitForService(id, { until, timeoutMs: ctx.limitMs, projectId: ctx.projectId });
  } catch (e) {
    if (ResourceFailedError.isInstance(e, "service") && hasStatusClass("service", e.state, "failed") && e.lastSeen) {
      throw unusable(e.lastSeen, ctx.adopted);
    }
    throw e;
  }
}

/**
 * Waits until a service is no longer moving between states on its own: ready or paused. A
 * status the client does not know (the API's news) is "not yet", as a waiter reads it.
 */
export async function settle(ctx: ConvergeContext, live: Service): Promise<Service> {
  if (hasStatusClass("service", live.status, "failed", "ending", "gone")) throw unusable(live, ctx.adopted);
  if (hasStatusClass("service", live.status, "ready", "dormant")) return live;
  return waitFor(
    ctx,
    live.service_id,
    live.status === SERVICE_STATUS.PAUSING ? [SERVICE_STATUS.PAUSED] : statusesIn("service", "ready", "dormant"),
  );
}

/** The Service's convergence: its action table and how a service is waited for. */
export const serviceConvergence: Convergence<Service, DesiredService, ConvergeContext, SettledStatus> = {
  actions: SERVICE_ACTIONS,
  idOf: (s) => s.service_id,
  settle,
  waitFor: (ctx, id, status) => waitFor(ctx, id, [status]),
  reread: (ctx, id) => ctx.api.perform("getService", { service: id, projectId: ctx.projectId, fresh: true }),
  accepted(ctx, action, want) {
    if (action.name === "updatePassword" && want.password !== null) ctx.progress.password = want.password;
  },
};
