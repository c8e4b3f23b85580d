/**
 * Telling a 409 that waiting can cure from one it cannot. The API's 409 body says why in
 * prose only (CONTRACT.md fixes no form for it), so after a 409 of an action on a service
 * or a replica set the client reads the blocking resource once (one GET of the service,
 * and for a replica set action one list of its service's replica sets) and classifies
 * its status with the status rules table: moving on by itself (`CONFIGURING`, `creating`,
 * a status the table does not know) can be waited out; failed, dormant, being deleted or
 * gone (`UNSTABLE`, `PAUSED`, `DELETING`, `error`) cannot. When the resource is ready, its
 * status does not explain the refusal (a VPC attached elsewhere, say): the client cannot
 * tell, and leaves `curableByWaiting` undefined. If the read fails, the 409 is raised as it
 * came.
 */
import { type ConflictBlocker, ConflictError, NotFoundError } from "./errors";
import { type ListReading, lookUp } from "./listReading";
import { classifyStatus, curableByWaiting, type ReadReplicaSet, type WatchedKind } from "../../contract";

/** Reads the blockers a classification needs (a view of the client's operation runner). */
export interface BlockerReader {
  /** The service's status; `NOT_FOUND` when it is gone. */
  serviceStatus(project: string, serviceId: string, caller: string): Promise<string>;
  /** The replica set's status (undefined when it shows none); `NOT_FOUND` when it is gone. */
  replicaSetStatus(project: string, serviceId: string, replicaSetId: string, caller: string): Promise<string | undefined>;
}

/** What to tell a person about a blocker that waiting cannot move. */
function remedy(blocker: ConflictBlocker): string {
  if (blocker.status === "NOT_FOUND") return `it no longer exists`;
  const cls = classifyStatus(blocker.kind, blocker.status);
  if (cls === "dormant") return `start service ${blocker.id} first (\`startService\`)`;
  if (cls === "ending" || cls === "gone") return "it is being deleted";
  return `only deleting it is allowed until it is repaired`;
}

/** The classified error: same answer, plus the blocker, the verdict and a hint that fits it. */
function classified(err: ConflictError, blockedBy: ConflictBlocker): ConflictError {
  const curable = blockedBy.status === "NOT_FOUND" ? false : statusVerdict(blockedBy.kind, blockedBy.status);
  const hint =
    curable === false
      ? `${blockedBy.kind === "service" ? "Service" : "Replica set"} ${blockedBy.id} is ${blockedBy.status}: waiting will not change that; ${remedy(blockedBy)}.`
      : curable
        ? `${blockedBy.kind === "service" ? "Service" : "Replica set"} ${blockedBy.id} is ${blockedBy.status}, which passes by itself: wait until it is ready, then try again.`
        : `${blockedBy.kind === "service" ? "Service" : "Replica set"} ${blockedBy.id} is ${blockedBy.status}, so its status does not explain the refusal: see the details above.`;
  return new ConflictError({
    status: err.status,
    code: err.code,
    apiMessage: err.apiMessage,
    operation: err.operation,
    ...(err.details === undefined ? {} : { details: err.details }),
    ...(err.step === undefined ? {} : { step: err.step }),
    hint,
    blockedBy,
    ...(curable === undefined ? {} : { curableByWaiting: curable }),
  });
}

/** True/false by the rules table; undefined for a ready status (which explains nothing). */
function statusVerdict(kind: WatchedKind, status: string): boolean | undefined {
  return classifyStatus(kind, status) === "ready" ? undefined : curableByWaiting(kind, status);
}

/** Reads a status, mapping a 404 to `NOT_FOUND`. */
async function statusOrGone<T>(read: () => Promise<T>): Promise<T | "NOT_FOUND"> {
  try {
    return await read();
  } catch (e) {
    if (NotFoundError.isInstance(e)) return "NOT_FOUND";
    throw e;
  }
}

/**
 * Classifies the 409 `err` of an action on `blocker` (the service `params.service`, or the
 * replica set `params.replicaSet` of it). Never throws: when a read fails, `err` is
 * returned as it came.
 */
export async function classifyConflict(
  reader: BlockerReader,
  err: ConflictError,
  blocker: "service" | "replica set",
  params: { project?: string; service?: string; replicaSet?: string },
): Promise<ConflictError> {
  const { project, service, replicaSet } = params;
  if (project === undefined || service === undefined) return err;
  try {
    const serviceStatus = await statusOrGone(() => reader.serviceStatus(project, service, err.operation));
    const serviceBlocks = serviceStatus === "NOT_FOUND" || statusVerdict("service", serviceStatus) === false;
    if (blocker === "service" || replicaSet === undefined || serviceBlocks) {
      return classified(err, { kind: "service", id: service, status: serviceStatus });
    }
    const setStatus = await statusOrGone(() => reader.replicaSetStatus(project, service, replicaSet, err.operation));
    return classified(err, { kind: "replica set", id: `${service}/${replicaSet}`, status: setStatus ?? "unknown" });
  } catch {
    return err;
  }
}

/** A {@link BlockerReader.replicaSetStatus} helper: the status of `id` in a list reading, `NOT_FOUND` when absent. */
export function statusInList(reading: ListReading<ReadReplicaSet>, id: string): string | undefined {
  const hit = lookUp(reading, id, (r) => r.id);
  if ("found" in hit) return hit.found.status;
  if ("rejected" in hit) throw hit.rejected;
  return "NOT_FOUND";
}
