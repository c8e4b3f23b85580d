/** What a ReadReplicaSet does against the API: create (or adopt), resize, environment, pooler, delete. */
import { fitsReplicaSet, hasStatusClass, statusesIn } from "../../../contract";
import type { ReadReplicaSet } from "../../client";
import { ConflictError, NotFoundError, ResourceFailedError, WaitError } from "../../client/errors";
import { assertAdoptable, nothingToAdopt } from "../../framework/adoption";
import { clause, CloudStateError, ProviderErrorCode, ResourceInitError, UnusableResourceError } from "../../framework/errors";
import { nameOf } from "../../framework/autonaming";
import { createOnce, forgetInterrupted, listedOf, type Recovery } from "../../framework/journal";
import { intentOf } from "../../framework/createIntent";
import { parentIdOf } from "../../framework/parents";
import { retryWhileConflict } from "../../framework/pacing";
import type { ResourceOperations } from "../../framework/resourceProvider";
import { wantedNow } from "../../framework/changes";
import { converge, failedAfter, type Convergence, type ConvergeContext } from "../../framework/convergence";
import type { OperationContext } from "../../framework/operationContext";
import { desiredOf, outputsFrom, type InputsOf, type OutputsOf } from "../../framework/schema";
import type { ProviderContext } from "../../framework/settings";
import { notRunning } from "../service/live";
import { fixedProperties } from "../../framework/outputs";
import { keepingRecorded } from "../../framework/unreadable";
import { bodyOf } from "../../framework/requestBodies";
import { REPLICA_SET_ACTIONS, readReplicaSetSchema, replicaSetNamed, type ReadySetStatus, type WantedReplicaSet } from "./definition";

type ReadReplicaSetOutputs = OutputsOf<typeof readReplicaSetSchema.outputs>;

/** Outputs of a live replica set; `password` is the service's, when the program gave it. */
function replicaSetOutputs(live: ReadReplicaSet, serviceId: string, projectId: string, password?: string): ReadReplicaSetOutputs {
  return outputsFrom(readReplicaSetSchema, { live, serviceId, projectId, password });
}

/**
 * {@link replicaSetOutputs}, each output of a field the answer does not show readably taken
 * from `baseline`: what state recorded, or for a create what it asked for (framework/unreadable.ts).
 */
function readOutputs(
  live: ReadReplicaSet,
  serviceId: string,
  projectId: string,
  password: string | undefined,
  baseline: Partial<ReadReplicaSetOutputs>,
  as: "recorded" | "sent" = "recorded",
): ReadReplicaSetOutputs {
  const outs = replicaSetOutputs(live, serviceId, projectId, password);
  return keepingRecorded(replicaSetNamed(live), live, outs, baseline, readReplicaSetSchema, as);
}

/** What a create asked for, as outputs: its desired values that are set. */
function asked(news: InputsOf<typeof readReplicaSetSchema.inputs>): Partial<ReadReplicaSetOutputs> {
  const desired: Record<string, unknown> = desiredOf(readReplicaSetSchema, news, {});
  return Object.fromEntries(Object.entries(desired).filter(([, v]) => v !== null));
}

/** A replica set in a failed status (`error`): only deleting it can leave that state. */
function inError(rs: ReadReplicaSet): UnusableResourceError<ReadReplicaSet> {
  return new UnusableResourceError(
    rs,
    `Read replica set ${rs.id} (${rs.name ?? ""}) is in status ${rs.status}`,
    ProviderErrorCode.ReplicaSetFailed,
  );
}

/** The replica set as its service lists it, or undefined when it is not listed. */
async function findReplicaSet(ctx: ProviderContext, serviceId: string, id: string, projectId: string): Promise<ReadReplicaSet | undefined> {
  return (await ctx.client().perform("listReplicaSets", { service: serviceId, projectId })).items.find((rs) => rs.id === id);
}

/** The replica set's convergence: its action table, and how a set is waited for (a failed set only deletion can help). */
const replicaSetConvergence: Convergence<ReadReplicaSet, WantedReplicaSet, ReplicaSetContext, ReadySetStatus> = {
  actions: REPLICA_SET_ACTIONS,
  idOf: (rs) => rs.id,
  async settle(ctx, live) {
    if (hasStatusClass("replica set", live.status, "failed")) throw inError(live);
    return hasStatusClass("replica set", live.status, "ready")
      ? live
      : ctx.api.waitForReplicaSet(ctx.serviceId, live.id, {
          until: statusesIn("replica set", "ready"),
          timeoutMs: ctx.limitMs,
          projectId: ctx.projectId,
        });
  },
  waitFor: (ctx, id, status) =>
    ctx.api.waitForReplicaSet(ctx.serviceId, id, { until: [status], timeoutMs: ctx.limitMs, projectId: ctx.projectId }),
  reread: async (ctx, id) => {
    const found = (await ctx.api.perform("listReplicaSets", { service: ctx.serviceId, projectId: ctx.projectId })).items.find(
      (rs) => rs.id === id,
    );
    if (!found)
      throw new CloudStateError(`Read replica set ${id} is no longer listed under service ${ctx.serviceId}`, ProviderErrorCode.Gone);
    return found;
  },
};

/** Where a replica set converges: the framework's context and the set's service. */
interface ReplicaSetContext extends ConvergeContext {
  readonly serviceId: string;
}

/** The context of a convergence of a set under `serviceId`, with this limit for each wait. */
function convergeContext(ctx: OperationContext, serviceId: string, limitMs: number): ReplicaSetContext {
  return { api: ctx.client(), projectId: ctx.projectId, limitMs, serviceId, progress: { sent: [] } };
}

/** The ReadReplicaSet's operations. */
export const readReplicaSetOperations: ResourceOperations<typeof readReplicaSetSchema.inputs, typeof readReplicaSetSchema.outputs> = {
  async create(news, ctx) {
    const { projectId } = ctx;
    const deadline = Date.now() + ctx.limitMs;
    let made: ReadReplicaSet;
    let settled = (): void => undefined;
    if (news.adoptId !== undefined) {
      const found = await findReplicaSet(ctx, news.serviceId, news.adoptId, projectId);
      if (!found) throw nothingToAdopt(`no read replica set ${news.adoptId} under service ${news.serviceId}`);
      made = found;
      assertAdoptable(`read replica set ${made.id}`, fixedProperties(readReplicaSetSchema, news, made));
      forgetInterrupted(ctx, "ReadReplicaSet", projectId);
    } else {
      const api = ctx.client();
      const name = nameOf(news);
      const recovery: Recovery<ReadReplicaSet> = {
        get: async (id) => findReplicaSet(ctx, news.serviceId, id, projectId),
        list: async () =>
          listedOf(await api.perform("listReplicaSets", { service: news.serviceId, projectId }), (rs) =>
            hasStatusClass("replica set", rs.status, "ending", "gone"),
          ),
        sharedList: `replica sets of ${news.serviceId}`,
        // Its name aside (the journal compares it), nothing fixes a set: any set that is not leaving.
        fits: (rs) => fitsReplicaSet({}, rs),
        nameOf: (rs) => rs.name,
        idOf: (rs) => rs.id,
      };
      const intent = intentOf(
        ctx,
        { kind: "ReadReplicaSet", noun: "read replica set" },
        projectId,
        { serviceId: news.serviceId, name },
        name,
      );
      // The service must be READY; while it is being changed the API answers 409: wait.
      const created = await createOnce(intent, recovery, (watch) =>
        retryWhileConflict(
          deadline,
          ctx.settings.poll,
          () =>
            api.perform("createReplicaSet", {
              service: news.serviceId,
              body: bodyOf(readReplicaSetSchema, "createReplicaSet", desiredOf(readReplicaSetSchema, news, {})),
              // A name the program did not set is the set's own: a lost answer is recovered by it (framework/autonaming.ts).
              projectId,
              uniqueName: ctx.autonamed,
              watch,
            }),
          notRunning("creating a read replica set"),
        ),
      );
      made = created.resource;
      settled = created.settled;
    }
    try {
      const live = await converge(
        replicaSetConvergence,
        convergeContext(ctx, news.serviceId, Math.max(1, deadline - Date.now())),
        made,
        desiredOf(readReplicaSetSchema, news, {}),
      );
      return { id: made.id, outs: { ...readOutputs(live, news.serviceId, projectId, news.password, asked(news), "sent") } };
    } catch (e) {
      const seen = WaitError.isInstance(e, "replica set")
        ? e.lastSeen
        : UnusableResourceError.isInstance(e)
          ? (e.lastSeen as ReadReplicaSet)
          : undefined;
      const last = seen ?? made;
      const failed =
        ResourceFailedError.isInstance(e) || UnusableResourceError.isInstance(e) || hasStatusClass("replica set", last.status, "failed");
      const why = failed
        ? `Read replica set ${made.id} (${made.name ?? news.name}) is in status error`
        : `Read replica set ${made.id} (${made.name ?? news.name}) was created but is not active: ${clause((e as Error).message)}`;
      throw new ResourceInitError(
        made.id,
        readOutputs(last, news.serviceId, projectId, undefined, asked(news), "sent"),
        `${why}. It is kept in state; the next \`pulumi up\` resumes it${failed ? " (and reports the error again while it lasts)" : ""}.`,
      );
    } finally {
      settled();
    }
  },

  async read(id, recorded, ctx) {
    const serviceId = parentIdOf(recorded, "serviceId", `read replica set ${id}`, "ReadReplicaSet");
    const { projectId } = ctx;
    // Served from one shared list answer (the client's read cache), so a refresh of many
    // resources costs one request; a set that no longer exists is a NotFoundError.
    const rs = await ctx.client().getReplicaSet(serviceId, id, { projectId });
    return { ...readOutputs(rs, serviceId, projectId, recorded.password, recorded) };
  },

  async update(id, recorded, news, ctx, changed) {
    const { projectId } = ctx;
    const live = await findReplicaSet(ctx, news.serviceId, id, projectId);
    if (!live) {
      throw new CloudStateError(
        `Read replica set ${id} no longer exists under service ${news.serviceId}: run \`pulumi refresh\` to drop it from state, then \`pulumi up\` to create it again`,
        ProviderErrorCode.Gone,
      );
    }
    const liveOutputs = readOutputs(live, news.serviceId, projectId, recorded.password, recorded);
    const want = wantedNow(desiredOf(readReplicaSetSchema, news, recorded), liveOutputs, recorded, changed);
    const cctx = convergeContext(ctx, news.serviceId, ctx.limitMs);
    try {
      const final = await converge(replicaSetConvergence, cctx, live, want);
      return { ...readOutputs(final, news.serviceId, projectId, news.password, recorded) };
    } catch (e) {
      if (cctx.progress.sent.length === 0) throw e;
      // Something changed: record the set as it now is, so state matches the cloud and the next up does the rest.
      const now = (await findReplicaSet(ctx, news.serviceId, id, projectId).catch(() => undefined)) ?? live;
      throw new ResourceInitError(
        id,
        readOutputs(now, news.serviceId, projectId, recorded.password, recorded),
        failedAfter(`Read replica set ${id} (${now.name ?? ""})`, cctx.progress, e),
      );
    }
  },

  async delete(id, recorded, ctx) {
    const { projectId } = ctx;
    const serviceId = parentIdOf(recorded, "serviceId", `read replica set ${id}`, "ReadReplicaSet");
    const api = ctx.client();
    try {
      await api.perform("deleteReplicaSet", { service: serviceId, replicaSet: id, projectId });
    } catch (e) {
      if (NotFoundError.isInstance(e)) return;
      if (!ConflictError.isInstance(e)) throw e;
    }
    await api.waitForReplicaSetDeleted(serviceId, id, {
      projectId,
      timeoutMs: ctx.limitMs,
    });
  },
};
