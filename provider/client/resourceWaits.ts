/**
 * The waits of one client: how each watched resource is observed (a service by its GET, a
 * replica set in its service's list, a peering by its GET) and which goal each wait has.
 * Polling and judging are `waiters.ts`'s; the status rules are `statusRules.ts`'s.
 */
import { NotFoundError } from "./errors";
import { lookUp } from "./listReading";
import type { Operations } from "./operations";
import type { ProjectOptions } from "./requests";
import type { Peering, ReadReplicaSet, Service } from "./schemas";
import type { WatchedKind } from "./statusRules";
import type { WatchedBodies } from "./waitErrors";
import { type Observation, type WaitGoal, waitFor } from "./waiters";

/** Options shared by the waiters. */
export interface WaitOptions extends ProjectOptions {
  /** Total time to wait, in ms. */
  timeoutMs: number;
  /** Overrides the client's polling for this wait. */
  poll?: { initialMs?: number; maxMs?: number };
}

/** Options of `ClouddbClient.waitForService`. */
export interface WaitForServiceOptions extends WaitOptions {
  /** States that end the wait, e.g. `["READY"]`. */
  until: Service["status"][];
}

/** Options of `ClouddbClient.waitForReplicaSet`. */
export interface WaitForReplicaSetOptions extends WaitOptions {
  /** States that end the wait. @default ["active"] */
  until?: NonNullable<ReadReplicaSet["status"]>[];
}

/** Options of `ClouddbClient.waitForPeering`. */
export interface WaitForPeeringOptions extends WaitOptions {
  /** States that end the wait. @default ["active"] */
  until?: string[];
}

/** Reads once, turning a 404 into "absent". */
async function observe<T>(read: () => Promise<T>): Promise<Observation<T>> {
  try {
    return { present: true, value: await read() };
  } catch (err) {
    if (NotFoundError.isInstance(err)) return { present: false };
    throw err;
  }
}

/** The waits of one client (see the module comment). */
export class ResourceWaits {
  /** @param ops - the client's operation runner. */
  constructor(private readonly ops: Operations) {}

  private run<K extends WatchedKind>(
    kind: K,
    id: string,
    operation: string,
    goal: WaitGoal,
    opts: WaitOptions,
    read: (projectId: string, deadline: number, caller: { caller: string; deadline: number }) => Promise<Observation<WatchedBodies[K]>>,
  ): Promise<WatchedBodies[K] | undefined> {
    const projectId = this.ops.project(opts);
    const initialMs = opts.poll?.initialMs ?? this.ops.config.poll.initialMs;
    const maxMs = Math.max(initialMs, opts.poll?.maxMs ?? this.ops.config.poll.maxMs);
    return waitFor<K>({
      resource: { kind, id, projectId },
      goal,
      timeoutMs: opts.timeoutMs,
      initialMs,
      maxMs,
      observe: (deadline) => {
        const readDeadline = Math.min(deadline, Date.now() + this.ops.config.retryDeadlineMs);
        return read(projectId, readDeadline, { caller: operation, deadline: readDeadline });
      },
    });
  }

  /** The service until its status is one of `opts.until`; see `ClouddbClient.waitForService`. */
  async service(serviceId: string, opts: WaitForServiceOptions): Promise<Service> {
    const found = await this.run("service", serviceId, "waitForService", { status: opts.until }, opts, (project, _, ctx) =>
      observe(() => this.ops.call("getService", { project, service: serviceId }, undefined, ctx)),
    );
    return found!;
  }

  /** The service until it is gone; see `ClouddbClient.waitForServiceDeleted`. */
  async serviceDeleted(serviceId: string, opts: WaitOptions): Promise<void> {
    await this.run("service", serviceId, "waitForServiceDeleted", { deleted: true }, opts, (project, _, ctx) =>
      observe(() => this.ops.call("getService", { project, service: serviceId }, undefined, ctx)),
    );
  }

  private async replicaSetIn(
    project: string,
    serviceId: string,
    replicaSetId: string,
    ctx: { caller: string; deadline: number },
  ): Promise<Observation<ReadReplicaSet>> {
    const sets = await observe(() => this.ops.call("listReplicaSets", { project, service: serviceId }, undefined, ctx));
    if (!sets.present) return { present: false };
    const hit = lookUp(sets.value, replicaSetId, (r) => r.id);
    if ("rejected" in hit) throw hit.rejected;
    return "found" in hit ? { present: true, value: hit.found } : { present: false };
  }

  /** The replica set until its status is one of `opts.until`; see `ClouddbClient.waitForReplicaSet`. */
  async replicaSet(serviceId: string, replicaSetId: string, opts: WaitForReplicaSetOptions): Promise<ReadReplicaSet> {
    const goal = { status: opts.until ?? ["active"] };
    const found = await this.run("replica set", `${serviceId}/${replicaSetId}`, "waitForReplicaSet", goal, opts, (project, _, ctx) =>
      this.replicaSetIn(project, serviceId, replicaSetId, ctx),
    );
    return found!;
  }

  /** The replica set until it is gone; see `ClouddbClient.waitForReplicaSetDeleted`. */
  async replicaSetDeleted(serviceId: string, replicaSetId: string, opts: WaitOptions): Promise<void> {
    const id = `${serviceId}/${replicaSetId}`;
    await this.run("replica set", id, "waitForReplicaSetDeleted", { deleted: true }, opts, (project, _, ctx) =>
      this.replicaSetIn(project, serviceId, replicaSetId, ctx),
    );
  }

  /** The peering until its status is one of `opts.until`; see `ClouddbClient.waitForPeering`. */
  async peering(vpcId: string, peeringId: string, opts: WaitForPeeringOptions): Promise<Peering> {
    const goal = { status: opts.until ?? ["active"] };
    const found = await this.run("peering", `${vpcId}/${peeringId}`, "waitForPeering", goal, opts, (project, _, ctx) =>
      observe(() => this.ops.call("getPeering", { project, vpc: vpcId, peering: peeringId }, undefined, ctx)),
    );
    return found!;
  }
}
