/**
 * The ReadReplicaSet resource: read-only replicas of a service. `serviceId`, `name` and
 * `projectId` replace it; `nodes`, `cpuMillis` and `memoryGbs` resize it in place; the
 * environment and the pooler change in place. Create waits for `active`; a set that
 * turns `error` stays in state and the error is reported.
 */
import { ConflictError, NotFoundError, ResourceFailedError, type ReadReplicaSet } from "../client";
import { sameValue } from "../framework/diff";
import { nothingToAdopt } from "../framework/adoption";
import { InputConflictError, ResourceInitError } from "../framework/errors";
import { retryWhileConflict } from "../framework/pacing";
import { defineResourceProvider, type ResourceDefinition } from "../framework/resourceProvider";
import { client, projectOf } from "../framework/settings";
import { timeoutMs, type TimeoutsInput } from "../framework/timeouts";
import * as v from "./values";

/** Inputs of a ReadReplicaSet as the provider receives them. */
export interface ReadReplicaSetInputs {
  readonly serviceId: string;
  readonly name: string;
  readonly nodes: number;
  readonly cpuMillis: number;
  readonly memoryGbs: number;
  readonly environment?: "DEV" | "PROD";
  readonly connectionPooler?: boolean;
  readonly projectId?: string;
  readonly adoptId?: string;
  readonly timeouts?: TimeoutsInput;
}

/** Outputs of a ReadReplicaSet. */
export interface ReadReplicaSetOutputs {
  readonly replicaSetId: string;
  readonly serviceId: string;
  readonly projectId: string;
  readonly name: string;
  readonly nodes: number;
  readonly cpuMillis: number;
  readonly memoryGbs: number;
  readonly environment: string;
  readonly connectionPooler: boolean;
  readonly status: string;
  readonly host: string;
  readonly port: number;
  readonly poolerHost?: string;
  readonly poolerPort?: number;
}

/** Outputs of a live replica set. */
export function replicaSetOutputs(rs: ReadReplicaSet, serviceId: string, projectId: string): ReadReplicaSetOutputs {
  return {
    replicaSetId: rs.id,
    serviceId,
    projectId,
    name: rs.name ?? "",
    nodes: rs.nodes ?? 0,
    cpuMillis: rs.cpu_millis ?? 0,
    memoryGbs: rs.memory_gbs ?? 0,
    environment: rs.metadata?.environment ?? "",
    connectionPooler: rs.connection_pooler !== undefined && rs.connection_pooler !== null,
    status: rs.status ?? "",
    host: rs.endpoint?.host ?? "",
    port: rs.endpoint?.port ?? 0,
    poolerHost: rs.connection_pooler?.endpoint?.host,
    poolerPort: rs.connection_pooler?.endpoint?.port,
  };
}

async function waitActive(serviceId: string, id: string, projectId: string, limit: number): Promise<ReadReplicaSet> {
  return client().waitForReplicaSet(serviceId, id, { until: ["active"], timeoutMs: limit, projectId });
}

/** Applies every difference between the live set and the inputs; returns the set at the end. */
async function converge(live: ReadReplicaSet, news: ReadReplicaSetInputs, projectId: string, limit: number) {
  const api = client();
  const opts = { projectId };
  const { serviceId } = news;
  let current = live;
  if (current.status === "error") throw new ReplicaSetInErrorError(current);
  if (current.status !== "active") current = await waitActive(serviceId, current.id, projectId, limit);
  if (
    !sameValue([current.nodes, current.cpu_millis, current.memory_gbs], [news.nodes, news.cpuMillis, news.memoryGbs])
  ) {
    await api.resizeReplicaSet(
      serviceId,
      current.id,
      { cpu_millis: news.cpuMillis, memory_gbs: news.memoryGbs, nodes: news.nodes },
      opts,
    );
    current = await waitActive(serviceId, current.id, projectId, limit);
  }
  if (news.environment !== undefined && current.metadata?.environment !== news.environment) {
    await api.setReplicaSetEnvironment(serviceId, current.id, news.environment, opts);
  }
  const pooled = current.connection_pooler !== undefined && current.connection_pooler !== null;
  if ((news.connectionPooler ?? false) !== pooled) {
    await (news.connectionPooler
      ? api.enableReplicaSetPooler(serviceId, current.id, opts)
      : api.disableReplicaSetPooler(serviceId, current.id, opts));
  }
  return (await findReplicaSet(serviceId, current.id, projectId)) ?? current;
}

/** The replica set as its service lists it, or undefined when it is not listed. */
async function findReplicaSet(serviceId: string, id: string, projectId: string): Promise<ReadReplicaSet | undefined> {
  return (await client().listReplicaSets(serviceId, { projectId })).find((rs) => rs.id === id);
}

/** A replica set is in status `error` (only deleting it can leave that state). */
export class ReplicaSetInErrorError extends Error {
  /** @param replicaSet the set as last seen */
  constructor(readonly replicaSet: ReadReplicaSet) {
    super(`Read replica set ${replicaSet.id} (${replicaSet.name ?? ""}) is in status error`);
    this.name = "ReplicaSetInErrorError";
  }
}

const definition: ResourceDefinition = {
  kind: "ReadReplicaSet",
  idOutput: "replicaSetId",
  settled: (recorded) => recorded.status === "active",
  rules: {
    schemas: {
      serviceId: v.serviceId,
      name: v.name,
      nodes: v.wholeNumber(1, 10),
      cpuMillis: v.cpuMillis(false),
      memoryGbs: v.memoryGbs(false),
      environment: v.environment,
      connectionPooler: v.flag,
      projectId: v.projectId,
      adoptId: v.serviceId,
      timeouts: v.timeouts,
    },
    required: ["serviceId", "name", "nodes", "cpuMillis", "memoryGbs"],
    cross: [
      {
        properties: ["cpuMillis", "memoryGbs"],
        validate(news) {
          return v.isAllowedPair(v.REPLICA_SET_SIZES, news.cpuMillis, news.memoryGbs)
            ? []
            : [
                {
                  property: "memoryGbs",
                  reason: `cpuMillis ${JSON.stringify(news.cpuMillis)} with memoryGbs ${JSON.stringify(news.memoryGbs)} is not an allowed pair; one of (cpuMillis/memoryGbs): ${v.describeSizes(v.REPLICA_SET_SIZES)}`,
                },
              ];
        },
      },
    ],
  },
  diffKeys: [
    ...["serviceId", "name", "projectId"].map((property) => ({ property, replace: true })),
    ...["nodes", "cpuMillis", "memoryGbs", "environment", "connectionPooler"].map((property) => ({
      property,
      replace: false,
    })),
  ],

  desired(news, recorded) {
    return {
      serviceId: news.serviceId,
      name: news.name,
      nodes: news.nodes,
      cpuMillis: news.cpuMillis,
      memoryGbs: news.memoryGbs,
      environment: news.environment ?? recorded.environment,
      connectionPooler: news.connectionPooler ?? false,
    };
  },

  async create(raw) {
    const news = raw as unknown as ReadReplicaSetInputs;
    const projectId = projectOf(news.projectId);
    const limit = timeoutMs(news.timeouts, "create");
    const deadline = Date.now() + limit;
    const api = client();
    let made: ReadReplicaSet;
    if (news.adoptId !== undefined) {
      const found = await findReplicaSet(news.serviceId, news.adoptId, projectId);
      if (!found) throw nothingToAdopt(`no read replica set ${news.adoptId} under service ${news.serviceId}`);
      made = found;
      if (made.name !== news.name) {
        throw new InputConflictError(
          "name",
          `adoptId: read replica set ${made.id} is named ${JSON.stringify(made.name)} but the program asks for ${JSON.stringify(news.name)}, which cannot change in place; make the program match it to adopt it`,
        );
      }
    } else {
      // The service must be READY; while it is being changed the API answers 409: wait.
      made = await retryWhileConflict(deadline, () =>
        api.createReplicaSet(
          news.serviceId,
          { name: news.name, nodes: news.nodes, cpu_millis: news.cpuMillis, memory_gbs: news.memoryGbs },
          { projectId },
        ),
      );
    }
    try {
      const live = await converge(made, news, projectId, Math.max(1, deadline - Date.now()));
      return { id: made.id, outs: { ...replicaSetOutputs(live, news.serviceId, projectId) } };
    } catch (e) {
      const last = ((e as { lastSeen?: ReadReplicaSet }).lastSeen ?? made) as ReadReplicaSet;
      const failed = ResourceFailedError.isInstance(e) || e instanceof ReplicaSetInErrorError || last.status === "error";
      const why = failed
        ? `Read replica set ${made.id} (${news.name}) is in status error`
        : `Read replica set ${made.id} (${news.name}) was created but is not active: ${(e as Error).message}`;
      throw new ResourceInitError(
        made.id,
        { ...raw, ...replicaSetOutputs(last, news.serviceId, projectId) },
        `${why}. It is kept in state; the next \`pulumi up\` resumes it${failed ? " (and reports the error again while it lasts)" : ""}.`,
      );
    }
  },

  async read(id, props) {
    const projectId = projectOf(props.projectId as string | undefined);
    const serviceId = props.serviceId as string | undefined;
    if (!serviceId) {
      throw new InputConflictError("serviceId", `reading read replica set ${id} needs its serviceId: pass { serviceId } as the state of ReadReplicaSet.get`);
    }
    // Served from the service (which lists its replica sets), so a refresh of many
    // resources shares one list answer through the client's read cache.
    const service = await client().getService(serviceId, { projectId });
    const rs = (service.read_replica_sets ?? []).find((r) => r.id === id);
    return rs && { ...replicaSetOutputs(rs, serviceId, projectId) };
  },

  async update(id, olds, raw) {
    const news = raw as unknown as ReadReplicaSetInputs;
    const projectId = projectOf(news.projectId ?? (olds.projectId as string | undefined));
    const live = await findReplicaSet(news.serviceId, id, projectId);
    if (!live) throw new Error(`Read replica set ${id} no longer exists under service ${news.serviceId}: run \`pulumi refresh\` to drop it from state, then \`pulumi up\` to create it again`);
    const final = await converge(live, news, projectId, timeoutMs(news.timeouts, "update"));
    return { ...replicaSetOutputs(final, news.serviceId, projectId) };
  },

  async delete(id, props) {
    const projectId = projectOf(props.projectId as string | undefined);
    const serviceId = props.serviceId as string;
    const api = client();
    try {
      await api.deleteReplicaSet(serviceId, id, { projectId });
    } catch (e) {
      if (NotFoundError.isInstance(e)) return;
      if (!ConflictError.isInstance(e)) throw e;
    }
    await api.waitForReplicaSetDeleted(serviceId, id, {
      projectId,
      timeoutMs: timeoutMs(props.timeouts as TimeoutsInput | undefined, "delete"),
    });
  },
};

/** The dynamic provider behind `clouddb.ReadReplicaSet`, loaded by the serialized trampoline. */
export const provider = defineResourceProvider(definition);
