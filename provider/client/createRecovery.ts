/**
 * Create recovery: a create whose API description declares `recover` (api/operation.ts
 * `CreateRecovery`: the list that shows what it made, how an item fits the request) is
 * never blindly repeated; `ClouddbClient.perform` runs it here, and
 * nothing in this file names a kind of resource. Any failure after which the request may
 * have reached the API (a 5xx but 501/505/511, an answer lost, dropped, cut short or not
 * whole within its deadline, a 2xx whose body cannot be read or is not the API's, a 301,
 * 302 or 303 redirect, which a server may send after it acted) is an ambiguous outcome,
 * settled before anything more is sent. The API has no idempotency key, so a listed
 * resource is taken over only when it can have come from this create and no other client:
 *
 * - **A unique name** (`uniqueName`, the providers' autonaming: a logical name and a random
 *   suffix): the resource of exactly that name is this create's, whenever it was made (no
 *   clock is compared). Several of that name (the request was carried out twice) are never
 *   guessed between.
 * - **A snapshot** (`recover.snapshot`, peerings, which have no name): the list is read just
 *   before the request is sent; the one fitting item it did not show is this create's.
 * - **An unreadable 2xx that names an id**: that id.
 * - **Otherwise** (a name the program chose, which another client may use as well), any
 *   fitting item that may be new (not seen in an answer before the request was sent; no
 *   clock decides it, however far a gateway's `Date` runs from the API's) may be another
 *   client's: none is taken over, and the create fails with `AmbiguousCreateError` naming
 *   every candidate and the `adoptId` that takes it over.
 *
 * Absence proves nothing: a list may lag behind the API, and a request held on the way (past
 * this client's deadline) may still be carried out after recovery looked. So a create whose
 * outcome is unknown is never sent again: when the list shows no candidate (it is read a few
 * times, each id once), the create fails with `AmbiguousCreateError` saying exactly that. A
 * request that never reached the API (connection refused) is sent again like any retry.
 */
import type { z } from "zod";
import {
  API,
  type CreateRecovery,
  type Fields,
  type ListShape,
  type Operation,
  type OperationSpec,
  type ParamsOf,
  type PathParams,
} from "../../contract";
import type { CreateOptions } from "./callArgs";
import type { CreatedIds } from "./createdIds";
import {
  AmbiguousCreateError,
  ApiError,
  ForeignResourceError,
  NetworkError,
  NotTheApiError,
  RedirectError,
  ResponseValidationError,
} from "./errors";
import type { ListReading } from "./listReading";
import type { AttemptRecord, CallContext, Operations, ReplyOf } from "./operations";
import { registerSecret } from "./redact";
import { isRetryableFailure } from "./retry";
import { sleep } from "./timers";

/**
 * The pauses before recovery looks again at a list that showed no candidate (it may lag
 * behind the create): looking more finds more, and absence is never taken for proof.
 */
export const LOOK_AGAIN_MS: readonly number[] = [500, 1_500];

/** What proves that a listed item is what a create made. */
type Proof =
  /** Its exact name, unique to this create. */
  | { by: "name"; name: string }
  /** Its absence from the list read just before the request (undefined when that list could not be read). */
  | { by: "snapshot"; before: ReadonlySet<string> | undefined }
  /** Nothing: any item that fits may be another client's. */
  | { by: "nothing" };

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
  /** The answer's field that holds a secret, if any. */
  secret: string | undefined;
  /** What proves ownership. */
  proof: Proof;
}

/** A listed item that fits the request: readable (`item`) or not. */
interface Candidate<T> {
  id: string;
  fields: Fields;
  item: T | undefined;
}

/** How recovery settled one look at the list. */
type Settled<T> = { taken: Candidate<T> } | { none: true } | { ambiguous: Candidate<T>[]; why: string };

/** How the create `operation` is recovered, as its description declares it; undefined when it declares none. */
export function recoveryOf(operation: Operation): CreateRecovery<unknown, PathParams> | undefined {
  return (API[operation] as OperationSpec).recover as CreateRecovery<unknown, PathParams> | undefined;
}

/** The list a recovery reads, and the shape of its items (id field and noun). */
function listOf(operation: string, recovery: CreateRecovery<unknown, PathParams>): { list: Operation; shape: ListShape<z.ZodType> } {
  const list = recovery.list as Operation;
  const reply = (API as Readonly<Record<string, OperationSpec | undefined>>)[list]?.reply;
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
  if (NotTheApiError.isInstance(failure)) {
    return `its answer was not the API's but a ${failure.status} ${failure.title === undefined ? "page" : `page titled "${failure.title}"`} of something between this machine and the API`;
  }
  if (RedirectError.isInstance(failure)) {
    return `it was answered with a ${failure.status} redirect${failure.location === undefined ? "" : ` to ${failure.location}`}, which a server may send after it acted`;
  }
  return failure instanceof Error ? failure.message : String(failure);
}

/** The candidates of a list reading, each id once (a gateway may repeat items; a readable copy wins). */
function candidatesOf<T>(reading: ListReading<T>, idField: string): Candidate<T>[] {
  const byId = new Map<string, Candidate<T>>();
  for (const item of reading.items) {
    const id = String(fieldsOf(item)[idField]);
    if (!byId.has(id)) byId.set(id, { id, fields: fieldsOf(item), item });
  }
  for (const r of reading.rejected) {
    // An item of another project is not what a create sent to this one made.
    if (ForeignResourceError.isInstance(r.error)) continue;
    if (r.id !== undefined && !byId.has(r.id)) byId.set(r.id, { id: r.id, fields: fieldsOf(r.raw), item: undefined });
  }
  return [...byId.values()];
}

/** The creates of one client (see the module comment). */
export class Creates {
  /** Ids given to this client's creates, and when ids were first seen. */
  readonly ids: CreatedIds;

  /**
   * @param ops - the client's operation runner.
   * @param ids - the client's memory of ids (shared with `ops`, which records what lists show).
   */
  constructor(
    private readonly ops: Operations,
    ids: CreatedIds,
  ) {
    this.ids = ids;
  }

  /**
   * Runs the create `operation` with its full path `params` and `body`, recovering a lost
   * answer as the module comment says and as `recovery` (its description's, see
   * {@link recoveryOf}) declares; `opts.uniqueName` says the body's name is this create's own.
   */
  async run<O extends Operation>(
    operation: O,
    recovery: CreateRecovery<unknown, PathParams>,
    params: ParamsOf<O>,
    body: unknown,
    opts: Pick<CreateOptions, "uniqueName"> = {},
  ): Promise<ReplyOf<O>> {
    const { list, shape } = listOf(operation, recovery);
    const listing = async (call: { caller: string; deadline: number }): Promise<ListReading<ReplyOf<O>>> =>
      (await this.ops.call(list, params, undefined, call)) as ListReading<ReplyOf<O>>;
    const deadline = this.ops.deadlineFromNow();
    const name = fieldsOf(body).name;
    let proof: Proof = { by: "nothing" };
    if (opts.uniqueName === true && typeof name === "string") proof = { by: "name", name };
    else if (recovery.snapshot === true)
      proof = { by: "snapshot", before: await this.snapshot(listing, operation, shape.idField, deadline) };
    const plan: CreatePlan<ReplyOf<O>> = {
      operation,
      noun: shape.noun,
      idField: shape.idField,
      label: recovery.label?.(body, params) ?? defaultLabel(body, shape.noun),
      projectId: String((params as Partial<PathParams<"{project}">>).project),
      post: (ctx) => this.ops.call(operation, params, body, ctx),
      list: listing,
      fits: (item) => recovery.fits(body, item, params),
      secret: recovery.secret,
      proof,
    };
    let last: AttemptRecord = { trace: {} };
    const made = await plan.post({
      deadline,
      waitsForLimit: true,
      onAttempt: (attempt) => (last = attempt),
      recover: (failure, final) => this.recover(plan, failure, last, final, deadline),
    });
    const id = fieldsOf(made)[plan.idField];
    if (typeof id === "string") this.ids.own(plan.noun, id);
    if (plan.secret !== undefined) registerSecret(fieldsOf(made)[plan.secret]);
    return made;
  }

  /** The ids the list shows just before a create without a name is sent; undefined when it cannot be read. */
  private async snapshot<T>(
    listing: (call: { caller: string; deadline: number }) => Promise<ListReading<T>>,
    operation: string,
    idField: string,
    deadline: number,
  ): Promise<ReadonlySet<string> | undefined> {
    try {
      return new Set(candidatesOf(await listing({ caller: operation, deadline }), idField).map((c) => c.id));
    } catch {
      return undefined;
    }
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
    const answered = fieldsOf(attempt.body);
    const answeredId = answered[plan.idField];
    const namedId = ResponseValidationError.isInstance(failure) && typeof answeredId === "string" ? answeredId : undefined;
    let settled: Settled<T> = { none: true };
    for (let look = 0; look <= LOOK_AGAIN_MS.length && "none" in settled; look++) {
      if (look > 0) {
        const pause = LOOK_AGAIN_MS[look - 1];
        if (Date.now() + pause > deadline) break;
        // The list may lag behind the create. A client stopped meanwhile looks no more: the outcome stays unknown.
        if (
          !(await sleep(pause, this.ops.stopped).then(
            () => true,
            () => false,
          ))
        )
          break;
      }
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
      settled = this.judge(plan, candidatesOf(reading, plan.idField), attempt, namedId);
    }
    if ("taken" in settled) {
      const only = settled.taken;
      if (only.item === undefined) {
        throw new AmbiguousCreateError({
          ...ambiguous,
          candidateIds: [only.id],
          unsettled: `the ${plan.noun} it made cannot be read`,
          cause: failure,
        });
      }
      this.ids.own(plan.noun, only.id);
      const secret = plan.secret === undefined ? undefined : answered[plan.secret];
      if (plan.secret !== undefined && typeof secret === "string" && ResponseValidationError.isInstance(failure)) {
        registerSecret(secret);
        return { ...only.item, [plan.secret]: secret };
      }
      return only.item;
    }
    if ("ambiguous" in settled) {
      throw new AmbiguousCreateError({
        ...ambiguous,
        candidateIds: settled.ambiguous.map((c) => c.id),
        candidates: settled.ambiguous.map((c) => ({
          id: c.id,
          created: typeof c.fields.created === "string" ? c.fields.created : undefined,
        })),
        unsettled: settled.why,
        cause: failure,
      });
    }
    // Absence proves nothing: the list may lag, the request may still be on its way. Nothing is sent again.
    const accepted = ResponseValidationError.isInstance(failure) || NotTheApiError.isInstance(failure);
    throw new AmbiguousCreateError({
      ...ambiguous,
      candidateIds: [],
      unsettled:
        `${accepted ? "something answered 2xx, yet" : "the request may have reached the API, and"} no ${plan.noun} in the list fits it` +
        `${namedId === undefined ? "" : ` (its answer named ${JSON.stringify(namedId)})`}. A list may lag behind the API, and a request ` +
        `held on the way may still be carried out, so that proves nothing: the create was not sent again`,
      cause: failure,
    });
  }

  /** What one look at the list settles, by the plan's proof (see the module comment). */
  private judge<T>(plan: CreatePlan<T>, listed: Candidate<T>[], attempt: AttemptRecord, namedId: string | undefined): Settled<T> {
    const fitting = listed.filter((c) => !this.ids.isOwned(plan.noun, c.id) && plan.fits(c.fields));
    const one = (found: Candidate<T>[], why: string): Settled<T> =>
      found.length === 0 ? { none: true } : found.length === 1 ? { taken: found[0] } : { ambiguous: found, why };
    if (namedId !== undefined)
      return one(
        fitting.filter((c) => c.id === namedId),
        "several items carry the id its answer named",
      );
    const { proof } = plan;
    if (proof.by === "name") {
      const mine = fitting.filter((c) => c.fields.name === proof.name);
      const unknown = fitting.filter((c) => typeof c.fields.name !== "string");
      if (mine.length === 0 && unknown.length > 0) {
        return {
          ambiguous: unknown,
          why: `the list does not show the name of ${unknown.length === 1 ? "this one" : "these"}, so the client cannot tell`,
        };
      }
      return one(
        mine,
        `${mine.length} ${plan.noun}s carry the name ${JSON.stringify(proof.name)}, which is this create's own: the request was carried out more than once (a gateway repeated it)`,
      );
    }
    if (proof.by === "snapshot" && proof.before !== undefined) {
      const before = proof.before;
      return one(
        fitting.filter((c) => !before.has(c.id)),
        `several ${plan.noun}s that fit it appeared while it was under way, and the client does not guess which one is its own`,
      );
    }
    // New unless an answer showed it before the request went out: what this client saw, never a clock.
    const sentAt = attempt.trace.sentAt ?? Date.now();
    const maybeNew = fitting.filter((c) => !this.ids.seenBefore(plan.noun, c.id, sentAt));
    if (maybeNew.length === 0) return { none: true };
    return {
      ambiguous: maybeNew,
      why:
        proof.by === "snapshot"
          ? `the list could not be read before it was sent, so the client cannot tell which ${plan.noun} is new`
          : `its name ${plan.label} is not unique to this create, so ${maybeNew.length === 1 ? "this one" : "each of them"} may be another client's (another stack's): the client takes over only what it can prove it made`,
    };
  }
}
