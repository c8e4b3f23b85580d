/**
 * Brings a live service to a desired state, one API action per difference, in an order
 * the API accepts: settle, resume, resize, HA, environment, pooler, VPC (detach the old
 * before attaching the new), password, pause. Each asynchronous action is followed by a
 * wait for `READY` (or `PAUSED`). A difference that needs no action sends nothing.
 */
import { ConflictError, ResourceFailedError, type ClouddbClient, type Service, type ServiceStatus } from "../../client";
import { sameValue } from "../../framework/diff";
import { attachedVpc, isPaused, serviceOutputs, type DesiredService } from "./state";

/** Statuses a service passes through on its own; convergence waits them out. */
const SETTLING: readonly ServiceStatus[] = ["QUEUED", "CONFIGURING", "RESUMING", "PAUSING", "UPGRADING", "OPTIMIZING"];

/** Where convergence happens and how long each wait may take. */
export interface ConvergeContext {
  readonly api: ClouddbClient;
  readonly projectId: string;
  /** Limit for each wait, in milliseconds. */
  readonly timeoutMs: number;
  /** The password recorded in state; a different desired one is applied. */
  readonly recordedPassword?: string;
}

/** The service is in a state that only deletion can leave. */
export class ServiceUnusableError extends Error {
  /** @param service the service as last seen */
  constructor(readonly service: Service) {
    super(
      `Service ${service.service_id} (${service.name ?? "unnamed"}) is ${service.status}: the API allows nothing but deleting it. ` +
        `Replace it with \`pulumi up --replace <urn>\`, or delete it and run \`pulumi up\` again.`,
    );
    this.name = "ServiceUnusableError";
  }

  /** True for a ServiceUnusableError. */
  static isUnusable(value: unknown): value is ServiceUnusableError {
    return value instanceof ServiceUnusableError;
  }
}

async function waitFor(ctx: ConvergeContext, id: string, until: ServiceStatus[]): Promise<Service> {
  try {
    return await ctx.api.waitForService(id, { until, timeoutMs: ctx.timeoutMs, projectId: ctx.projectId });
  } catch (e) {
    const last = (e as { lastSeen?: Service }).lastSeen;
    if (ResourceFailedError.isInstance(e) && e.state === "UNSTABLE" && last) throw new ServiceUnusableError(last);
    throw e;
  }
}

/** Waits until a service is no longer moving between states on its own. */
export async function settle(ctx: ConvergeContext, live: Service): Promise<Service> {
  if (live.status === "UNSTABLE" || live.status === "DELETING" || live.status === "DELETED") {
    throw new ServiceUnusableError(live);
  }
  if (!SETTLING.includes(live.status)) return live;
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
async function perform(
  ctx: ConvergeContext,
  id: string,
  action: () => Promise<unknown>,
  applied: (service: Service) => boolean,
): Promise<void> {
  try {
    await action();
  } catch (e) {
    if (!ConflictError.isInstance(e)) throw e;
    const now = await settle(ctx, await ctx.api.getService(id, { projectId: ctx.projectId, fresh: true }));
    if (!applied(now)) await action();
  }
}

/**
 * Applies every difference between `live` and `want`, and returns the service as it is
 * at the end.
 *
 * @throws ServiceUnusableError when the service turns UNSTABLE; a client TimeoutError
 *   when a wait exceeds `ctx.timeoutMs`; the API's error when an action is refused.
 */
export async function converge(ctx: ConvergeContext, live: Service, want: DesiredService): Promise<Service> {
  const { api, projectId } = ctx;
  const id = live.service_id;
  const opts = { projectId };
  let current = await settle(ctx, live);
  let unseen = false;
  const ready = async (): Promise<Service> => {
    current = await waitFor(ctx, id, ["READY"]);
    unseen = false;
    return current;
  };
  const has = () => serviceOutputs(current, {});

  if (isPaused(current)) {
    const otherChanges =
      !sameValue(has().cpuMillis, want.cpuMillis) ||
      !sameValue(has().memoryGbs, want.memoryGbs) ||
      !sameValue(has().haReplicas, want.haReplicas) ||
      has().environment !== want.environment ||
      has().connectionPooler !== want.connectionPooler ||
      (attachedVpc(current) ?? null) !== want.vpcId ||
      (want.password !== undefined && want.password !== ctx.recordedPassword);
    if (!want.paused || otherChanges) {
      await perform(ctx, id, () => api.startService(id, opts), (s) => !isPaused(s));
      await ready();
    }
  }
  const sized = (s: Service) => {
    const o = serviceOutputs(s, {});
    return sameValue(o.cpuMillis, want.cpuMillis) && sameValue(o.memoryGbs, want.memoryGbs);
  };
  if (!sized(current)) {
    const size = { cpu_millis: String(want.cpuMillis), memory_gbs: String(want.memoryGbs) };
    await perform(ctx, id, () => api.resizeService(id, size, opts), sized);
    await ready();
  }
  const replicated = (s: Service) => sameValue(serviceOutputs(s, {}).haReplicas, want.haReplicas);
  if (!replicated(current)) {
    const ha = { replica_count: want.haReplicas.replicaCount, sync_replica_count: want.haReplicas.syncReplicaCount };
    await perform(ctx, id, () => api.setServiceHA(id, ha, opts), replicated);
    await ready();
  }
  // Changes answered at once show only in a later read (the next wait's, or a last one).
  if (has().environment !== want.environment) {
    await api.setServiceEnvironment(id, want.environment as "DEV" | "PROD", opts);
    unseen = true;
  }
  if (has().connectionPooler !== want.connectionPooler) {
    await (want.connectionPooler ? api.enableServicePooler(id, opts) : api.disableServicePooler(id, opts));
    unseen = true;
  }
  const attached = attachedVpc(current) ?? null;
  if (attached !== want.vpcId) {
    if (attached !== null) {
      await perform(ctx, id, () => api.detachServiceFromVpc(id, attached, opts), (s) => attachedVpc(s) !== attached);
      await ready();
    }
    const target = want.vpcId;
    if (target !== null) {
      await perform(ctx, id, () => api.attachServiceToVpc(id, target, opts), (s) => attachedVpc(s) === target);
      await ready();
    }
  }
  if (want.password !== undefined && want.password !== ctx.recordedPassword) {
    await api.updateServicePassword(id, want.password, opts);
  }
  if (want.paused && !isPaused(current)) {
    await perform(ctx, id, () => api.stopService(id, opts), isPaused);
    current = await waitFor(ctx, id, ["PAUSED"]);
    unseen = false;
  }
  return unseen ? api.getService(id, { ...opts, fresh: true }) : current;
}
