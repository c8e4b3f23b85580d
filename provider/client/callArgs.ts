/**
 * What a caller gives `ClouddbClient.perform` besides an operation's name, typed from
 * the API description: the operation's path parameters (all but `project`), its request
 * body as `body` (when it takes one), and the options of its kind of call.
 */
import type { API, BodyOf, Operation, ParamsOf } from "../../contract";

/** Options of every call of an operation under a project. */
export interface ProjectOptions {
  /** Project to address. @default the client's `projectId` */
  projectId?: string;
}

/** Options of the creates (VPCs, peerings, services, forks, replica sets). */
export interface CreateOptions extends ProjectOptions {
  /**
   * `true` when the request's `name` belongs to this create alone (generated with a random
   * suffix, as the providers' autonaming does): when its answer is lost, a listed resource
   * of exactly that name is what it made, whatever the clocks say, and is taken over.
   * Otherwise a name proves nothing (another client may use it), and a resource that fits
   * is never taken over: the create fails naming every candidate and the `adoptId` to use.
   * @default false
   */
  uniqueName?: boolean;
  /**
   * Told of what recovery does after the create's answer is lost, and awaited each time, so
   * that a record kept outside the client (the providers' journal of creates in flight) is
   * written before the client goes on. @default none
   */
  watch?: CreateWatch;
}

/**
 * What a create whose answer was lost tells its caller (see {@link CreateOptions.watch}). The
 * API's lists show what a create made within the client's `listLagMs` of when the client
 * stopped waiting for the answer: a list read started that long after it that shows nothing
 * the create made proves it made nothing, and the create is sent again.
 */
export interface CreateWatch {
  /**
   * The answer was lost: the client stopped waiting for it at `endedAt` (epoch ms, this
   * machine's clock). Told before recovery looks for what the create made.
   */
  lost(endedAt: number): void | Promise<void>;
  /**
   * A list read started the bound after the request ended shows nothing it made: it made
   * nothing. `again` is true when the create is now sent again (its answer was lost to a 5xx or
   * the network), false when it is not (the answer was a page that is not the API's, or a
   * redirect: what answered so would answer the same) and the create fails with that answer.
   */
  madeNothing(again: boolean): void | Promise<void>;
}

/** Options of the reads (`getService`, the lists, ...). */
export interface ReadOptions extends ProjectOptions {
  /** Skip the read cache (which serves `getService` when `listCacheMs` > 0) and ask the API. @default false */
  fresh?: boolean;
  /**
   * For `listServices` on a client that shares a pacing directory: an answer another client of
   * the key on this machine read serves this call when its request was sent at most this many
   * ms before the call, even once this client has written (a list older than the call, which
   * may not show what was made since). Without it, only an answer to a request sent after the
   * call serves it, and only before this client's first write (shaping/machineReads.ts). For
   * reads an older list cannot mislead, e.g. the look-alikes before a create
   * (framework/lookAlikeList.ts).
   */
  sharedMaxAgeMs?: number;
}

/** The options of a call of `O`, by its kind: creates, reads, and the rest. */
export type OptionsOf<O extends Operation> = (typeof API)[O]["retry"] extends "create"
  ? CreateOptions
  : (typeof API)[O]["retry"] extends "read"
    ? ReadOptions
    : ProjectOptions;

/** The request body of `O` as `body`, required when it takes one. */
export type BodyArg<O extends Operation> = BodyOf<O> extends undefined ? { readonly body?: undefined } : { readonly body: BodyOf<O> };

/**
 * What a call of `O` gives: e.g. `{ service: id, body: { cpu_millis: "1000", memory_gbs: "4" } }`
 * for `resizeService`, `{ projectId }` for `listVpcs`.
 */
export type CallArgs<O extends Operation> = Omit<ParamsOf<O>, "project"> & BodyArg<O> & OptionsOf<O>;

/** The arguments after the operation's name: none needed when nothing of {@link CallArgs} is required. */
export type PerformArgs<O extends Operation> = Partial<CallArgs<O>> extends CallArgs<O> ? [args?: CallArgs<O>] : [args: CallArgs<O>];

/** {@link CallArgs} of any operation, as the client takes them apart. */
export interface AnyCallArgs extends CreateOptions, ReadOptions {
  readonly body?: unknown;
  readonly [param: string]: unknown;
}
