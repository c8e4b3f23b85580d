/**
 * Create recovery: creates (VPC, peering, service, fork, replica set) are never blindly
 * repeated. Any failure after which the request may have reached the API (a 5xx, an answer
 * lost, dropped or cut short, a 2xx whose body cannot be read) is an ambiguous outcome,
 * settled before anything more is sent:
 *
 * 1. The client lists the resources and keeps the candidates: those that fit the request
 *    (createMatching.ts), were not given to another create of this client, were not seen
 *    in an answer received before the request was sent, and, for services, whose `created`
 *    lies between the request's sending and its failure in the server's clock (measured
 *    from the `Date` header of the answers, serverClock.ts). A 2xx body that names an id
 *    narrows them to that id.
 * 2. Exactly one candidate: it is taken over and returned (a recovered service has no
 *    `initial_password` unless the unreadable answer carried one). None, after a 5xx or a
 *    lost answer: the create was not carried out, and it is sent again. None after a 2xx,
 *    several, or no way to list: `AmbiguousCreateError`, naming the candidate ids and how
 *    to adopt one (`adoptId: "<id>"`). Recovery never guesses.
 *
 * A request that never reached the API (connection refused) is sent again like any retry.
 */
import type { CreatedIds } from "./createdIds";
import { type Fields, createdWithin, fitsFork, fitsPeering, fitsReplicaSet, fitsService, fitsVpc } from "./createMatching";
import { AmbiguousCreateError, ApiError, NetworkError, ResponseValidationError } from "./errors";
import type { ListReading } from "./listReading";
import type { AttemptRecord, CallContext, Operations } from "./operations";
import { registerSecret } from "./redact";
import type { CreatePeeringRequest, CreateReplicaSetRequest, CreateServiceRequest, CreateVpcRequest, ForkServiceRequest } from "./requests";
import { isRetryableFailure } from "./retry";
import type { Peering, ReadReplicaSet, Service, Vpc } from "./api";
import type { ServerClock } from "./serverClock";

/** How one create is sent, and how what it made is recognised in its list. */
interface CreatePlan<T> {
  /** The create the caller ran. */
  operation: string;
  /** What it makes, as its list names it (`service`, `VPC`, `peering`, `replica set`). */
  noun: string;
  /** How a person knows it, for messages. */
  label: string;
  /** Project it is made in. */
  projectId: string;
  /** The identifier field of the resource. */
  idField: "id" | "service_id";
  /** Sends the create once under the retry policy, with `ctx` (deadline, recovery, attempt records). */
  post: (ctx: CallContext<T>) => Promise<T>;
  /** Lists the resources among which it would be, with `call` naming the create as the caller. */
  list: (call: { caller: string; deadline: number }) => Promise<ListReading<T>>;
  /** Whether a listed item fits the request. */
  fits: (item: Fields) => boolean;
  /** Whether `created` must lie in the request's window (services and forks). */
  timed: boolean;
}

/** What each kind of create makes: the field of its id, and whether its `created` must lie in the request's window. */
const MADE = {
  VPC: { idField: "id", timed: false },
  peering: { idField: "id", timed: false },
  service: { idField: "service_id", timed: true },
  "replica set": { idField: "id", timed: false },
} as const satisfies Record<string, Pick<CreatePlan<unknown>, "idField" | "timed">>;

/** How a create is sent and listed. */
type CreateCalls<T> = Pick<CreatePlan<T>, "post" | "list">;

/** Fields of a resource, for the matchers (every answer is a loose object). */
function fieldsOf(item: unknown): Fields {
  return item !== null && typeof item === "object" ? (item as Fields) : {};
}

/** A short account of how an outcome became unknown, for messages. */
function describeFailure(failure: unknown): string {
  if (ApiError.isInstance(failure)) return `its answer was lost: ${failure.status} ${failure.code}`;
  if (NetworkError.isInstance(failure)) return `no whole answer came: ${failure.causeCode ?? "connection closed"}`;
  if (ResponseValidationError.isInstance(failure)) return `its answer could not be read: field \`${failure.path}\` was ${failure.received}`;
  return failure instanceof Error ? failure.message : String(failure);
}

/** The creates of one client (see the module comment). */
export class Creates {
  /** Ids given to this client's creates, and when ids were first seen. */
  readonly ids: CreatedIds;

  /**
   * @param ops - the client's operation runner.
   * @param clock - the server's clock, for `created`.
   * @param ids - the client's memory of ids (shared with `ops`, which records what lists show).
   */
  constructor(
    private readonly ops: Operations,
    private readonly clock: ServerClock,
    ids: CreatedIds,
  ) {
    this.ids = ids;
  }

  /** Runs the create `operation` of a `noun` known to people as `label`, recovering it as the module comment says. */
  private async run<T>(
    noun: keyof typeof MADE,
    operation: string,
    label: string,
    projectId: string,
    fits: (item: Fields) => boolean,
    calls: CreateCalls<T>,
  ): Promise<T> {
    const plan: CreatePlan<T> = { ...MADE[noun], noun, operation, label, projectId, fits, ...calls };
    const deadline = this.ops.deadlineFromNow();
    let last: AttemptRecord = { trace: {} };
    const made = await plan.post({
      deadline,
      onAttempt: (attempt) => (last = attempt),
      recover: (failure, final) => this.recover(plan, failure, last, final, deadline),
    });
    const id = fieldsOf(made)[plan.idField];
    if (typeof id === "string") this.ids.own(plan.noun, id);
    return made;
  }

  private async recover<T>(
    plan: CreatePlan<T>,
    failure: unknown,
    attempt: AttemptRecord,
    final: boolean,
    deadline: number,
  ): Promise<T | undefined> {
    const ambiguous = {
      operation: plan.operation,
      noun: plan.noun,
      label: plan.label,
      projectId: plan.projectId,
      failure: describeFailure(failure),
    };
    let reading: ListReading<T>;
    try {
      reading = await plan.list({ caller: plan.operation, deadline });
    } catch (err) {
      if (!final && isRetryableFailure(err)) throw err;
      throw new AmbiguousCreateError({
        ...ambiguous,
        candidateIds: [],
        unsettled: `the client could not list the ${plan.noun}s to check what it made (${err instanceof Error ? err.message : String(err)})`,
        cause: err,
      });
    }
    const sentAt = attempt.trace.sentAt ?? Date.now();
    const endedAt = attempt.trace.endedAt ?? Date.now();
    const window = plan.timed ? this.clock.toServer(sentAt, endedAt) : undefined;
    const answered = fieldsOf(attempt.body);
    const namedId =
      ResponseValidationError.isInstance(failure) && typeof answered[plan.idField] === "string" ? answered[plan.idField] : undefined;
    const readable = reading.items.map((item) => ({ id: String(fieldsOf(item)[plan.idField]), fields: fieldsOf(item), item }));
    const unreadable = reading.rejected.flatMap((r) =>
      r.id === undefined ? [] : [{ id: r.id, fields: fieldsOf(r.raw), item: undefined }],
    );
    const candidates = [...readable, ...unreadable].filter(
      (c) =>
        (namedId === undefined || c.id === namedId) &&
        !this.ids.isOwned(plan.noun, c.id) &&
        !this.ids.seenBefore(plan.noun, c.id, sentAt) &&
        plan.fits(c.fields) &&
        (window === undefined || createdWithin(c.fields, window)),
    );
    const only = candidates.length === 1 ? candidates[0] : undefined;
    if (only?.item !== undefined) {
      this.ids.own(plan.noun, only.id);
      const password = answered.initial_password;
      if (typeof password === "string" && ResponseValidationError.isInstance(failure)) {
        registerSecret(password);
        return { ...only.item, initial_password: password };
      }
      return only.item;
    }
    if (candidates.length === 0 && !ResponseValidationError.isInstance(failure)) return undefined;
    throw new AmbiguousCreateError({
      ...ambiguous,
      candidateIds: candidates.map((c) => c.id),
      unsettled:
        only !== undefined
          ? `the one ${plan.noun} that fits it cannot be read (${reading.rejected.find((r) => r.id === only.id)?.error.message ?? "unreadable"})`
          : `the API accepted it, yet no ${plan.noun} in the list fits it${namedId === undefined ? "" : ` (its answer named ${JSON.stringify(namedId)})`}`,
      cause: failure,
    });
  }

  /** `POST .../vpcs`, recovered by name, CIDR and region. See the module comment for the failure contract. */
  async vpc(req: CreateVpcRequest, projectId: string): Promise<Vpc> {
    const project = { project: projectId };
    const body = { name: req.name, cidr: req.cidr, region_code: req.region_code };
    return this.run<Vpc>("VPC", "createVpc", `"${req.name}"`, projectId, fitsVpc(req), {
      post: (ctx) => this.ops.call("createVpc", project, body, ctx),
      list: (call) => this.ops.call("listVpcs", project, undefined, call),
    });
  }

  /** `POST .../vpcs/{vpc}/peerings`, recovered by peer account, region and VPC. */
  async peering(vpcId: string, req: CreatePeeringRequest, projectId: string): Promise<Peering> {
    const params = { project: projectId, vpc: vpcId };
    const body = { peer_account_id: req.peer_account_id, peer_region_code: req.peer_region_code, peer_vpc_id: req.peer_vpc_id };
    return this.run<Peering>("peering", "createPeering", `to ${req.peer_vpc_id} in VPC ${vpcId}`, projectId, fitsPeering(req), {
      post: (ctx) => this.ops.call("createPeering", params, body, ctx),
      list: (call) => this.ops.call("listPeerings", params, undefined, call),
    });
  }

  /** `POST .../services`, recovered by name, type, region, size, HA and environment among services created since it was sent. */
  async service(req: CreateServiceRequest, projectId: string): Promise<Service> {
    const project = { project: projectId };
    const made = await this.run<Service>("service", "createService", `"${req.name}"`, projectId, fitsService(req), {
      post: (ctx) => this.ops.call("createService", project, req, ctx),
      list: (call) => this.ops.call("listServices", project, undefined, call),
    });
    registerSecret(made.initial_password);
    return made;
  }

  /** `POST .../forkService`, recovered by origin (and name, size, environment when given) among services created since it was sent. */
  async fork(sourceId: string, req: ForkServiceRequest, projectId: string): Promise<Service> {
    const label = req.name === undefined ? `forked from ${sourceId}` : `"${req.name}" forked from ${sourceId}`;
    const made = await this.run<Service>("service", "forkService", label, projectId, fitsFork(sourceId, req), {
      post: (ctx) => this.ops.call("forkService", { project: projectId, service: sourceId }, req, ctx),
      list: (call) => this.ops.call("listServices", { project: projectId }, undefined, call),
    });
    registerSecret(made.initial_password);
    return made;
  }

  /** `POST .../replicaSets`, recovered by name and size within the service. */
  async replicaSet(serviceId: string, req: CreateReplicaSetRequest, projectId: string): Promise<ReadReplicaSet> {
    const params = { project: projectId, service: serviceId };
    const label = `"${req.name}" of service ${serviceId}`;
    return this.run<ReadReplicaSet>("replica set", "createReplicaSet", label, projectId, fitsReplicaSet(req), {
      post: (ctx) => this.ops.call("createReplicaSet", params, req, ctx),
      list: (call) => this.ops.call("listReplicaSets", params, undefined, call),
    });
  }
}
