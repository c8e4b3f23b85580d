/**
 * Create recovery: a create whose API description declares `recover` (api/operation.ts
 * `CreateRecovery`: the list that shows what it made, how an item fits the request) is
 * never blindly repeated; `ClouddbClient.perform` runs it here, and
 * nothing in this file names a kind of resource. Any failure after which the request may
 * have reached the API (a 5xx but 501/505/511, an answer lost, dropped, cut short or not
 * whole within its deadline, a 2xx whose body cannot be read or is not the API's, a 301,
 * 302 or 303 redirect, which a server may send after it acted) is an ambiguous outcome,
 * settled before anything more is sent. The API has no idempotency key, so a listed
 * resource is taken over only when it can have come from this create and no other client
 * (createProof.ts):
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
 * Absence proves nothing at once: a list may lag behind the API, and a request held on the
 * way may be carried out after recovery looked. What makes it proof is the contract's bound
 * (contract/README.md, "What a list shows of a create"): the API's list shows what a create
 * made within `listLagMs` of when the client stopped waiting for its request (the answer
 * came, the connection closed, or its deadline passed). So recovery looks at once and a few
 * times more (what a create made is usually listed by then), and while nothing fits it waits
 * until a list read can start `listLagMs` after the request ended: when that read shows
 * nothing either, the request made nothing, and the create is sent again (a new request, its
 * own lost answer recovered the same way; `watch` is told before). A wait that would pass the
 * operation's deadline (a provider's `timeouts.create`, deadline.ts; else the call's) is not
 * begun: the create fails with `AmbiguousCreateError`, saying so. A request that never reached
 * the API (connection refused) is sent again like any retry.
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
import type { CreateOptions, CreateWatch } from "./callArgs";
import type { CreatedIds } from "./createdIds";
import { candidatesOf, describeFailure, fieldsOf, judge, type Judged, type Proof, type Settled } from "./createProof";
import { scopeDeadline } from "./deadline";
import { AmbiguousCreateError, NotTheApiError, ResponseValidationError } from "./errors";
import type { ListReading } from "./listReading";
import type { AttemptRecord, CallContext, Operations, ReplyOf } from "./operations";
import { registerSecret } from "./redact";
import { isRetryableFailure } from "./retry";
import { sleep } from "./timers";

/**
 * The pauses before recovery looks again at a list that showed no candidate (it may lag
 * behind the create), before it waits for the list's bound: looking more finds more sooner.
 */
const LOOK_AGAIN_MS: readonly number[] = [500, 1_500];

/**
 * When to read a list again after each read that showed nothing of a create (epoch ms): after
 * each of {@link LOOK_AGAIN_MS} while they last, never later than `bound` (from when a read
 * proves the create made nothing: `listLag` after its request ended), then at `bound`;
 * undefined once the pauses are spent when there is no bound. The one schedule of such looks.
 */
export function looksAgain(bound?: number): (now?: number) => number | undefined {
  const pauses = [...LOOK_AGAIN_MS];
  return (now = Date.now()) => {
    const pause = pauses.shift();
    if (pause === undefined && bound === undefined) return undefined;
    return Math.max(now, Math.min(now + (pause ?? Infinity), bound ?? Infinity));
  };
}

/** How one create is sent, and how what it made is recognised in its list. */
interface CreatePlan<T> extends Judged {
  /** The create the caller ran. */
  readonly operation: string;
  /** Project it is made in. */
  readonly projectId: string;
  /** The identifier field of the resource, as its list names it. */
  readonly idField: string;
  /** Sends the create once under the retry policy, with `ctx` (deadline, recovery, attempt records). */
  readonly post: (ctx: CallContext<T>) => Promise<T>;
  /** Lists the resources among which it would be, with `call` naming the create as the caller. */
  readonly list: (call: { caller: string; deadline: number }) => Promise<ListReading<T>>;
  /** The answer's field that holds a secret, if any. */
  readonly secret: string | undefined;
  /** What proves ownership. */
  readonly proof: Proof;
  /** Told of what recovery does (the caller's journal). */
  readonly watch: CreateWatch | undefined;
  /** The latest a recovery may wait for the list's bound: the operation's deadline, else the first call's. */
  readonly waitLimit: number;
  /** The bound within which the list shows what a create made, ms (the client's `listLagMs`). */
  readonly listLagMs: number;
}

/**
 * Within {@link Creates.run} alone: a list read started the bound after the lost request ended
 * shows nothing it made. (A peering's snapshot still holds for the create sent again: that read
 * showed no fitting item the snapshot did not.)
 */
class MadeNothing extends Error {
  /** @param failure - how the request's answer was lost. */
  constructor(readonly failure: unknown) {
    super("a list read the bound after the request ended shows nothing it made: it made nothing");
  }
}

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

/** A time for messages: ISO 8601, this machine's clock. */
const at = (ms: number): string => new Date(ms).toISOString();

/** `ms` in words for messages: `30 s`, `250 ms`. */
const lasting = (ms: number): string => (ms >= 1_000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`);

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

  /** Resolves true after `ms`, or false as soon as the client stops (closed, or its operation cancelled). */
  private pause(ms: number): Promise<boolean> {
    return sleep(ms, this.ops.stopped).then(
      () => true,
      () => false,
    );
  }

  /**
   * Runs the create `operation` with its full path `params` and `body`, recovering a lost
   * answer as the module comment says and as `recovery` (its description's, see
   * {@link recoveryOf}) declares; `opts.uniqueName` says the body's name is this create's own,
   * `opts.watch` is told of what recovery does.
   */
  async run<O extends Operation>(
    operation: O,
    recovery: CreateRecovery<unknown, PathParams>,
    params: ParamsOf<O>,
    body: unknown,
    opts: Pick<CreateOptions, "uniqueName" | "watch"> = {},
  ): Promise<ReplyOf<O>> {
    const { list, shape } = listOf(operation, recovery);
    const listing = async (call: { caller: string; deadline: number }): Promise<ListReading<ReplyOf<O>>> =>
      (await this.ops.call(list, params, undefined, call)) as ListReading<ReplyOf<O>>;
    const first = this.ops.deadlineFromNow();
    const name = fieldsOf(body).name;
    let proof: Proof = { by: "nothing" };
    if (opts.uniqueName === true && typeof name === "string") proof = { by: "name", name };
    else if (recovery.snapshot === true) proof = { by: "snapshot", before: await this.snapshot(listing, operation, shape.idField, first) };
    const plan: CreatePlan<ReplyOf<O>> = {
      operation,
      noun: shape.noun,
      idField: shape.idField,
      label: recovery.label?.(body, params) ?? defaultLabel(body, shape.noun),
      projectId: String((params as Partial<PathParams<"{project}">>).project),
      post: (ctx) => this.ops.call(operation, params, body, ctx),
      list: listing,
      fits: (item: Fields) => recovery.fits(body, item, params),
      secret: recovery.secret,
      proof,
      watch: opts.watch,
      waitLimit: scopeDeadline() ?? first,
      listLagMs: this.ops.config.listLagMs,
    };
    for (let deadline = first; ; deadline = this.ops.deadlineFromNow()) {
      let last: AttemptRecord = { trace: {} };
      try {
        const made = await plan.post({
          deadline,
          waitsForLimit: true,
          onAttempt: (attempt) => (last = attempt),
          recover: (failure, final) => this.recover(plan, failure, last, final),
        });
        const id = fieldsOf(made)[plan.idField];
        if (typeof id === "string") this.ids.own(plan.noun, id);
        if (plan.secret !== undefined) registerSecret(fieldsOf(made)[plan.secret]);
        return made;
      } catch (e) {
        if (!(e instanceof MadeNothing)) throw e;
        // The request whose answer was lost made nothing: the create is sent again, as a new request, unless what
        // answered would answer the same (a page that is not the API's, a redirect): then it fails with that answer.
        const again = isRetryableFailure(e.failure);
        await plan.watch?.madeNothing(again);
        if (!again) throw this.notSentAgain(plan, e.failure);
      }
    }
  }

  /** `failure`, a page or redirect that answered a create which made nothing, saying so: the create is not sent again through it. */
  private notSentAgain(plan: Pick<CreatePlan<unknown>, "listLagMs" | "noun">, failure: unknown): unknown {
    if (failure instanceof Error) {
      failure.message +=
        ` A list read ${lasting(plan.listLagMs)} (listLag) after the request ended shows no ${plan.noun} it made: it made none, ` +
        "and the create was not sent again through what answered so.";
    }
    return failure;
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

  /**
   * Settles the outcome of the request `attempt`, whose answer was lost with `failure`: the
   * resource it made, or `MadeNothing` (the create is then sent again), or an
   * `AmbiguousCreateError`; a retryable failure of a list read before the retries ran out
   * (`final` false) is thrown as it is (the outcome stays unsettled, and is settled again later).
   */
  private async recover<T>(plan: CreatePlan<T>, failure: unknown, attempt: AttemptRecord, final: boolean): Promise<T | undefined> {
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
    const endedAt = attempt.trace.endedAt ?? Date.now();
    await plan.watch?.lost(endedAt);
    // A list read started this late shows what the request made, if it made anything (the contract's bound).
    const bound = endedAt + plan.listLagMs;
    const lookAgain = looksAgain(bound);
    let settled: Settled<T>;
    let stopped: "deadline" | "closed" = "deadline";
    for (;;) {
      let reading: ListReading<T>;
      try {
        reading = await plan.list({ caller: plan.operation, deadline: this.ops.deadlineFromNow() });
      } catch (err) {
        if (!final && isRetryableFailure(err)) throw err;
        throw new AmbiguousCreateError({
          ...ambiguous,
          candidateIds: [],
          unsettled: `the client could not list the ${plan.noun}s to check what it made (${err instanceof Error ? err.message : String(err)})`,
          cause: err,
        });
      }
      settled = judge(plan, this.ids, candidatesOf(reading, plan.idField), attempt, namedId);
      if (!("none" in settled)) break;
      if ((reading.sentAt ?? -Infinity) >= bound) throw new MadeNothing(failure);
      // Nothing yet: look again soon (the list may lag a little), then once a read can start at the bound.
      const next = lookAgain() ?? bound;
      if (next >= plan.waitLimit) break;
      if (!(await this.pause(next - Date.now()))) {
        stopped = "closed";
        break;
      }
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
    // Nothing listed, and no read of the list at its bound: that proves nothing (a list may lag). Nothing is sent again.
    const accepted = ResponseValidationError.isInstance(failure) || NotTheApiError.isInstance(failure);
    const why =
      stopped === "closed"
        ? "the client was stopped (closed, or the operation cancelled) while it waited for that"
        : `waiting for that would pass the time this create may wait (until ${at(plan.waitLimit)}; a resource's \`timeouts.create\`, or its \`customTimeouts.create\` on the native plugin)`;
    throw new AmbiguousCreateError({
      ...ambiguous,
      candidateIds: [],
      unsettled:
        `${accepted ? "something answered 2xx, yet" : "the request may have reached the API, and"} no ${plan.noun} in the list fits it` +
        `${namedId === undefined ? "" : ` (its answer named ${JSON.stringify(namedId)})`}. A list may lag behind the API: it shows what a ` +
        `create made within ${lasting(plan.listLagMs)} (listLag) of when the request ended (${at(endedAt)}), so a list read from ` +
        `${at(bound)} on that shows none would prove it made none; but ${why}, so the create was not sent again`,
      cause: failure,
    });
  }
}
