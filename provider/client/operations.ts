/**
 * Runs the operations of the API description (contract/api): every call goes through one path, transport
 * (HTTP) → retry policy → response validation, and names the operation the caller ran in
 * every error (with the request as `step` when it serves another operation, e.g. the
 * list a create's recovery makes).
 */
import type { z } from "zod";
import { API, type ListShape, type Operation, type OperationSpec, type ParamsOf, pathOf } from "../../contract";
import type { ProjectOptions } from "./callArgs";
import { type ResolvedConfig, requireProjectId } from "./config";
import { type ListReading, readList } from "./listReading";
import { withRetry, type RetryCall } from "./retry";
import { type BlockerReader, classifyConflict, statusInList } from "./conflicts";
import { ConflictError, ForeignResourceError, ResponseValidationError } from "./errors";
import type { CreatedIds } from "./createdIds";
import type { Priority } from "./shaping/pacer";
import type { HttpRequest, HttpResponse, HttpTransport, RequestTrace } from "./transport";
import { validateResponse } from "./validation";
import { boundedByScope, scopeDeadline } from "./deadline";

/** The answer an operation whose `reply` is `R` resolves to: the item, a {@link ListReading} of the items, or nothing. */
export type ReplyOfSpec<R> = R extends { one: infer S extends z.ZodType }
  ? z.output<S>
  : R extends { list: { item: infer S extends z.ZodType } }
    ? ListReading<z.output<S>>
    : void;

/** The validated answer of an operation. */
export type ReplyOf<O extends Operation> = ReplyOfSpec<(typeof API)[O]["reply"]>;

/**
 * The error of a 2xx answer without a body where the operation's answer has one: not a
 * body of another version's shape, but a body lost on the way or an answer that is not the
 * API's (the API always sends one there).
 */
function emptyAnswer(status: number, listNoun: string | undefined, named: { operation: string; step?: string }): ResponseValidationError {
  return new ResponseValidationError({
    ...named,
    path: "(body)",
    expected: listNoun === undefined ? "a JSON object" : `a JSON array of ${listNoun}s`,
    received: `nothing (HTTP ${status} with an empty body)`,
    why:
      "The API always answers this with a body: something between this machine and the API (a gateway or proxy) answered " +
      "in its place, or the body was lost on the way. The request may have been carried out.",
  });
}

/** What an operation answering one resource answers, for messages: the noun of the list whose items have its schema (`service`). */
const RESOURCE_NOUNS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(API as Readonly<Record<string, OperationSpec>>).flatMap(([name, spec]) => {
    const one = "one" in spec.reply ? spec.reply.one : undefined;
    const list = Object.values(API as Readonly<Record<string, OperationSpec>>).find((o) => "list" in o.reply && o.reply.list.item === one);
    return list !== undefined && "list" in list.reply ? [[name, list.reply.list.noun]] : [];
  }),
);

/**
 * The error of a resource in an answer that belongs to another project than `project`, the
 * one asked for (its `project_id`, where the API shows one); undefined when it is the
 * project's, or does not say.
 */
function foreignTo(
  project: string,
  item: unknown,
  noun: string,
  named: { operation: string; step?: string },
  idField?: string,
): ForeignResourceError | undefined {
  if (item === null || typeof item !== "object") return undefined;
  const fields = item as Record<string, unknown>;
  const owner = fields.project_id;
  if (typeof owner !== "string" || owner === project) return undefined;
  const id = fields[idField ?? "service_id"] ?? fields.id;
  return new ForeignResourceError({
    ...named,
    noun,
    id: typeof id === "string" ? id : "(no id)",
    askedProject: project,
    answeredProject: owner,
    inList: idField !== undefined,
  });
}

/** `reading` with every item of another project than `project` set aside as unreadable (it is not this project's to use). */
function ownProjectOnly<T>(
  reading: ListReading<T>,
  project: string,
  shape: ListShape<z.ZodType>,
  named: { operation: string; step?: string },
): ListReading<T> {
  const items: T[] = [];
  const rejected = [...reading.rejected];
  for (const item of reading.items) {
    const foreign = foreignTo(project, item, shape.noun, named, shape.idField);
    if (foreign === undefined) items.push(item);
    else rejected.push({ id: foreign.resourceId, error: foreign, raw: item });
  }
  return { items, rejected };
}

/** How long the one read that classifies a 409 may take, retries included. */
const CLASSIFY_DEADLINE_MS = 5_000;

/** One attempt of a call, as create recovery needs to know it. */
export interface AttemptRecord {
  /** When the request was sent and when it ended (client clock). */
  trace: RequestTrace;
  /** The body of a 2xx answer, even one that could not be read as the route's answer. */
  body?: unknown;
}

/** Who a call serves and how long it may retry. */
export interface CallContext<T = unknown> {
  /** The operation the caller ran, when this request serves another (a recovery's list). */
  caller?: string;
  /**
   * Absolute time (epoch ms) after which no retry starts. @default now + retryDeadlineMs, or
   * the operation's deadline when that comes first (deadline.ts); within an operation, a 429's
   * retries (and turns at the pacer) may go on until the operation's deadline itself.
   */
  deadline?: number;
  /**
   * True when the call's 429s (and its turns at the pacer) may be waited for until the
   * operation's deadline (deadline.ts) though `deadline` is sooner: a create's own request,
   * whose `deadline` is the client's retry deadline. @default true without `deadline`, else false
   */
  waitsForLimit?: boolean;
  /** For creates: settles an ambiguous outcome (see retry.ts). */
  recover?: (failure: unknown, final: boolean) => Promise<T | undefined>;
  /** Told about every attempt once it ended, successful or not. */
  onAttempt?: (attempt: AttemptRecord) => void;
  /** Its turn in the client's pacer. @default by method: "write" for POST/DELETE, "read" for GET */
  priority?: Priority;
}

/**
 * The operation runner of one client: resolves the project, sends the route's request
 * under the retry policy, validates the answer, and tells `onWrite` before and after every
 * write (the read cache drops what it holds).
 */
export class Operations implements BlockerReader {
  /**
   * @param config - the resolved client configuration.
   * @param transport - the HTTP transport.
   * @param ids - told every id a list answer shows.
   * @param onWrite - called before and after every write request.
   * @param stopped - aborts when the client stops: every pause of the client (a retry's backoff, a look again) takes it.
   */
  constructor(
    readonly config: ResolvedConfig,
    private readonly transport: HttpTransport,
    private readonly ids: CreatedIds,
    private readonly onWrite: () => void,
    readonly stopped: AbortSignal = new AbortController().signal,
  ) {}

  /**
   * The project a call addresses: `opts.projectId`, else the client's.
   * @throws ConfigurationError when neither is set.
   */
  project(opts: ProjectOptions | undefined): string {
    return requireProjectId(this.config, opts?.projectId);
  }

  /** The status of a service, read once for a 409's classification (see conflicts.ts). */
  async serviceStatus(project: string, serviceId: string, caller: string): Promise<string> {
    const deadline = Date.now() + CLASSIFY_DEADLINE_MS;
    return (await this.call("getService", { project, service: serviceId }, undefined, { caller, deadline })).status;
  }

  /** The status of a replica set, read once for a 409's classification (see conflicts.ts). */
  async replicaSetStatus(project: string, serviceId: string, replicaSetId: string, caller: string): Promise<string | undefined> {
    const deadline = Date.now() + CLASSIFY_DEADLINE_MS;
    return statusInList(await this.call("listReplicaSets", { project, service: serviceId }, undefined, { caller, deadline }), replicaSetId);
  }

  /** The deadline of a call that starts now: `retryDeadlineMs` from now, or the operation's deadline when that comes first (deadline.ts). */
  deadlineFromNow(): number {
    return boundedByScope(Date.now() + this.config.retryDeadlineMs);
  }

  /**
   * Runs `operation` under the retry policy and returns its validated answer.
   *
   * @throws an `ApiError` subclass for an error answer (after retries for 429/5xx),
   * NetworkError when no answer came, ResponseValidationError when a 2xx body is not what
   * the client relies on. Errors name `ctx.caller` as the operation when given.
   */
  async call<O extends Operation>(
    operation: O,
    params: ParamsOf<O>,
    body?: unknown,
    ctx: CallContext<ReplyOf<O>> = {},
  ): Promise<ReplyOf<O>> {
    const route: OperationSpec = API[operation];
    const isWrite = route.method !== "GET";
    const named = ctx.caller === undefined ? { operation } : { operation: ctx.caller, step: operation };
    const req: HttpRequest = { ...named, method: route.method, path: pathOf(operation, params) };
    if (body !== undefined) req.body = body;
    const projectId = (params as { project?: string }).project;
    if (projectId !== undefined) req.projectId = projectId;
    if (ctx.priority !== undefined) req.priority = ctx.priority;
    if (isWrite) this.onWrite();
    const deadline = boundedByScope(ctx.deadline ?? this.deadlineFromNow());
    // Waiting for the API's rate limit (its 429s, a turn shared with the machine's other clients of the key)
    // may take as long as the operation under way may (its timeouts), not only the client's retry deadline.
    const limitDeadline =
      ctx.deadline === undefined || ctx.waitsForLimit === true ? Math.max(deadline, scopeDeadline() ?? deadline) : deadline;
    req.deadline = limitDeadline;
    try {
      const retryCall: RetryCall<ReplyOf<O>> = {
        operation,
        kind: route.retry,
        deadline,
        limitDeadline,
        unreachableDeadline: boundedByScope(Date.now() + this.config.unreachableRetryMs),
        signal: this.stopped,
        attempt: async () => {
          const record: AttemptRecord = { trace: {} };
          try {
            const res = await this.transport.send({ ...req, trace: record.trace });
            record.body = res.body;
            return this.read(operation, res, named, projectId);
          } finally {
            ctx.onAttempt?.(record);
          }
        },
      };
      if (ctx.recover !== undefined) retryCall.recover = ctx.recover;
      if (route.retry === "delete") retryCall.goneValue = undefined;
      return await withRetry(retryCall);
    } catch (err) {
      const blocker = route.blocker;
      if (blocker === undefined || !ConflictError.isInstance(err)) throw err;
      throw await classifyConflict(this, err, blocker, params);
    } finally {
      if (isWrite) this.onWrite();
    }
  }

  /**
   * The answer of `operation` in `body`, as its own 2xx answer would read (validated, a list
   * item by item, what belongs to another project set aside): for an answer read by another
   * client of the machine (sharedLists.ts), received at `receivedAt`.
   * @throws ResponseValidationError when it is not what the client relies on
   */
  answerOf<O extends Operation>(operation: O, body: unknown, receivedAt: number, caller: string, project?: string): ReplyOf<O> {
    const named = { operation: caller, step: operation };
    return this.read(operation, { status: 200, body, sentAt: receivedAt, receivedAt }, named, project);
  }

  private read<O extends Operation>(
    operation: O,
    res: HttpResponse,
    named: { operation: string; step?: string },
    project: string | undefined,
  ): ReplyOf<O> {
    const { body, receivedAt } = res;
    const reply = API[operation].reply;
    if (body === undefined && !("none" in reply)) throw emptyAnswer(res.status, "list" in reply ? reply.list.noun : undefined, named);
    if ("one" in reply) {
      const one = validateResponse(reply.one, body, named) as ReplyOf<O>;
      const foreign = project === undefined ? undefined : foreignTo(project, one, RESOURCE_NOUNS[operation] ?? "resource", named);
      if (foreign !== undefined) throw foreign;
      return one;
    }
    if ("list" in reply) {
      const shape = reply.list as ListShape<z.ZodType>;
      const reading =
        project === undefined ? readList(body, shape, named) : ownProjectOnly(readList(body, shape, named), project, shape, named);
      for (const item of reading.items as Record<string, unknown>[]) this.ids.sight(shape.noun, String(item[shape.idField]), receivedAt);
      for (const item of reading.rejected) if (item.id !== undefined) this.ids.sight(shape.noun, item.id, receivedAt);
      return { ...reading, sentAt: res.sentAt } as ReplyOf<O>;
    }
    return undefined as ReplyOf<O>;
  }
}
