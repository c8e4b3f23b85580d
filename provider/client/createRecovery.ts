/**
 * Create recovery: a create whose API description declares `recover` (api/operation.ts
 * `CreateRecovery`: the list that shows what it made, whether it is timed, how an item fits
 * the request) is never blindly repeated; `ClouddbClient.perform` and the named creates run
 * it here, and nothing in this file names a kind of resource. Any failure after which the
 * request may have reached the API (a 5xx, an answer lost, dropped or cut short, a 2xx
 * whose body cannot be read) is an ambiguous outcome, settled before anything more is sent:
 *
 * 1. The client lists the resources and keeps the candidates: those that fit the request
 *    (the description's `fits`), were not given to another create of this client, were
 *    not seen in an answer received before the request was sent, and, for timed creates
 *    (services), whose `created` lies between the request's sending and its failure in the
 *    server's clock (measured from the `Date` header of the answers, serverClock.ts). A 2xx
 *    body that names an id narrows them to that id.
 * 2. Exactly one candidate: it is taken over and returned (a recovered service has no
 *    `initial_password`, its declared `secret`, unless the unreadable answer carried one).
 *    None, after a 5xx or a lost answer: the create was not carried out, and it is sent
 *    again. None after a 2xx, several, or no way to list: `AmbiguousCreateError`, naming
 *    the candidate ids and how to adopt one (`adoptId: "<id>"`). Recovery never guesses.
 *
 * A request that never reached the API (connection refused) is sent again like any retry.
 */
import type { z } from "zod";
import type { CreateRecovery, Operation, ParamsOf, PathParams } from "./api";
import type { CreatedIds } from "./createdIds";
import { type Fields, createdWithin } from "./createMatching";
import { AmbiguousCreateError, ApiError, NetworkError, ResponseValidationError } from "./errors";
import type { ListReading, ListShape } from "./listReading";
import type { AttemptRecord, CallContext, Operations, ReplyOf } from "./operations";
import { registerSecret } from "./redact";
import { isRetryableFailure } from "./retry";
import { ROUTES, type RouteSpec } from "./routes";
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
  /** The identifier field of the resource, as its list names it. */
  idField: string;
  /** Sends the create once under the retry policy, with `ctx` (deadline, recovery, attempt records). */
  post: (ctx: CallContext<T>) => Promise<T>;
  /** Lists the resources among which it would be, with `call` naming the create as the caller. */
  list: (call: { caller: string; deadline: number }) => Promise<ListReading<T>>;
  /** Whether a listed item fits the request. */
  fits: (item: Fields) => boolean;
  /** Whether `created` must lie in the request's window (services and forks). */
  timed: boolean;
  /** The answer's field that holds a secret, if any. */
  secret: string | undefined;
}

/** How the create `operation` is recovered, as its description declares it; undefined when it declares none. */
export function recoveryOf(operation: Operation): CreateRecovery<unknown, PathParams> | undefined {
  return (ROUTES[operation] as RouteSpec).recover as CreateRecovery<unknown, PathParams> | undefined;
}

/** The list a recovery reads, and the shape of its items (id field and noun). */
function listOf(operation: string, recovery: CreateRecovery<unknown, PathParams>): { list: Operation; shape: ListShape<z.ZodType> } {
  const list = recovery.list as Operation;
  const reply = (ROUTES as Readonly<Record<string, RouteSpec | undefined>>)[list]?.reply;
  if (reply === undefined || !("list" in reply)) throw new Error(`${operation}: its recovery names ${list}, which is not a list operation`);
  return { list, shape: reply.list };
}

/** How a person knows what a create makes when its description gives no label: the body's `name`, quoted. */
function defaultLabel(body: unknown, noun: string): string {
  const name = fieldsOf(body).name;
  return typeof name === "string" ? `"${name}"` : `(a new ${noun})`;
}

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

  /**
   * Runs the create `operation` with its full path `params` and `body`, recovering a lost
   * answer as the module comment says and as `recovery` (its description's, see
   * {@link recoveryOf}) declares.
   */
  async run<O extends Operation>(
    operation: O,
    recovery: CreateRecovery<unknown, PathParams>,
    params: ParamsOf<O>,
    body: unknown,
  ): Promise<ReplyOf<O>> {
    const { list, shape } = listOf(operation, recovery);
    const plan: CreatePlan<ReplyOf<O>> = {
      operation,
      noun: shape.noun,
      idField: shape.idField,
      label: recovery.label?.(body, params) ?? defaultLabel(body, shape.noun),
      projectId: String((params as Partial<PathParams<"{project}">>).project),
      post: (ctx) => this.ops.call(operation, params, body, ctx),
      list: async (call) => (await this.ops.call(list, params, undefined, call)) as ListReading<ReplyOf<O>>,
      fits: (item) => recovery.fits(body, item, params),
      timed: recovery.timed === true,
      secret: recovery.secret,
    };
    const deadline = this.ops.deadlineFromNow();
    let last: AttemptRecord = { trace: {} };
    const made = await plan.post({
      deadline,
      onAttempt: (attempt) => (last = attempt),
      recover: (failure, final) => this.recover(plan, failure, last, final, deadline),
    });
    const id = fieldsOf(made)[plan.idField];
    if (typeof id === "string") this.ids.own(plan.noun, id);
    if (plan.secret !== undefined) registerSecret(fieldsOf(made)[plan.secret]);
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
      const secret = plan.secret === undefined ? undefined : answered[plan.secret];
      if (plan.secret !== undefined && typeof secret === "string" && ResponseValidationError.isInstance(failure)) {
        registerSecret(secret);
        return { ...only.item, [plan.secret]: secret };
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
}
