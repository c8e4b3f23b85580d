/** What a ReadReplicaSet does against the API: create (or adopt), resize, environment, pooler, delete. */
import { fitsReplicaSet, hasStatusClass } from "../../../contract";
import type { ReadReplicaSet } from "../../client";
import { ConflictError, NotFoundError, ResourceFailedError, WaitError } from "../../client/errors";
import { sameValue } from "../../framework/diff";
import { nothingToAdopt } from "../../framework/adoption";
import { CloudStateError, InputConflictError, ProviderErrorCode, ResourceInitError, UnusableResourceError } from "../../framework/errors";
import { nameOf } from "../../framework/autonaming";
import { createOnce, forgetInterrupted, intentOf, type Recovery } from "../../framework/journal";
import { parentIdOf } from "../../framework/parents";
import { retryWhileConflict } from "../../framework/pacing";
import type { ResourceOperations } from "../../framework/resourceProvider";
import { wantedNow } from "../../framework/changes";
import { desiredOf, outputsFrom, type DesiredOf, type OutputsOf } from "../../framework/schema";
import type { ProviderContext } from "../../framework/settings";
import type { TimeoutsInput } from "../../framework/timeouts";
import { notRunning } from "../service/live";
import { keepingRecorded, type ShownField, unreadableOutputs } from "../../framework/unreadable";
import { readReplicaSetSchema } from "./definition";

/** The fields of a set its outputs are read from (framework/unreadable.ts): an answer that does not show one readably changes nothing. */
const REPLICA_SET_FIELDS: readonly ShownField<ReadReplicaSet>[] = [
  {
    field: "nodes, cpu_millis, memory_gbs",
    outputs: ["nodes", "cpuMillis", "memoryGbs"],
    shows: (rs) => typeof rs.nodes === "number" && typeof rs.cpu_millis === "number" && typeof rs.memory_gbs === "number",
  },
];
type ReadReplicaSetOutputs = OutputsOf<typeof readReplicaSetSchema.outputs>;

/** Outputs of a live replica set; `password` is the service's, when the program gave it. */
function replicaSetOutputs(live: ReadReplicaSet, serviceId: string, projectId: string, password?: string): ReadReplicaSetOutputs {
  return outputsFrom(readReplicaSetSchema, { live, serviceId, projectId, password });
}

/** A replica set in status `error`: only deleting it can leave that state. */
function inError(rs: ReadReplicaSet): UnusableResourceError<ReadReplicaSet> {
  return new UnusableResourceError(
    rs,
    `Read replica set ${rs.id} (${rs.name ?? ""}) is in status error`,
    ProviderErrorCode.ReplicaSetFailed,
  );
}

async function waitActive(ctx: ProviderContext, serviceId: string, id: string, projectId: string, limit: number): Promise<ReadReplicaSet> {
  return ctx.client().waitForReplicaSet(serviceId, id, { until: ["active"], timeoutMs: limit, projectId });
}

/** The replica set as its service lists it, or undefined when it is not listed. */
async function findReplicaSet(ctx: ProviderContext, serviceId: string, id: string, projectId: string): Promise<ReadReplicaSet | undefined> {
  return (await ctx.client().perform("listReplicaSets", { service: serviceId, projectId })).items.find((rs) => rs.id === id);
}

/** What a replica set is to be: the desired values, or (in an update) the live ones of what did not change. */
type WantedSet = DesiredOf<typeof readReplicaSetSchema.inputs>;

/**
 * Applies every difference between the live set and `want`, recording each action the API
 * accepted in `sent`; returns the set at the end.
 */
async function converge(ctx: ProviderContext, live: ReadReplicaSet, want: WantedSet, projectId: string, limit: number, sent: string[]) {
  const api = ctx.client();
  const opts = { projectId };
  const { serviceId } = want;
  let current = live;
  if (current.status === "error") throw inError(current);
  if (current.status !== "active") current = await waitActive(ctx, serviceId, current.id, projectId, limit);
  const wanted = [want.nodes, want.cpuMillis, want.memoryGbs];
  const sized = unreadableOutputs(current, REPLICA_SET_FIELDS).has("nodes")
    ? wanted
    : [current.nodes, current.cpu_millis, current.memory_gbs];
  if (!sameValue(sized, wanted)) {
    await api.perform("resizeReplicaSet", {
      service: serviceId,
      replicaSet: current.id,
      body: { cpu_millis: want.cpuMillis, memory_gbs: want.memoryGbs, nodes: want.nodes },
      ...opts,
    });
    sent.push("resize");
    current = await waitActive(ctx, serviceId, current.id, projectId, limit);
  }
  if (want.environment !== null && current.metadata?.environment !== want.environment) {
    await api.perform("setReplicaSetEnvironment", {
      service: serviceId,
      replicaSet: current.id,
      body: { environment: want.environment },
      ...opts,
    });
    sent.push("setEnvironment");
  }
  const pooled = current.connection_pooler !== undefined && current.connection_pooler !== null;
  if (want.connectionPooler !== pooled) {
    await api.perform(want.connectionPooler ? "enableReplicaSetPooler" : "disableReplicaSetPooler", {
      service: serviceId,
      replicaSet: current.id,
      ...opts,
    });
    sent.push(want.connectionPooler ? "enablePooler" : "disablePooler");
  }
  return (await findReplicaSet(ctx, serviceId, current.id, projectId)) ?? current;
}

/** The ReadReplicaSet's operations. */
export const readReplicaSetOperations: ResourceOperations<typeof readReplicaSetSchema.inputs> = {
  async create(news, ctx) {
    const projectId = ctx.projectOf(news.projectId);
    const deadline = Date.now() + ctx.timeoutMs(news.timeouts, "create");
    let made: ReadReplicaSet;
    let settled = (): void => undefined;
    if (news.adoptId !== undefined) {
      const found = await findReplicaSet(ctx, news.serviceId, news.adoptId, projectId);
      if (!found) throw nothingToAdopt(`no read replica set ${news.adoptId} under service ${news.serviceId}`);
      made = found;
      if (news.name !== undefined && made.name !== news.name) {
        throw new InputConflictError(
          "name",
          `adoptId: read replica set ${made.id} is named ${JSON.stringify(made.name)} but the program asks for ${JSON.stringify(news.name)}, which cannot change in place; make the program match it to adopt it`,
        );
      }
      forgetInterrupted(ctx, "ReadReplicaSet", projectId);
    } else {
      const api = ctx.client();
      const name = nameOf(news);
      const recovery: Recovery<ReadReplicaSet> = {
        get: async (id) => findReplicaSet(ctx, news.serviceId, id, projectId),
        list: async () =>
          (await api.perform("listReplicaSets", { service: news.serviceId, projectId })).items.filter(
            (rs) => !hasStatusClass("replica set", rs.status, "ending", "gone"),
          ),
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
      const created = await createOnce(intent, recovery, () =>
        retryWhileConflict(
          deadline,
          ctx.settings.poll,
          () =>
            api.perform("createReplicaSet", {
              service: news.serviceId,
              body: { name, nodes: news.nodes, cpu_millis: news.cpuMillis as number, memory_gbs: news.memoryGbs as number },
              // A name the program did not set is the set's own: a lost answer is recovered by it (framework/autonaming.ts).
              projectId,
              uniqueName: ctx.autonamed,
            }),
          notRunning("creating a read replica set"),
        ),
      );
      made = created.resource;
      settled = created.settled;
    }
    try {
      const live = await converge(ctx, made, desiredOf(readReplicaSetSchema, news, {}), projectId, Math.max(1, deadline - Date.now()), []);
      return { id: made.id, outs: { ...replicaSetOutputs(live, news.serviceId, projectId, news.password) } };
    } catch (e) {
      const seen = WaitError.isInstance(e, "replica set")
        ? e.lastSeen
        : UnusableResourceError.isInstance(e)
          ? (e.lastSeen as ReadReplicaSet)
          : undefined;
      const last = seen ?? made;
      const failed = ResourceFailedError.isInstance(e) || UnusableResourceError.isInstance(e) || last.status === "error";
      const why = failed
        ? `Read replica set ${made.id} (${made.name ?? news.name}) is in status error`
        : `Read replica set ${made.id} (${made.name ?? news.name}) was created but is not active: ${(e as Error).message}`;
      throw new ResourceInitError(
        made.id,
        replicaSetOutputs(last, news.serviceId, projectId),
        `${why}. It is kept in state; the next \`pulumi up\` resumes it${failed ? " (and reports the error again while it lasts)" : ""}.`,
      );
    } finally {
      settled();
    }
  },

  async read(id, recorded, ctx) {
    const serviceId = parentIdOf(recorded, "serviceId", `read replica set ${id}`, "ReadReplicaSet");
    const projectId = ctx.projectOf(recorded.projectId as string | undefined);
    // Served from one shared list answer (the client's read cache), so a refresh of many
    // resources costs one request; a set that no longer exists is a NotFoundError.
    const rs = await ctx.client().getReplicaSet(serviceId, id, { projectId });
    const outs = { ...replicaSetOutputs(rs, serviceId, projectId, recorded.password as string | undefined) };
    return keepingRecorded(`read replica set ${id}`, rs, outs, recorded, REPLICA_SET_FIELDS);
  },

  async update(id, olds, news, ctx, changed) {
    const projectId = ctx.projectOf(news.projectId ?? (olds.projectId as string | undefined));
    const live = await findReplicaSet(ctx, news.serviceId, id, projectId);
    if (!live) {
      throw new CloudStateError(
        `Read replica set ${id} no longer exists under service ${news.serviceId}: run \`pulumi refresh\` to drop it from state, then \`pulumi up\` to create it again`,
        ProviderErrorCode.Gone,
      );
    }
    const recorded = olds as Partial<ReadReplicaSetOutputs>;
    const liveOutputs = replicaSetOutputs(live, news.serviceId, projectId, recorded.password);
    const want = wantedNow(desiredOf(readReplicaSetSchema, news, recorded), liveOutputs, recorded, changed);
    const sent: string[] = [];
    try {
      const final = await converge(ctx, live, want, projectId, ctx.timeoutMs(news.timeouts, "update"), sent);
      return { ...replicaSetOutputs(final, news.serviceId, projectId, news.password) };
    } catch (e) {
      if (sent.length === 0) throw e;
      // Something changed: record the set as it now is, so state matches the cloud and the next up does the rest.
      const now = (await findReplicaSet(ctx, news.serviceId, id, projectId).catch(() => undefined)) ?? live;
      throw new ResourceInitError(
        id,
        replicaSetOutputs(now, news.serviceId, projectId, recorded.password),
        `Read replica set ${id} (${now.name ?? ""}): the update failed after ${sent.join(", ")}: ${(e as Error).message}. ` +
          "State records the set as it now is; the next `pulumi up` applies the rest.",
      );
    }
  },

  async delete(id, recorded, ctx) {
    const projectId = ctx.projectOf(recorded.projectId as string | undefined);
    const serviceId = recorded.serviceId as string;
    const api = ctx.client();
    try {
      await api.perform("deleteReplicaSet", { service: serviceId, replicaSet: id, projectId });
    } catch (e) {
      if (NotFoundError.isInstance(e)) return;
      if (!ConflictError.isInstance(e)) throw e;
    }
    await api.waitForReplicaSetDeleted(serviceId, id, {
      projectId,
      timeoutMs: ctx.timeoutMs(recorded.timeouts as TimeoutsInput | undefined, "delete"),
    });
  },
};
