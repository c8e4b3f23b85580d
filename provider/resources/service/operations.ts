/**
 * What a Service does against the API: create (a new service, a fork, or an adoption) and
 * converge it, read, update through the action table (`convergence.ts`), delete.
 */
import { randomBytes } from "crypto";
import type { Service } from "../../client";
import { ConflictError, NotFoundError, ResourceFailedError, TimeoutError } from "../../client/errors";
import { assertAdoptable, nothingToAdopt } from "../../framework/adoption";
import { InputConflictError, ResourceInitError, UnusableResourceError } from "../../framework/errors";
import { createServiceOnce, createSettled } from "../../framework/journal";
import { retryWhileConflict } from "../../framework/pacing";
import type { ResourceOperations } from "../../framework/resourceProvider";
import type { ProviderContext } from "../../framework/settings";
import type { TimeoutsInput } from "../../framework/timeouts";
import { converge } from "./convergence";
import { SERVICE_DEFAULTS, type serviceSchema } from "./schema";
import { desiredService, serviceOutputs, type ServiceInputs, type ServiceOutputs } from "./state";

/** Generates a password for a service whose initial password was lost (a recovered create). */
function generatedPassword(): string {
  return randomBytes(18).toString("base64url");
}

/** Starts the service the inputs describe: an adoption, a fork, or a new service. */
async function start(ctx: ProviderContext, news: ServiceInputs, projectId: string, deadline: number): Promise<Service> {
  const api = ctx.client();
  const opts = { projectId };
  if (news.adoptId !== undefined) {
    const live = await api.getService(news.adoptId, opts).catch((e: unknown) => {
      throw NotFoundError.isInstance(e) ? nothingToAdopt(`no service ${news.adoptId} in project ${projectId}`) : e;
    });
    assertAdoptable(`service ${live.service_id}`, [
      ["name", news.name, live.name],
      ["serviceType", news.serviceType ?? SERVICE_DEFAULTS.serviceType, live.service_type],
      ["regionCode", news.regionCode ?? SERVICE_DEFAULTS.regionCode, live.region_code],
    ]);
    return live;
  }
  if (news.forkFrom !== undefined) {
    const { serviceId, strategy, targetTime } = news.forkFrom;
    const source = await api.getService(serviceId, opts);
    for (const [property, want, got] of [
      ["serviceType", news.serviceType, source.service_type],
      ["regionCode", news.regionCode, source.region_code],
    ] as const) {
      if (want !== undefined && want !== got) {
        throw new InputConflictError(
          property,
          `${property}: a fork has its source's ${property} (${JSON.stringify(got)} for ${serviceId}); remove ${property} or set it to that`,
        );
      }
    }
    return retryWhileConflict(deadline, ctx.settings.poll, () =>
      api.forkService(
        serviceId,
        {
          fork_strategy: strategy,
          target_time: targetTime,
          name: news.name,
          cpu_millis: news.cpuMillis === undefined ? undefined : String(news.cpuMillis),
          memory_gbs: news.memoryGbs === undefined ? undefined : String(news.memoryGbs),
          environment_tag: news.environment,
        },
        opts,
      ),
    );
  }
  const desired = desiredService(news, {});
  const req = {
    name: news.name,
    service_type: news.serviceType ?? SERVICE_DEFAULTS.serviceType,
    region_code: news.regionCode ?? SERVICE_DEFAULTS.regionCode,
    cpu_millis: String(desired.cpuMillis),
    memory_gbs: String(desired.memoryGbs),
    replica_count: desired.haReplicas.replicaCount,
    environment_tag: desired.environment as "DEV" | "PROD",
  };
  // Takes over what an interrupted create of this program made, else creates (see framework/journal.ts).
  const intent = { apiUrl: ctx.settings.apiUrl ?? "", projectId, name: req.name, serviceType: req.service_type, regionCode: req.region_code };
  return createServiceOnce(api, intent, () => api.createService(req, opts));
}

/** The service as last seen by a convergence that failed. */
function lastSeenBy(e: unknown): Service | undefined {
  if (UnusableResourceError.isInstance(e) || ResourceFailedError.isInstance(e) || TimeoutError.isInstance(e)) {
    return e.lastSeen as Service | undefined;
  }
  return undefined;
}

/** The Service's operations. */
export const serviceOperations: ResourceOperations<typeof serviceSchema.inputs> = {
  async create(news, ctx) {
    const projectId = ctx.projectOf(news.projectId);
    const deadline = Date.now() + ctx.timeoutMs(news.timeouts, "create");
    const made = await start(ctx, news, projectId, deadline);
    const id = made.service_id;
    const initial = made.initial_password;
    const adopted = news.adoptId !== undefined;
    // The password the service will have: the one given, else the initial one (which the
    // API never shows again), else (a create recovered after a lost answer) a new one.
    const password = news.password ?? initial ?? (adopted ? undefined : generatedPassword());
    try {
      const live = await converge(
        { api: ctx.client(), projectId, timeoutMs: Math.max(1, deadline - Date.now()), recordedPassword: initial },
        made,
        { ...desiredService(news, serviceOutputs(made, {})), password },
      );
      return { id, outs: { ...serviceOutputs(live, { password, forkFrom: news.forkFrom }) } };
    } catch (e) {
      // Record the service as last seen, and as password only the one it is known to
      // have (the initial one): a given password not applied yet is applied on resume.
      const last = lastSeenBy(e) ?? made;
      const known = serviceOutputs(last, { password: initial, forkFrom: news.forkFrom });
      const why = UnusableResourceError.isInstance(e)
        ? `${e.message} The service is kept in state: once it is usable again, the next \`pulumi up\` resumes it.`
        : `Service ${id} (${news.name}) was created but is not ready: ${(e as Error).message}. It is kept in state; the next \`pulumi up\` resumes waiting for it.`;
      throw new ResourceInitError(id, known, why);
    } finally {
      createSettled(id);
    }
  },

  async read(id, recorded, ctx) {
    const live = await ctx.client().getService(id, { projectId: ctx.projectOf(recorded.projectId as string | undefined) });
    const kept = recorded as Partial<ServiceOutputs>;
    return { ...serviceOutputs(live, { password: kept.password, forkFrom: kept.forkFrom }) };
  },

  async update(id, olds, news, ctx) {
    const projectId = ctx.projectOf(news.projectId ?? (olds.projectId as string | undefined));
    const api = ctx.client();
    const live = await api.getService(id, { projectId, fresh: true });
    const recorded = olds as Partial<ServiceOutputs>;
    const want = desiredService(news, recorded);
    const final = await converge({ api, projectId, timeoutMs: ctx.timeoutMs(news.timeouts, "update"), recordedPassword: recorded.password }, live, want);
    return { ...serviceOutputs(final, { password: news.password ?? recorded.password, forkFrom: news.forkFrom }) };
  },

  async delete(id, recorded, ctx) {
    const projectId = ctx.projectOf(recorded.projectId as string | undefined);
    const api = ctx.client();
    try {
      await api.deleteService(id, { projectId });
    } catch (e) {
      if (NotFoundError.isInstance(e)) return;
      // Already DELETING (409): wait for it to go like any other delete.
      if (!ConflictError.isInstance(e)) throw e;
    }
    await api.waitForServiceDeleted(id, { projectId, timeoutMs: ctx.timeoutMs(recorded.timeouts as TimeoutsInput | undefined, "delete") });
  },
};
