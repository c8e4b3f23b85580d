/**
 * What a Service does against the API: create (a new service, a fork, or an adoption) and
 * converge it, read, update through the action table (`convergence.ts`), delete.
 */
import { randomBytes } from "crypto";
import { fitsService, hasStatusClass, SERVICE_DEFAULTS } from "../../../contract";
import type { CreateWatch, Service } from "../../client";
import { ConflictError, NotFoundError, WaitError } from "../../client/errors";
import { assertAdoptable, nothingToAdopt } from "../../framework/adoption";
import { clause, InputConflictError, ResourceInitError, UnusableResourceError } from "../../framework/errors";
import { nameOf } from "../../framework/autonaming";
import { createOnce, forgetInterrupted, listedOf, type Created, type Recovery } from "../../framework/journal";
import { intentOf } from "../../framework/createIntent";
import { retryWhileConflict } from "../../framework/pacing";
import type { ResourceOperations } from "../../framework/resourceProvider";
import type { ProviderContext } from "../../framework/settings";
import { wantedNow } from "../../framework/changes";
import { desiredOf } from "../../framework/schema";
import { converge, failedAfter } from "../../framework/convergence";
import { serviceConvergence, type ConvergeProgress } from "./convergence";
import { serviceNamed, serviceOutputs, serviceSchema, type ServiceInputs, type ServiceOutputs } from "./definition";
import { fixedProperties, showsReadably } from "../../framework/outputs";
import { keepingRecorded } from "../../framework/unreadable";
import { bodyOf } from "../../framework/requestBodies";
import { notRunning } from "./live";
import { vpcSchema } from "../vpc/definition";

/**
 * The outputs of `live` (with what the API cannot return again, `kept`), each one of a field
 * the answer does not show readably taken from `baseline`: what state recorded, or for a
 * create what it asked for (framework/unreadable.ts).
 */
function readOutputs(
  live: Service,
  kept: { password?: string; forkFrom?: ServiceInputs["forkFrom"] },
  baseline: Partial<ServiceOutputs>,
  as: "recorded" | "sent" = "recorded",
): ServiceOutputs {
  return keepingRecorded(serviceNamed(live), live, serviceOutputs(live, kept), baseline, serviceSchema, as);
}

/** What a create asked for, as outputs: its desired values that are set. */
function asked(news: ServiceInputs, made: Service): Partial<ServiceOutputs> {
  const desired: Record<string, unknown> = desiredOf(serviceSchema, news, serviceOutputs(made));
  return Object.fromEntries(Object.entries(desired).filter(([, v]) => v !== null));
}

/** Generates a password for a service whose initial password was lost (a recovered create). */
function generatedPassword(): string {
  return randomBytes(18).toString("base64url");
}

/** Whether a service is being deleted or gone (the contract's status classes). */
const leaving = (s: Service): boolean => hasStatusClass("service", s.status, "ending", "gone");

/** How to find what an interrupted create of a service made: among the project's services, those `fits` says are like it. */
function recovery(ctx: ProviderContext, projectId: string, fits: (s: Service) => boolean): Recovery<Service> {
  const api = ctx.client();
  return {
    async get(id) {
      try {
        const s = await api.perform("getService", { service: id, projectId, fresh: true });
        return leaving(s) ? undefined : s;
      } catch (e) {
        if (NotFoundError.isInstance(e)) return undefined;
        throw e;
      }
    },
    list: async (opts) => listedOf(await api.perform("listServices", { projectId, sharedMaxAgeMs: opts?.sharedMaxAgeMs }), leaving),
    sharedList: "services",
    fits,
    nameOf: (s) => s.name,
    idOf: (s) => s.service_id,
    firstOnly: (s) => (s.initial_password === undefined ? {} : { initial_password: s.initial_password }),
  };
}

/** Creates (or forks) once per intent, taking over what an interrupted create made (framework/journal.ts). */
async function createServiceOnce(
  ctx: ProviderContext,
  projectId: string,
  identity: Readonly<Record<string, string>>,
  fits: (s: Service) => boolean,
  send: (watch: CreateWatch) => Promise<Service>,
): Promise<Created<Service>> {
  const intent = intentOf(ctx, { kind: "Service", noun: "service" }, projectId, identity, identity.name);
  return createOnce(intent, recovery(ctx, projectId, fits), send, ", with a new password unless the program sets one");
}

/** Starts the service the inputs describe: an adoption, a fork, or a new service; `settled` must be called once `create` is done. */
async function start(ctx: ProviderContext, news: ServiceInputs, projectId: string, deadline: number): Promise<Created<Service>> {
  const api = ctx.client();
  const opts = { projectId };
  // A name the program did not set is the service's own: a lost answer is recovered by it (framework/autonaming.ts).
  const createOpts = { projectId, uniqueName: ctx.autonamed };
  if (news.adoptId !== undefined) {
    const live = await api.perform("getService", { service: news.adoptId, ...opts }).catch((e: unknown) => {
      throw NotFoundError.isInstance(e) ? nothingToAdopt(`no service ${news.adoptId} in project ${projectId}`) : e;
    });
    // What the program asks for, defaults filled in; an unset name is none (the adopted service keeps its own).
    assertAdoptable(`service ${live.service_id}`, fixedProperties(serviceSchema, desiredOf(serviceSchema, news, {}), live));
    forgetInterrupted(ctx, "Service", projectId);
    return { resource: live, takenOver: false, settled: () => undefined };
  }
  const name = nameOf(news);
  if (news.forkFrom !== undefined) {
    const { serviceId } = news.forkFrom;
    const source = await api.perform("getService", { service: serviceId, ...opts });
    for (const [property, want, got, readable] of [
      ["serviceType", news.serviceType, source.service_type, showsReadably(serviceSchema, source, "serviceType")],
      ["regionCode", news.regionCode, source.region_code, showsReadably(serviceSchema, source, "regionCode")],
    ] as const) {
      // What the source does not show readably proves no conflict: the fork has the source's, whatever it is.
      if (want !== undefined && readable && want !== got) {
        throw new InputConflictError(
          property,
          `${property}: a fork has its source's ${property} (${JSON.stringify(got)} for ${serviceId}); remove ${property} or set it to that`,
        );
      }
    }
    const forkOfSource = (s: Service) => fitsService({ forkOf: serviceId }, s);
    return createServiceOnce(ctx, projectId, { name, forkOf: serviceId }, forkOfSource, (watch) =>
      retryWhileConflict(
        deadline,
        ctx.settings.poll,
        () =>
          // Only what the program gave: the fork has its source's type, region and size, and the API's environment, for the rest.
          api.perform("forkService", { service: serviceId, body: bodyOf(serviceSchema, "forkService", news), ...createOpts, watch }),
        notRunning("forking it"),
      ),
    );
  }
  // The desired values: what the program left out is sent as the API's default would be.
  const desired = desiredOf(serviceSchema, news, {});
  const req = bodyOf(serviceSchema, "createService", desired);
  const identity = { name, serviceType: desired.serviceType, regionCode: desired.regionCode };
  const like = (s: Service) => fitsService({ forkOf: undefined, service_type: req.service_type, region_code: req.region_code }, s);
  return createServiceOnce(ctx, projectId, identity, like, (watch) => api.perform("createService", { body: req, ...createOpts, watch }));
}

/**
 * Checks a service's `vpcId` before anything is made: the VPC must exist in the service's
 * project and region (the API would refuse the attach only after the service exists). A
 * region the VPC's answer does not show readably (by its `regionCode` output's rule) proves
 * nothing: the API judges the attach then.
 *
 * @throws InputConflictError naming the VPC and what is wrong with it
 */
async function checkVpc(ctx: ProviderContext, vpcId: string, projectId: string, regionCode: string): Promise<void> {
  const vpc = await ctx
    .client()
    .perform("getVpc", { vpc: vpcId, projectId })
    .catch((e: unknown) => {
      if (!NotFoundError.isInstance(e)) throw e;
      throw new InputConflictError(
        "vpcId",
        `vpcId: there is no VPC ${vpcId} in project ${projectId}; a service attaches to a VPC of its own project and region`,
      );
    });
  if (showsReadably(vpcSchema, vpc, "regionCode") && vpc.region_code !== regionCode) {
    throw new InputConflictError(
      "vpcId",
      `vpcId: VPC ${vpcId} is in ${vpc.region_code}, but the service is in ${regionCode}; a service attaches to a VPC of its own region`,
    );
  }
}

/** The service as last seen by a convergence that failed. */
function lastSeenBy(e: unknown): Service | undefined {
  if (WaitError.isInstance(e, "service")) return e.lastSeen;
  if (UnusableResourceError.isInstance(e)) return e.lastSeen as Service;
  return undefined;
}

/** The Service's operations. */
export const serviceOperations: ResourceOperations<typeof serviceSchema.inputs, typeof serviceSchema.outputs> = {
  async create(news, ctx) {
    const { projectId } = ctx;
    const deadline = Date.now() + ctx.limitMs;
    if (news.vpcId !== undefined && news.forkFrom === undefined) {
      await checkVpc(ctx, news.vpcId, projectId, news.regionCode ?? SERVICE_DEFAULTS.regionCode);
    }
    const started = await start(ctx, news, projectId, deadline);
    const made = started.resource;
    const id = made.service_id;
    const initial = made.initial_password;
    const adopted = news.adoptId !== undefined;
    // The password the service will have: the one given, else the initial one (which the
    // API never shows again), else (a create recovered after a lost answer) a new one.
    const password = news.password ?? initial ?? (adopted ? undefined : generatedPassword());
    const progress: ConvergeProgress = { sent: [], password: initial };
    try {
      const live = await converge(
        serviceConvergence,
        { api: ctx.client(), projectId, limitMs: Math.max(1, deadline - Date.now()), recordedPassword: initial, adopted, progress },
        made,
        { ...desiredOf(serviceSchema, news, serviceOutputs(made)), password: password ?? null },
      );
      return { id, outs: { ...readOutputs(live, { password, forkFrom: news.forkFrom }, asked(news, made), "sent") } };
    } catch (e) {
      // Record the service as last seen, and as password only one it is known to have (the
      // initial one, or one the API accepted): a given password not applied yet is applied on resume.
      const last = lastSeenBy(e) ?? made;
      const known = readOutputs(last, { password: progress.password, forkFrom: news.forkFrom }, asked(news, made), "sent");
      const why = UnusableResourceError.isInstance(e)
        ? `${e.message} The service is kept in state: once it is usable again, the next \`pulumi up\` resumes it.`
        : `Service ${id} (${made.name ?? news.name}) was created but is not ready: ${clause((e as Error).message)}. It is kept in state; the next \`pulumi up\` resumes waiting for it.`;
      throw new ResourceInitError(id, known, why);
    } finally {
      started.settled();
    }
  },

  async read(id, recorded, ctx) {
    const live = await ctx.client().perform("getService", { service: id, projectId: ctx.projectId });
    return readOutputs(live, { password: recorded.password, forkFrom: recorded.forkFrom }, recorded);
  },

  async update(id, recorded, news, ctx, changed) {
    const { projectId } = ctx;
    const api = ctx.client();
    const live = await api.perform("getService", { service: id, projectId, fresh: true });
    const kept = { password: recorded.password, forkFrom: recorded.forkFrom };
    const now = readOutputs(live, kept, recorded);
    const want = wantedNow(desiredOf(serviceSchema, news, recorded), now, recorded, changed);
    // The service's region as read, else as recorded (a region the answer does not show readably is kept).
    if (changed.has("vpcId") && want.vpcId !== null) await checkVpc(ctx, want.vpcId, projectId, now.regionCode);
    const progress: ConvergeProgress = { sent: [], password: recorded.password };
    try {
      const final = await converge(
        serviceConvergence,
        { api, projectId, limitMs: ctx.limitMs, recordedPassword: recorded.password, adopted: news.adoptId !== undefined, progress },
        live,
        want,
      );
      return { ...readOutputs(final, { password: progress.password, forkFrom: news.forkFrom }, recorded) };
    } catch (e) {
      if (progress.sent.length === 0) throw e;
      // Something changed: record the service as it now is, so state matches the cloud and the next up does the rest.
      const now = await api.perform("getService", { service: id, projectId, fresh: true }).catch(() => lastSeenBy(e) ?? live);
      throw new ResourceInitError(
        id,
        readOutputs(now, { password: progress.password, forkFrom: recorded.forkFrom }, recorded),
        failedAfter(`Service ${id} (${now.name ?? ""})`, progress, e),
      );
    }
  },

  async delete(id, _recorded, ctx) {
    const { projectId } = ctx;
    const api = ctx.client();
    try {
      await api.perform("deleteService", { service: id, projectId });
    } catch (e) {
      if (NotFoundError.isInstance(e)) return;
      // Already DELETING (409): wait for it to go like any other delete.
      if (!ConflictError.isInstance(e)) throw e;
    }
    await api.waitForServiceDeleted(id, { projectId, timeoutMs: ctx.limitMs });
  },
};
